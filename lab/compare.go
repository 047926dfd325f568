package lab

import (
	"math"
	"sort"
	"strconv"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
)

// Comparison is what differs between the two lanes of a fork, and why:
// the answer to "what did policy B change?".
type Comparison struct {
	At    api.Time
	Lanes [2]LaneSummary
	// Spread is every topology spread constraint of every workload, each
	// lane's per-domain counts and skew side by side.
	Spread []SpreadDiff
	// Placement lists the pods that are on a different node (or pending)
	// in one lane than in the other, by name.
	Placement []PlacementDiff
	// OnlyIn counts pods that exist in one lane only (a lane's own
	// scale-up, or names drawn differently after the lanes diverged).
	OnlyIn [2]int
}

// LaneSummary is one lane's state in numbers.
type LaneSummary struct {
	Lane    string
	Changes []string // the lane-only commands since the fork
	Pending []engine.PendingPod
	Running int
	// Preemptions, Evictions (kubelet, API, taint manager) and Killed
	// (pods stopped for any reason: deletes, drains, scale-downs,
	// preemptions, evictions) since the fork.
	Preemptions, Evictions, Killed int
	CPU, Memory                    Utilisation
}

// Utilisation summarises requested/allocatable over the schedulable
// nodes, in percent.
type Utilisation struct {
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	Mean   float64 `json:"mean"`
	StdDev float64 `json:"stdDev"`
	// Empty nodes have no pods at all.
	Empty int `json:"emptyNodes"`
}

// SpreadDiff is one constraint of one workload in both lanes.
type SpreadDiff struct {
	Workload    string // kind/name as commands take it
	TopologyKey string
	MaxSkew     [2]int32
	When        [2]string
	Domains     []string // union of both lanes' domains, sorted
	Counts      [2]map[string]int
	Skew        [2]int
	// Present is false for a lane where the workload has no such constraint.
	Present [2]bool
}

// Differs reports whether the lanes disagree on this constraint.
func (d SpreadDiff) Differs() bool {
	if d.Present != [2]bool{true, true} || d.Skew[0] != d.Skew[1] || d.MaxSkew[0] != d.MaxSkew[1] || d.When[0] != d.When[1] {
		return true
	}
	for _, dom := range d.Domains {
		if d.Counts[0][dom] != d.Counts[1][dom] {
			return true
		}
	}
	return false
}

// PlacementDiff is a pod placed differently by the two lanes. An empty
// Node means pending; Zone is the node's zone label value.
type PlacementDiff struct {
	Pod        string
	Node, Zone [2]string
}

// Compare computes the comparison of the fork's lanes at their current
// instant.
func (f *Fork) Compare() *Comparison {
	c := &Comparison{At: f.Now()}
	var snaps [2]*engine.Snapshot
	for i, s := range f.lanes {
		snaps[i] = s.eng.Snapshot()
		c.Lanes[i] = f.summary(i, snaps[i])
	}
	c.Spread = f.spreadDiffs()
	c.Placement, c.OnlyIn = placementDiffs(snaps, [2]string{f.lanes[0].zoneLabel(), f.lanes[1].zoneLabel()})
	return c
}

func (f *Fork) summary(i int, snap *engine.Snapshot) LaneSummary {
	s := f.lanes[i]
	ls := LaneSummary{Lane: laneName(i), Changes: f.Changes(laneName(i)), Pending: snap.Pending, Running: snap.Counts.Running}
	for _, e := range snap.Events {
		if e.Time < f.at {
			continue
		}
		switch e.Reason {
		case engine.ReasonPreempted:
			ls.Preemptions++
		case engine.ReasonEvicted, engine.ReasonTaintManagerEviction:
			ls.Evictions++
		case engine.ReasonKilling:
			ls.Killed++
		}
	}
	var cpu, mem []float64
	for _, nv := range snap.Nodes {
		if nv.Node.Spec.Unschedulable {
			continue
		}
		req, pods, ok := s.NodeRequested(nv.Node.Name)
		if !ok {
			continue
		}
		if pods == 0 {
			ls.CPU.Empty++
			ls.Memory.Empty++
		}
		alloc := api.ResourcesOf(nv.Node.Status.Allocatable)
		cpu = append(cpu, percent(req.MilliCPU, alloc.MilliCPU))
		mem = append(mem, percent(req.Memory, alloc.Memory))
	}
	ls.CPU = summarise(cpu, ls.CPU.Empty)
	ls.Memory = summarise(mem, ls.Memory.Empty)
	return ls
}

