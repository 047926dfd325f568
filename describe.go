package main

import (
	"errors"
	"fmt"
	"io"

	"podlab.dev/podlab/lab"
)

// cmdDescribe is `podlab describe -f FILE --pod NAME [--at 2m] [--do CMD]...`:
// kubectl describe pod at a virtual time.
func cmdDescribe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("describe", stderr)
	file := fs.String("f", "", "scenario file")
	var opts lab.DescribeOptions
	var do repeated
	var seed optionalInt64
	fs.StringVar(&opts.Pod, "pod", "", "pod name (NAME or NAMESPACE/NAME)")
	fs.DurationVar(&opts.At, "at", 0, "virtual time to run to first")
	fs.Var(&seed, "seed", "random seed (default: the scenario's)")
	fs.Var(&do, "do", "command to apply at t=0 (repeatable; `advance D` moves time between them)")
	if code, ok := parse(fs, args, stderr); !ok {
		return code
	}
	if opts.Pod == "" {
		fmt.Fprintln(stderr, "podlab describe: --pod NAME is required")
		return 2
	}
	f, code := openScenario(*file, stdin, stderr, "describe")
	if f == nil {
		return code
	}
	opts.Do, opts.Seed = do, seed.v
	if err := lab.Describe(stdout, f, opts); err != nil {
		fmt.Fprintf(stderr, "podlab describe: %v\n", err)
		if errors.Is(err, lab.ErrTimelineFailed) {
			return 1 // described, but the timeline did not happen as written
		}
		return 2
	}
	return 0
}
