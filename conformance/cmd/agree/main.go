// Command agree runs the conformance comparison on generated scenarios
// (and/or files) and reports the agreement rate:
//
//	go run ./cmd/agree -n 10000 -seed 1
//	go run ./cmd/agree testdata/*.yaml
//
// A generated scenario that agrees once regenerated without the features
// of the open findings in docs/conformance.md (pod-level resources, stale
// nominations) counts as a known finding; the exit status is 0 when every
// scenario agrees or is known (-strict: only when every one agrees).
// Disagreeing scenarios are written to -keep DIR (if given) with their
// differences as a comment header.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"podlab.dev/podlab/conformance"
	"podlab.dev/podlab/conformance/gen"
)

func main() {
	n := flag.Int("n", 1000, "number of generated scenarios")
	seed := flag.Uint64("seed", 1, "generator seed")
	keep := flag.String("keep", "", "directory to write disagreeing scenarios to")
	verbose := flag.Bool("v", false, "print every disagreement")
	showCoverage := flag.Bool("coverage", false, "print what the real scheduler exercised (reasons, non-zero scores, preemptions)")
	noPodLevel := flag.Bool("no-pod-level-resources", false, "generate no pod-level resources (skip a known difference)")
	noNominations := flag.Bool("no-nominations", false, "generate no stale status.nominatedNodeName (skip a known difference)")
	shape := flag.String("shape", "mixed", "generated scenario size: mixed (every fifth large), small or large")
	strict := flag.Bool("strict", false, "exit 1 on the known findings too")
	noPreempt := flag.Bool("no-preemption", false, "disable preemption on both sides")
	policy := flag.Bool("policy", false, "add a random KubeSchedulerConfiguration to every generated scenario")
	flag.Parse()

	type input struct {
		name string
		data []byte
		// known regenerates the scenario without the features of the open
		// findings (nil for files).
		known func() []byte
	}
	var inputs []input
	for _, f := range flag.Args() {
		data, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "agree:", err)
			os.Exit(2)
		}
		inputs = append(inputs, input{name: f, data: data})
	}
	if len(inputs) == 0 {
		for i := 0; i < *n; i++ {
			cfg := gen.Mixed(i)
			switch *shape {
			case "small":
				cfg = gen.Config{}
			case "large":
				cfg = gen.Large
			}
			cfg = withOpts(cfg, *noPodLevel, *noNominations)
			cfg.Policy = *policy
			i := i
			inputs = append(inputs, input{fmt.Sprintf("s%d-%d.yaml", *seed, i), gen.Scenario(*seed, i, cfg),
				func() []byte { return gen.Scenario(*seed, i, withOpts(cfg, true, true)) }})
		}
	}
	start := time.Now()
	agreed, known, explainOnly, scheduleOnly, errs := 0, 0, 0, 0, 0
	opts := conformance.Options{DisablePreemption: *noPreempt}
	kinds := map[string]int{}
	coverage := map[string]int{}
	for _, in := range inputs {
		o := conformance.Check(in.name, in.data, opts)
		for k, v := range o.Coverage {
			coverage[k] += v
		}
		switch {
		case o.Agree():
			agreed++
			continue
		case in.known != nil && conformance.Check(in.name, in.known(), opts).Agree():
			// Gone without pod-level resources and stale nominations: one
			// of the open findings of docs/conformance.md.
			known++
			kinds["known finding: "+kindOf(append(o.Explain, o.Schedule...)[0])]++
			if *verbose {
				fmt.Printf("KNOWN %s\n%s", in.name, indent(o.Report()))
			}
			continue
		case o.Err != nil:
			errs++
			kinds["error: "+firstLine(o.Err.Error())]++
		case len(o.Schedule) == 0:
			explainOnly++
		case len(o.Explain) == 0:
			scheduleOnly++
		}
		for _, d := range append(o.Explain, o.Schedule...) {
			kinds[kindOf(d)]++
		}
		if *verbose {
			fmt.Printf("DISAGREE %s\n%s", in.name, indent(o.Report()))
		}
		if *keep != "" {
			_ = os.MkdirAll(*keep, 0o755)
			hdr := "# " + strings.ReplaceAll(strings.TrimRight(o.Report(), "\n"), "\n", "\n# ") + "\n"
			_ = os.WriteFile(filepath.Join(*keep, filepath.Base(in.name)), append([]byte(hdr), in.data...), 0o644)
		}
	}
	total := len(inputs)
	fmt.Printf("scenarios %d  agreed %d (%.2f%%)  known findings %d  new disagreements: explain+schedule %d, explain only %d, schedule only %d, errors %d  (%.1fs)\n",
		total, agreed, 100*float64(agreed)/float64(max(total, 1)), known,
		total-agreed-known-explainOnly-scheduleOnly-errs, explainOnly, scheduleOnly, errs, time.Since(start).Seconds())
	keys := make([]string, 0, len(kinds))
	for k := range kinds {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return kinds[keys[i]] > kinds[keys[j]] || (kinds[keys[i]] == kinds[keys[j]] && keys[i] < keys[j])
	})
	for _, k := range keys {
		fmt.Printf("  %6d  %s\n", kinds[k], k)
	}
	if *showCoverage {
		fmt.Println("coverage (real scheduler, all explains and placements):")
		keys := make([]string, 0, len(coverage))
		for k := range coverage {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Printf("  %8d  %s\n", coverage[k], k)
		}
	}
	if agreed+known != total || (*strict && known > 0) {
		os.Exit(1)
	}
}

// kindOf reduces a difference line to its kind (plugin/field), for the
// summary: "node node-03: PodTopologySpread score want 3, got 4" →
// "PodTopologySpread score".
func kindOf(d string) string {
	s := d
	if i := strings.Index(s, ": node "); i >= 0 {
		s = s[i+2:]
	}
	if strings.HasPrefix(s, "node ") {
		if i := strings.Index(s, ": "); i >= 0 {
			s = s[i+2:]
		}
	}
	if strings.HasPrefix(s, "pod ") {
		if i := strings.Index(s, ": "); i >= 0 {
			s = s[i+2:]
		}
	}
	for _, cut := range []string{" want", "\n"} {
		if i := strings.Index(s, cut); i >= 0 {
			s = s[:i]
		}
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ") + "\n"
}

func withOpts(c gen.Config, noPodLevel, noNominations bool) gen.Config {
	c.NoPodLevelResources = noPodLevel
	c.NoNominations = noNominations
	return c
}
