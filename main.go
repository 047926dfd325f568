// Command podlab is a terminal lab for Kubernetes scheduling: topology
// spread, preemption, eviction and graceful termination on an in-memory,
// kube-scheduler-faithful cluster. main only parses flags and dispatches;
// the work lives in lab/ (headless commands) and ui/ (the TUI).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"podlab.dev/podlab/assets"
	"podlab.dev/podlab/lab"
	"podlab.dev/podlab/lab/textsafe"
	"podlab.dev/podlab/presets"
	"podlab.dev/podlab/serve"
	"podlab.dev/podlab/ui"
)

const usage = `podlab — a Kubernetes scheduling lab in your terminal

Usage:
  podlab [flags]                      open the lab on the default preset (spread basics)
  podlab -f FILE|PRESET [flags]       open the lab on a scenario file or preset
  podlab tui [-f FILE|PRESET] [flags] the same
  podlab explain  -f FILE [--pod NAME|KIND/NAME] [--at 2m] [--do "CMD"]... [-o text|json] [--seed N] [--tie-break random|name]
                                      why a pod is pending (workloads' pods: the running lab at --at)
  podlab schedule -f FILE [-o text|json] [--seed N] [--tie-break random|name] [--no-preempt]
  podlab run      -f FILE [--for 5m] [--seed N] [--do "CMD"]... [-o text|json] [--metrics [-o csv|json]]
                                      exit 1 when a timeline command failed
  podlab compare  -f FILE [--a CHANGE]... [--b CHANGE]... [--for 5m] [--do "CMD"]... [-o text|json]
                                      fork at t=0, give each lane its changes, run both, print what differs
  podlab describe -f FILE --pod NAME [--at 2m] [--do "CMD"]...      kubectl describe pod at a virtual time
  podlab check    -f FILE [--solutions] [--seed N] [--do "CMD"]...   exit 0 when every lesson check passes
  podlab validate -f FILE                                           check a file without running it
  podlab presets                      list the built-in scenarios (lessons)
  podlab serve [-f LESSON] [--listen :2222] [--auth open|keys FILE|password] [--record FILE]
                                      run a workshop over SSH (podlab serve --help)
  podlab export NAME|FILE             print a preset as plain manifests for a real cluster (kind, kwok)
  podlab help [checks]                this text (checks: the functions lesson checks use)

FILE may be "-" for standard input (e.g. kubectl get nodes,pods -A -o yaml | podlab -f -).

Flags for the lab:
  --seed N       random seed for tie-breaking (default: the scenario's)
  --scheduler-config FILE  a KubeSchedulerConfiguration to schedule with (overrides the scenario's)
  --speed X      virtual seconds per real second, ¼ to 64 (default: the scenario's, else 1)
  --theme NAME   dark, light, projector or colorblind (default: from the terminal)
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run dispatches a command line and returns the exit code: 0 success,
// 1 the command ran and failed (e.g. a check did not pass), 2 usage or input
// errors.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// Error messages quote input (file names, manifest values, command
	// lines): every one is cleaned on its way out.
	stderr = textsafe.NewWriter(stderr)
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, rest := args[0], args[1:]
		switch cmd {
		case "explain":
			return cmdExplain(rest, stdin, stdout, stderr)
		case "schedule":
			return cmdSchedule(rest, stdin, stdout, stderr)
		case "describe":
			return cmdDescribe(rest, stdin, stdout, stderr)
		case "run":
			return cmdRun(rest, stdin, stdout, stderr)
		case "check":
			return cmdCheck(rest, stdin, stdout, stderr)
		case "compare":
			return cmdCompare(rest, stdin, stdout, stderr)
		case "validate":
			return cmdValidate(rest, stdin, stdout, stderr)
		case "presets":
			return cmdPresets(rest, stdout, stderr)
		case "export":
			return cmdExport(rest, stdout, stderr)
		case "help":
			if len(rest) > 0 && rest[0] == "checks" {
				lab.WriteCheckHelp(stdout)
				return 0
			}
			fmt.Fprint(stdout, usage)
			return 0
		case "tui":
			return cmdTUI(rest, stdin, stdout, stderr)
		case "serve":
			return serve.Command(rest, stdin, stdout, stderr)
		default:
			fmt.Fprintf(stderr, "podlab: unknown command %q\n\n%s", cmd, usage)
			return 2
		}
	}
	return cmdTUI(args, stdin, stdout, stderr)
}

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("podlab "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	schedulerConfigFlag = ""
	fs.StringVar(&schedulerConfigFlag, "scheduler-config", "", "KubeSchedulerConfiguration file (overrides the scenario's)")
	return fs
}

// schedulerConfigFlag is the --scheduler-config every command accepts;
// openScenario applies it.
var schedulerConfigFlag string

// parse parses flags, allowing them after positional words too.
func parse(fs *flag.FlagSet, args []string, stderr io.Writer) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "podlab %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return 2, false
	}
	return 0, true
}

func openScenario(path string, stdin io.Reader, stderr io.Writer, cmd string) (*lab.File, int) {
	if path == "" {
		fmt.Fprintf(stderr, "podlab %s: -f FILE is required\n", cmd)
		return nil, 2
	}
	f, err := lab.OpenOrPresetWithProgress(path, stdin, importProgress(stderr, path))
	if err == nil && schedulerConfigFlag != "" {
		err = f.UseSchedulerConfigFile(schedulerConfigFlag)
	}
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return nil, 2
	}
	for _, w := range f.Objects.Warnings {
		fmt.Fprintf(stderr, "%s\n", w)
	}
	return f, 0
}

func cmdExplain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("explain", stderr)
	file := fs.String("f", "", "scenario file")
	var opts lab.ExplainOptions
	var do repeated
	fs.StringVar(&opts.Pod, "pod", "", "pending pod to explain: NAME, NAMESPACE/NAME or KIND/NAME (default: the first)")
	fs.StringVar(&opts.Output, "o", "text", "output: text or json")
	fs.Int64Var(&opts.Seed, "seed", 0, "tie-break seed")
	fs.StringVar(&opts.TieBreak, "tie-break", "", "random or name")
	fs.DurationVar(&opts.At, "at", 0, "virtual time to run to first (runs the lab)")
	fs.Var(&do, "do", "command to apply at t=0 (repeatable; runs the lab)")
	if code, ok := parse(fs, args, stderr); !ok {
		return code
	}
	fs.Visit(func(fl *flag.Flag) { opts.SeedSet = opts.SeedSet || fl.Name == "seed" })
	opts.Do = do
	f, code := openScenario(*file, stdin, stderr, "explain")
	if f == nil {
		return code
	}
	if err := lab.Explain(stdout, f, opts); err != nil {
		fmt.Fprintf(stderr, "podlab explain: %v\n", err)
		if errors.Is(err, lab.ErrTimelineFailed) {
			return 1 // explained, but the timeline did not happen as written
		}
		return 2
	}
	return 0
}

func cmdSchedule(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("schedule", stderr)
	file := fs.String("f", "", "scenario file")
	var opts lab.ScheduleOptions
	fs.StringVar(&opts.Output, "o", "text", "output: text or json")
	fs.Int64Var(&opts.Seed, "seed", 0, "tie-break seed")
	fs.StringVar(&opts.TieBreak, "tie-break", "", "random or name")
	fs.BoolVar(&opts.NoPreempt, "no-preempt", false, "do not run preemption for pods that fit nowhere")
	if code, ok := parse(fs, args, stderr); !ok {
		return code
	}
	f, code := openScenario(*file, stdin, stderr, "schedule")
	if f == nil {
		return code
	}
	note := lab.ScheduleNothingNote(f, *file) // before Schedule binds the file's pods
	if err := lab.Schedule(stdout, f, opts); err != nil {
		fmt.Fprintf(stderr, "podlab schedule: %v\n", err)
		return 2
	}
	if note != "" {
		out := stdout
		if opts.Output == "json" {
			out = stderr // stdout stays JSON lines (none)
		}
		fmt.Fprintln(out, note)
	}
	return 0
}

func cmdTUI(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("tui", stderr)
	file := fs.String("f", "", "scenario file or preset name")
	var seed optionalInt64
	fs.Var(&seed, "seed", "tie-break seed (default: the scenario's)")
	speed := fs.Float64("speed", 0, "virtual seconds per real second, 0.25 to 64")
	theme := fs.String("theme", "", "dark, light, projector or colorblind")
	paused := fs.Bool("paused", false, "start with the clock stopped")
	if code, ok := parse(fs, args, stderr); !ok {
		return code
	}
	if *speed != 0 && !(*speed >= 0.25 && *speed <= 64) { // NaN too
		fmt.Fprintf(stderr, "podlab: --speed must be between 0.25 and 64\n")
		return 2
	}
	if *theme != "" {
		if _, err := assets.LoadTheme(*theme); err != nil {
			fmt.Fprintf(stderr, "podlab: %v\n", err)
			return 2
		}
	}
	path := *file
	if path == "" {
		path = presets.Default
	}
	f, code := openScenario(path, stdin, stderr, "tui")
	if f == nil {
		return code
	}
	sess, err := lab.NewSession(f, lab.SessionOptions{Seed: seed.v})
	if err != nil {
		fmt.Fprintf(stderr, "podlab: %v\n", err)
		return 2
	}
	recovery, _ := lab.RecoveryPath() // none found: no recovery file
	if err := ui.Run(sess, ui.Options{Theme: *theme, Speed: *speed, Paused: *paused, Recovery: recovery}); err != nil {
		fmt.Fprintf(stderr, "podlab: %v\n", err)
		return 1
	}
	return 0
}

// repeated collects a repeatable string flag (--do).
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, "; ") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

// optionalInt64 is a flag that records whether it was given.
type optionalInt64 struct{ v *int64 }

func (o *optionalInt64) String() string {
	if o.v == nil {
		return ""
	}
	return fmt.Sprint(*o.v)
}

func (o *optionalInt64) Set(s string) error {
	var n int64
	if _, err := fmt.Sscan(s, &n); err != nil {
		return fmt.Errorf("want an integer")
	}
	o.v = &n
	return nil
}

func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("run", stderr)
	file := fs.String("f", "", "scenario file")
	var opts lab.RunOptions
	var do repeated
	var seed optionalInt64
	fs.DurationVar(&opts.For, "for", lab.DefaultRunFor, "virtual time to simulate")
	fs.Var(&seed, "seed", "random seed (default: the scenario's)")
	fs.StringVar(&opts.TieBreak, "tie-break", "", "random or name")
	fs.Var(&do, "do", "command to apply at t=0 (repeatable; `advance D` moves time between them)")
	fs.StringVar(&opts.Output, "o", "", "output: text or json (with --metrics: csv or json)")
	fs.BoolVar(&opts.Metrics, "metrics", false, "write the cluster's time series (every virtual second) instead of the events")
	if code, ok := parse(fs, args, stderr); !ok {
		return code
	}
	f, code := openScenario(*file, stdin, stderr, "run")
	if f == nil {
		return code
	}
	opts.Do, opts.Seed = do, seed.v
	if err := lab.Run(stdout, f, opts); err != nil {
		fmt.Fprintf(stderr, "podlab run: %v\n", err)
		if errors.Is(err, lab.ErrTimelineFailed) {
			return 1 // it ran to the end, but the scenario did not happen as written
		}
		return 2
	}
	return 0
}

func cmdCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("check", stderr)
	file := fs.String("f", "", "lesson (scenario) file")
	var opts lab.CheckOptions
	var do repeated
	var seed optionalInt64
	fs.Var(&seed, "seed", "random seed (default: the scenario's)")
	fs.Var(&do, "do", "command to apply at t=0 (repeatable)")
	fs.BoolVar(&opts.Solutions, "solutions", false, "apply each step's solution commands before checking it")
	fs.DurationVar(&opts.Settle, "settle", 2*time.Minute, "virtual time to let the cluster settle before each step's checks")
	if code, ok := parse(fs, args, stderr); !ok {
		return code
	}
	f, code := openScenario(*file, stdin, stderr, "check")
	if f == nil {
		return code
	}
	opts.Do, opts.Seed = do, seed.v
	ok, err := lab.Check(stdout, f, opts)
	if err != nil {
		fmt.Fprintf(stderr, "podlab check: %v\n", err)
		return 2
	}
	if !ok {
		return 1
	}
	return 0
}

func cmdValidate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("validate", stderr)
	file := fs.String("f", "", "scenario file")
	if code, ok := parse(fs, args, stderr); !ok {
		return code
	}
	f, code := openScenario(*file, stdin, stderr, "validate")
	if f == nil {
		return code
	}
	if err := lab.Validate(stdout, f); err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 2
	}
	return 0
}

func cmdPresets(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("presets", stderr)
	if code, ok := parse(fs, args, stderr); !ok {
		return code
	}
	stdout = textsafe.NewWriter(stdout)
	for _, p := range lab.Presets() {
		def := ""
		if p.Name == presets.Default {
			def = " (default)"
		}
		fmt.Fprintf(stdout, "%-32s %s%s\n", p.Name, p.Title, def)
	}
	return 0
}

func cmdExport(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintf(stderr, "podlab export: give one preset name or file (podlab presets lists them)\n")
		return 2
	}
	f, err := lab.OpenOrPreset(args[0], nil)
	if err != nil {
		fmt.Fprintf(stderr, "podlab export: %v\n", err)
		return 2
	}
	if err := lab.Export(stdout, f); err != nil {
		fmt.Fprintf(stderr, "podlab export: %v\n", err)
		return 2
	}
	return 0
}