func percent(n, d int64) float64 {
	if d <= 0 {
		return 0
	}
	return 100 * float64(n) / float64(d)
}

// summarise is min, max, mean and population standard deviation.
func summarise(xs []float64, empty int) Utilisation {
	u := Utilisation{Empty: empty}
	if len(xs) == 0 {
		return u
	}
	u.Min, u.Max = xs[0], xs[0]
	sum := 0.0
	for _, x := range xs {
		u.Min, u.Max = math.Min(u.Min, x), math.Max(u.Max, x)
		sum += x
	}
	u.Mean = sum / float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - u.Mean) * (x - u.Mean)
	}
	u.StdDev = math.Sqrt(v / float64(len(xs)))
	return u
}

// spreadDiffs pairs each workload's constraints across lanes by topology
// key (a workload has at most one constraint per key and effect in
// practice; a second one of the same key is paired by order).
func (f *Fork) spreadDiffs() []SpreadDiff {
	type key struct{ ref, topo string }
	var order []key
	diffs := map[key]*SpreadDiff{}
	for i, s := range f.lanes {
		seen := map[key]int{}
		byOwner := s.newestByOwner()
		for _, w := range s.Workloads() {
			for _, v := range s.spread(w, s.newestSpreadPod(w, byOwner)) {
				k := key{w.Ref(), v.TopologyKey}
				if n := seen[k]; n > 0 {
					k.topo += "#" + strconv.Itoa(n+1)
				}
				seen[key{w.Ref(), v.TopologyKey}]++
				d := diffs[k]
				if d == nil {
					d = &SpreadDiff{Workload: w.Ref(), TopologyKey: v.TopologyKey}
					diffs[k] = d
					order = append(order, k)
				}
				d.Present[i] = true
				d.MaxSkew[i], d.When[i], d.Skew[i] = v.MaxSkew, v.WhenUnsatisfiable, v.CurrentSkew
				d.Counts[i] = map[string]int{}
				for _, dc := range v.Domains {
					if dc.Eligible {
						d.Counts[i][dc.Domain] = dc.Count
					}
				}
			}
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		if order[a].ref != order[b].ref {
			return order[a].ref < order[b].ref
		}
		return order[a].topo < order[b].topo
	})
	out := make([]SpreadDiff, 0, len(order))
	for _, k := range order {
		d := diffs[k]
		doms := map[string]bool{}
		for i := range d.Counts {
			if d.Counts[i] == nil {
				d.Counts[i] = map[string]int{}
			}
			for dom := range d.Counts[i] {
				doms[dom] = true
			}
		}
		for dom := range doms {
			d.Domains = append(d.Domains, dom)
		}
		sort.Strings(d.Domains)
		out = append(out, *d)
	}
	return out
}

// placementDiffs compares where each pod (by namespace/name) is in the two
// lanes. Finished pods are left out: they hold no place.
func placementDiffs(snaps [2]*engine.Snapshot, zoneLabels [2]string) ([]PlacementDiff, [2]int) {
	type place struct{ node, zone string }
	var where [2]map[string]place
	for i, snap := range snaps {
		where[i] = map[string]place{}
		zone := map[string]string{}
		for _, nv := range snap.Nodes {
			zone[nv.Node.Name] = nv.Node.Labels[zoneLabels[i]]
			for _, pv := range nv.Pods {
				if pv.State == engine.StateTerminated || pv.State == engine.StateTerminating {
					continue
				}
				where[i][pv.Pod.Namespace+"/"+pv.Pod.Name] = place{nv.Node.Name, zone[nv.Node.Name]}
			}
		}
		for _, p := range snap.Pending {
			where[i][p.Pod] = place{}
		}
	}
	var out []PlacementDiff
	var only [2]int
	for name, a := range where[0] {
		b, ok := where[1][name]
		if !ok {
			only[0]++
			continue
		}
		if a != b {
			out = append(out, PlacementDiff{Pod: name, Node: [2]string{a.node, b.node}, Zone: [2]string{a.zone, b.zone}})
		}
	}
	for name := range where[1] {
		if _, ok := where[0][name]; !ok {
			only[1]++
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pod < out[j].Pod })
	return out, only
}
