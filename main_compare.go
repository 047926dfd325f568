package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"podlab.dev/podlab/lab"
)

// cmdCompare is `podlab compare`: the lab's fork and compare, headless.
func cmdCompare(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("compare", stderr)
	file := fs.String("f", "", "scenario file")
	var opts lab.CompareOptions
	var a, b, do repeated
	var seed optionalInt64
	fs.Var(&a, "a", "a change for lane a: a command line, or a file of them (repeatable)")
	fs.Var(&b, "b", "a change for lane b: a command line, or a file of them (repeatable)")
	fs.Var(&do, "do", "command for both lanes, after the changes (repeatable; `advance D` moves time)")
	fs.DurationVar(&opts.For, "for", lab.DefaultRunFor, "virtual time to simulate")
	fs.Var(&seed, "seed", "random seed (default: the scenario's)")
	fs.StringVar(&opts.TieBreak, "tie-break", "", "random or name")
	fs.StringVar(&opts.Output, "o", "text", "output: text or json")
	if code, ok := parse(fs, args, stderr); !ok {
		return code
	}
	f, code := openScenario(*file, stdin, stderr, "compare")
	if f == nil {
		return code
	}
	var err error
	if opts.A, err = changeLines(a); err == nil {
		opts.B, err = changeLines(b)
	}
	if err != nil {
		fmt.Fprintf(stderr, "podlab compare: %v\n", err)
		return 2
	}
	opts.Do, opts.Seed = do, seed.v
	if _, err := lab.CompareRun(stdout, f, opts); err != nil {
		fmt.Fprintf(stderr, "podlab compare: %v\n", err)
		if errors.Is(err, lab.ErrTimelineFailed) {
			return 1 // compared, but a lane's timeline did not happen as written
		}
		return 2
	}
	return 0
}

// changeLines expands --a/--b values: a value naming a readable file is
// replaced by its lines (blank lines and # comments skipped) — or, when
// the file is a manifest (a KubeSchedulerConfiguration, a changed
// Deployment…), by `apply -f` of it; anything else is one command line.
func changeLines(values []string) ([]string, error) {
	var out []string
	for _, v := range values {
		st, err := os.Stat(v)
		if err != nil || st.IsDir() {
			out = append(out, v)
			continue
		}
		data, err := os.ReadFile(v)
		if err != nil {
			return nil, err
		}
		if isManifest(data) {
			abs, err := filepath.Abs(v)
			if err != nil {
				return nil, err
			}
			out = append(out, "apply -f "+abs)
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			out = append(out, line)
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", v, err)
		}
	}
	return out, nil
}

// isManifest reports a YAML or JSON document with apiVersion and kind at
// its top level (a command file has neither).
func isManifest(data []byte) bool {
	var api, kind bool
	for _, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		api = api || strings.HasPrefix(line, "apiVersion:") || strings.HasPrefix(t, `"apiVersion"`)
		kind = kind || strings.HasPrefix(line, "kind:") || strings.HasPrefix(t, `"kind"`)
	}
	return api && kind
}
