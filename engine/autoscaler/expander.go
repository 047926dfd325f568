package autoscaler

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/clock"
)

// Option is one way to scale up (expander.Option): add NodeCount nodes to
// Group, which would host Pods.
type Option struct {
	Group     string
	NodeCount int
	Pods      []*api.Pod
	// Similar lists the groups the scale-up may be balanced with.
	Similar []string
}

// ExpanderChoice records how the expander chain narrowed the options, for
// the status view ("least-waste kept [a b], random picked b").
type ExpanderChoice struct {
	Steps  []string
	Chosen *Option
}

// chooseOption runs the expander chain as expander/factory/chain.go: each
// filter narrows the options; a single survivor wins at once; otherwise
// the random strategy picks among the survivors. templates maps group
// name to its template node; rng is the autoscaler's seeded generator.
func chooseOption(chain []string, priorities map[int][]string, options []Option, templates map[string]*api.Node, rng *clock.Rand) ExpanderChoice {
	var ch ExpanderChoice
	filtered := options
	for _, name := range chain {
		if name == ExpanderRandom {
			continue // the chain's fallback
		}
		filtered = expanderFilter(name, priorities, filtered, templates)
		ch.Steps = append(ch.Steps, fmt.Sprintf("%s kept %s", name, optionNames(filtered)))
		if len(filtered) == 1 {
			ch.Chosen = &filtered[0]
			return ch
		}
	}
	if len(filtered) == 0 {
		ch.Steps = append(ch.Steps, "no option left")
		return ch
	}
	i := 0
	if len(filtered) > 1 {
		i = rng.IntN(len(filtered))
	}
	ch.Chosen = &filtered[i]
	ch.Steps = append(ch.Steps, fmt.Sprintf("random picked %s of %s", filtered[i].Group, optionNames(filtered)))
	return ch
}

func optionNames(opts []Option) string {
	names := make([]string, len(opts))
	for i, o := range opts {
		names[i] = o.Group
	}
	return "[" + strings.Join(names, " ") + "]"
}

func expanderFilter(name string, priorities map[int][]string, opts []Option, templates map[string]*api.Node) []Option {
	switch name {
	case ExpanderMostPods:
		return mostPods(opts)
	case ExpanderLeastWaste:
		return leastWaste(opts, templates)
	case ExpanderLeastNodes:
		return leastNodes(opts)
	case ExpanderPriority:
		return byPriority(opts, priorities)
	}
	return opts
}

// mostPods keeps the options that schedule the most pods
// (expander/mostpods/mostpods.go).
func mostPods(opts []Option) []Option {
	maxPods := 0
	var best []Option
	for _, o := range opts {
		if len(o.Pods) == maxPods {
			best = append(best, o)
		}
		if len(o.Pods) > maxPods {
			maxPods = len(o.Pods)
			best = []Option{o}
		}
	}
	return best
}

// leastNodes keeps the options that use the fewest nodes, ignoring
// options of 0 nodes (expander/leastnodes/leastnodes.go).
func leastNodes(opts []Option) []Option {
	least := math.MaxInt
	var best []Option
	for _, o := range opts {
		if o.NodeCount == 0 {
			continue
		}
		if o.NodeCount == least {
			best = append(best, o)
			continue
		}
		if o.NodeCount < least {
			least = o.NodeCount
			best = []Option{o}
		}
	}
	return best
}

// wasteScore is least-waste's score: the unused fraction of CPU plus that
// of memory over the new nodes' capacity (expander/waste/waste.go).
func wasteScore(o Option, node *api.Node) float64 {
	var cpu, mem int64
	for _, p := range o.Pods {
		r := api.PodRequests(p, api.PodRequestsOptions{})
		cpu += r[api.ResourceCPU].MilliValue()
		mem += r[api.ResourceMemory].Value()
	}
	availCPU := node.Status.Capacity[api.ResourceCPU].MilliValue() * int64(o.NodeCount)
	availMem := node.Status.Capacity[api.ResourceMemory].Value() * int64(o.NodeCount)
	wastedCPU := float64(availCPU-cpu) / float64(availCPU)
	wastedMem := float64(availMem-mem) / float64(availMem)
	return wastedCPU + wastedMem
}

// leastWaste keeps the options that waste the least CPU and memory
// fraction; options without a template are left out.
func leastWaste(opts []Option, templates map[string]*api.Node) []Option {
	var best []Option
	var bestScore float64
	for _, o := range opts {
		node := templates[o.Group]
		if node == nil {
			continue
		}
		s := wasteScore(o, node)
		if best != nil && s == bestScore {
			best = append(best, o)
		}
		if best == nil || s < bestScore {
			bestScore = s
			best = []Option{o}
		}
	}
	return best
}

// byPriority keeps the options of the highest priority whose regular
// expressions match the group name (expander/priority/priority.go); when
// no option matches any priority, every option is kept (upstream falls
// back to random among all). Upstream ranges over a Go map; the lab takes
// each option's highest matching priority, so the result never depends
// on map order.
func byPriority(opts []Option, priorities map[int][]string) []Option {
	prios := make([]int, 0, len(priorities))
	for p := range priorities {
		prios = append(prios, p)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(prios)))
	compiled := map[int][]*regexp.Regexp{}
	for _, p := range prios {
		for _, re := range priorities[p] {
			if r, err := regexp.Compile(re); err == nil {
				compiled[p] = append(compiled[p], r)
			}
		}
	}
	maxPrio := math.MinInt
	var best []Option
	for _, o := range opts {
		prio, found := math.MinInt, false
		for _, p := range prios {
			for _, r := range compiled[p] {
				if r.FindStringIndex(o.Group) != nil {
					prio, found = p, true
					break
				}
			}
			if found {
				break
			}
		}
		if !found {
			continue
		}
		if prio > maxPrio {
			maxPrio = prio
			best = nil
		}
		if prio == maxPrio {
			best = append(best, o)
		}
	}
	if len(best) == 0 {
		return opts
	}
	return best
}
