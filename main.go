// Command podlab is a terminal lab for Kubernetes scheduling: topology
// spread, preemption, eviction and graceful termination on an in-memory,
// kube-scheduler-faithful cluster.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "podlab: under construction")
	os.Exit(2)
}
