package scheduler

import (
	"fmt"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// The predicate checker the cluster autoscaler simulates with
// (engine/autoscaler), as cluster-autoscaler's SchedulerBasedPredicateChecker
// (simulator/predicatechecker/schedulerbased.go) runs the real scheduler
// framework's PreFilter and Filter plugins against its cluster snapshot:
// the same plugins, on hypothetical nodes added to the snapshot. Scoring,
// preemption and nominated pods play no part. Written by the autoscaler
// helper; additive.

// CheckPredicates runs every PreFilter plugin for the pod against the
// snapshot and then every Filter plugin on the named node; nil means the
// pod fits. A rejection keeps its plugin and reasons, exactly as the
// scheduler reports them ("node(s) didn't match Pod's node affinity/selector").
func (s *Scheduler) CheckPredicates(pi *framework.PodInfo, node string) *framework.Status {
	ni := s.snap.Get(node)
	if ni == nil {
		return framework.NewStatus(framework.Error, fmt.Sprintf("node %q not found", node))
	}
	state := framework.NewCycleState()
	res, st, narrowing := s.runPreFilter(state, pi)
	if !st.IsSuccess() {
		return st
	}
	if !res.AllNodes() {
		if _, ok := res.NodeNames[node]; !ok {
			return narrowedStatus(narrowing)
		}
	}
	return s.runFilterPlugins(state, pi, ni)
}

// FitsAnyNodeMatching runs PreFilter once and Filter on the nodes match
// accepts, in name order, and returns the first node the pod fits on
// (SchedulerBasedPredicateChecker.FitsAnyNodeMatching). ok is false when
// none fits.
func (s *Scheduler) FitsAnyNodeMatching(pi *framework.PodInfo, match func(*framework.NodeInfo) bool) (string, bool) {
	state := framework.NewCycleState()
	res, st, _ := s.runPreFilter(state, pi)
	if !st.IsSuccess() {
		return "", false
	}
	check := func(ni *framework.NodeInfo) bool {
		if !match(ni) {
			return false
		}
		if !res.AllNodes() {
			if _, ok := res.NodeNames[ni.Node.Name]; !ok {
				return false
			}
		}
		return s.runFilterPlugins(state, pi, ni).IsSuccess()
	}
	for _, ni := range s.snap.Nodes() {
		if check(ni) {
			return ni.Node.Name, true
		}
	}
	return "", false
}

// FitsNodes is FitsAnyNodeMatching over an explicit list of node names
// (checked in the order given), so a caller that knows its few candidate
// nodes does not scan the whole snapshot.
func (s *Scheduler) FitsNodes(pi *framework.PodInfo, nodes []string) (string, bool) {
	if len(nodes) == 0 {
		return "", false
	}
	state := framework.NewCycleState()
	res, st, _ := s.runPreFilter(state, pi)
	if !st.IsSuccess() {
		return "", false
	}
	for _, name := range nodes {
		ni := s.snap.Get(name)
		if ni == nil {
			continue
		}
		if !res.AllNodes() {
			if _, ok := res.NodeNames[name]; !ok {
				continue
			}
		}
		if s.runFilterPlugins(state, pi, ni).IsSuccess() {
			return name, true
		}
	}
	return "", false
}
