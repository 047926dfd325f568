// Command gen writes generated conformance scenarios to a directory:
// gen -seed 1 -n 100 -out DIR writes DIR/s<seed>-<i>.yaml.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"podlab.dev/podlab/conformance/gen"
)

func main() {
	seed := flag.Uint64("seed", 1, "generator seed")
	n := flag.Int("n", 10, "number of scenarios")
	out := flag.String("out", ".", "output directory")
	policy := flag.Bool("policy", false, "add a random KubeSchedulerConfiguration")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	for i := 0; i < *n; i++ {
		path := filepath.Join(*out, fmt.Sprintf("s%d-%d.yaml", *seed, i))
		cfg := gen.Mixed(i)
		cfg.Policy = *policy
		if err := os.WriteFile(path, gen.Scenario(*seed, i, cfg), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}
