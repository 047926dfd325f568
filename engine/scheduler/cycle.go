package scheduler

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/preemption"
)

// Result is the outcome of one scheduling cycle.
type Result struct {
	// Node is the chosen node, "" if the pod is unschedulable.
	Node string
	// Message is the FitError message (with the preemption part when
	// preemption ran) or the internal error when the cycle failed.
	Message string
	// Reasons is the FitError histogram: reason → number of nodes.
	Reasons map[string]int
	// NominatedNode and Victims are the preemption outcome; the victims
	// are not removed and the nomination is not recorded (the caller
	// does both).
	NominatedNode string
	Victims       []*framework.PodInfo
	// ClearNomination: the failed attempt clears the pod's nomination
	// (schedule_one.go's clearNominatedNode: no nodes, no PostFilter,
	// or preemption found no candidate); otherwise an unschedulable pod
	// keeps the one it has.
	ClearNomination bool
	// Explanation is filled by ScheduleOneExplained only.
	Explanation *Explanation
	// Plugins are the plugins that rejected the pod (upstream's
	// Diagnosis.UnschedulablePlugins), sorted; the queue uses them to
	// decide which cluster events can make the pod schedulable.
	Plugins []string
	// Preemption is the full preemption outcome (candidates, the criterion
	// that decided, dry-run verdicts) when preemption ran.
	Preemption *preemption.Result
	// Err is set when the cycle failed with an internal error (a plugin
	// returned Error): the pod backs off instead of waiting for an event.
	Err error
	// NoProfile: no profile has the pod's spec.schedulerName; nothing was
	// attempted (Message says so, but it is no event).
	NoProfile bool

	postFilterMsg string
}

// noProfileResult is the outcome for a pod whose spec.schedulerName names
// no profile: upstream never queues it (eventhandlers.go
// responsibleForPod), so there is no attempt and no event.
func noProfileResult(pod *api.Pod) Result {
	return Result{NoProfile: true, Message: fmt.Sprintf("no scheduler profile is named %q: the pod waits for that scheduler", pod.Spec.SchedulerName)}
}

// errNoNodesAvailable is schedule_one.go's ErrNoNodesAvailable.
var errNoNodesAvailable = errors.New("no nodes available to schedule pods")

// outcome is what one run of the algorithm found, before it is turned
// into a Result or an Explanation. Slices point into the scheduler's
// buffers and are valid until the next cycle.
type outcome struct {
	state    *framework.CycleState
	numNodes int
	// preFilter is the PreFilter rejection every node carries.
	preFilter *framework.Status
	// narrowing lists the plugins whose PreFilterResult narrowed the
	// nodes; narrowed is that set (nil: all nodes).
	narrowing []string
	narrowed  map[string]struct{}
	absent    *framework.Status
	feasible  []*framework.NodeInfo
	table     scoreTable
	// nominatedRejected is the pod's nominated node when it was tried
	// first and rejected: its status is explicit even outside narrowed.
	nominatedRejected *framework.NodeInfo
	// chosen is the position in feasible of the chosen node, -1 if none.
	chosen int
	err    *framework.Status
}

// ScheduleOne runs one scheduling cycle for the pod (schedulePod and, on
// failure, the PostFilter of schedulingAlgorithm in
// pkg/scheduler/schedule_one.go). It does not bind: the caller sets
// spec.nodeName and calls Snapshot.AddPod. The pod must not be assigned.
func (s *Scheduler) ScheduleOne(pi *framework.PodInfo) Result {
	return s.schedule(pi, false)
}

// ScheduleOneExplained is ScheduleOne with the Explanation filled (it
// scores even when one node is feasible; the decision is the same).
func (s *Scheduler) ScheduleOneExplained(pi *framework.PodInfo) Result {
	return s.schedule(pi, true)
}

func (s *Scheduler) schedule(pi *framework.PodInfo, explain bool) Result {
	prof := s.profileFor(pi.Pod)
	if prof == nil {
		return noProfileResult(pi.Pod)
	}
	s.use(prof)
	o := s.run(pi, explain, s.rng)
	res := s.result(o, pi, s.rng)
	if explain {
		res.Explanation = s.explanation(o, pi, res)
	}
	return res
}

// result turns an outcome into a Result, running preemption for an
// unschedulable pod.
func (s *Scheduler) result(o *outcome, pi *framework.PodInfo, rng *rand.Rand) Result {
	if o.err != nil {
		return Result{Message: o.err.Message(), Err: statusError(o.err), Plugins: pluginList(o.err.Plugin)}
	}
	if o.chosen >= 0 {
		return Result{Node: o.feasible[o.chosen].Node.Name}
	}
	if o.numNodes == 0 {
		// schedule_one.go:274: ErrNoNodesAvailable clears the nomination
		return Result{Message: errNoNodesAvailable.Error(), Reasons: map[string]int{}, ClearNomination: true}
	}
	res := Result{Reasons: s.reasonHistogram(o), Plugins: s.rejectingPlugins(o)}
	var post postFilterResult
	if !s.cfg.DisablePreemption && s.prof.postFilter != nil {
		post = s.prof.postFilter(o.state, pi, cycleStatuses{s, o}, rng)
		res.NominatedNode, res.Victims, res.Preemption = post.nominatedNode, post.victims, post.full
		res.ClearNomination = post.full != nil && post.full.ClearNomination
	} else {
		// no PostFilter plugins: clearNominatedNode (schedule_one.go:290)
		res.ClearNomination = true
	}
	res.postFilterMsg = post.message
	res.Message = s.fitError(o, res.Reasons, post.message)
	return res
}

// fitError formats the outcome's FitError with a PostFilter message.
func (s *Scheduler) fitError(o *outcome, reasons map[string]int, postFilterMsg string) string {
	preFilterMsg := ""
	if o.preFilter != nil {
		preFilterMsg = o.preFilter.Message()
	}
	return fitErrorMessage(o.numNodes, preFilterMsg, reasons, postFilterMsg)
}

// run is the scheduling algorithm (schedulePod / findNodesThatFitPod /
// prioritizeNodes). explain evaluates every node even for a pod with a
// nominated node and scores even a single feasible node; the chosen node
// is the same either way. rng is the tie-break generator to draw from.
func (s *Scheduler) run(pi *framework.PodInfo, explain bool, rng *rand.Rand) *outcome {
	o := &outcome{state: framework.NewCycleState(), numNodes: len(s.snap.Nodes()), chosen: -1}
	if o.numNodes == 0 {
		return o
	}
	s.buf.reset(o.numNodes, s.cfg.Parallelism)
	s.buf.refreshNames(s.snap.Nodes())
	preRes, st, narrowing := s.runPreFilter(o.state, pi)
	o.narrowing = narrowing
	if !st.IsSuccess() {
		if !st.IsRejected() {
			o.err = st
		} else {
			o.preFilter = st
		}
		return o
	}
	// A nominated node (set by an earlier preemption) is tried first and
	// taken without scoring when it passes (evaluateNominatedNode).
	nominated := s.snap.Get(pi.Pod.Status.NominatedNodeName)
	if nominated != nil && !explain {
		st := s.filterOneWithNominatedPods(o.state, pi, nominated)
		if st.IsSuccess() {
			o.feasible = append(s.buf.feasible[:0], nominated)
			o.chosen = 0
			return o
		}
		if !st.IsRejected() {
			o.err = st
			return o
		}
		// evaluateNominatedNode records the rejection in the cycle's
		// NodeToStatus: it stays the node's status even when a PreFilter
		// result leaves the node out of the nodes filtered next.
		s.buf.statuses[nominated.Index] = st
		o.nominatedRejected = nominated
	}
	nodes := s.snap.Nodes()
	if !preRes.AllNodes() {
		o.narrowed = preRes.NodeNames
		o.absent = narrowedStatus(narrowing)
		nodes = narrowedNodes(s.snap, preRes.NodeNames)
	}
	var feasible []*framework.NodeInfo
	if p := s.prof.percentage; p != nil && !explain {
		feasible, st = s.filterSome(o.state, pi, nodes, *p)
	} else {
		feasible, st = s.filterNodes(o.state, pi, nodes, o.narrowed)
	}
	if st != nil {
		o.err = st
		return o
	}
	o.feasible = feasible
	if len(feasible) == 0 {
		return o
	}
	nominatedPos := -1
	if nominated != nil {
		for i, ni := range feasible {
			if ni == nominated {
				nominatedPos = i
			}
		}
	}
	if len(feasible) == 1 && !explain {
		o.chosen = 0
		return o
	}
	table, st := s.prioritize(o.state, pi, feasible, explain)
	if st != nil {
		o.err = st
		return o
	}
	o.table = table
	switch {
	case nominatedPos >= 0:
		o.chosen = nominatedPos
	case len(feasible) == 1:
		o.chosen = 0
	default:
		o.chosen = selectHost(feasible, table.totals, s.cfg.TieBreak, rng)
	}
	return o
}

// statusOf returns a node's verdict (nil: feasible), attributed to the
// rejecting plugin.
func (s *Scheduler) statusOf(o *outcome, ni *framework.NodeInfo) *framework.Status {
	if o.preFilter != nil {
		return o.preFilter
	}
	st := s.rawStatus(o, ni)
	if st == nil || st == o.absent {
		return st
	}
	if k := s.buf.rejectedBy[ni.Index]; k > 0 {
		return st.WithPlugin(s.prof.filter[k-1].Name())
	}
	return st
}

// rawStatus is a node's verdict before it is attributed to a plugin: the
// narrowing PreFilter's for a node its result left out (the nominated
// node, tried first, keeps its own), else the filters'.
func (s *Scheduler) rawStatus(o *outcome, ni *framework.NodeInfo) *framework.Status {
	if o.narrowed != nil && ni != o.nominatedRejected {
		if _, ok := o.narrowed[ni.Node.Name]; !ok {
			return o.absent
		}
	}
	return s.buf.statuses[ni.Index]
}

// reasonHistogram counts, for every reason, the nodes rejected with it
// (the histogram FitError.Error prints). Nodes mostly share a few status
// objects (plugins return shared ones for common rejections), so it counts
// runs of the same status first and expands them into reasons once.
func (s *Scheduler) reasonHistogram(o *outcome) map[string]int {
	hist := map[string]int{}
	if o.preFilter != nil {
		for _, r := range o.preFilter.Reasons {
			hist[r] += o.numNodes
		}
		return hist
	}
	counts := map[*framework.Status]int{}
	var last *framework.Status
	run := 0
	for _, ni := range s.snap.Nodes() {
		if st := s.rawStatus(o, ni); st != last {
			if last != nil {
				counts[last] += run
			}
			last, run = st, 0
		}
		run++
	}
	if last != nil {
		counts[last] += run
	}
	for st, n := range counts {
		for _, r := range st.Reasons {
			hist[r] += n
		}
	}
	return hist
}

// cycleStatuses is every node's status for preemption (the
// Diagnosis.NodeToStatus of upstream, with absent nodes filled in), read
// from the cycle's buffers; valid until the next cycle.
type cycleStatuses struct {
	s *Scheduler
	o *outcome
}

func (c cycleStatuses) NodeStatus(ni *framework.NodeInfo) *framework.Status {
	return c.s.statusOf(c.o, ni)
}

// rejectingPlugins lists the plugins that rejected the pod somewhere
// (Diagnosis.UnschedulablePlugins): the PreFilter plugin that rejected
// it, the plugins that narrowed the nodes, and every plugin that was the
// first to reject a node.
func (s *Scheduler) rejectingPlugins(o *outcome) []string {
	set := map[string]bool{}
	for _, p := range o.narrowing {
		set[p] = true
	}
	if o.preFilter != nil {
		if o.preFilter.Plugin != "" {
			set[o.preFilter.Plugin] = true
		}
	} else {
		var byFilter [128]bool // rejectedBy is an int8
		for _, ni := range s.snap.Nodes() {
			if k := s.buf.rejectedBy[ni.Index]; k > 0 {
				byFilter[k-1] = true
			} else if st := s.buf.statuses[ni.Index]; st != nil && st.Plugin != "" {
				set[st.Plugin] = true
			}
		}
		for i, seen := range byFilter[:len(s.prof.filter)] {
			if seen {
				set[s.prof.filter[i].Name()] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func pluginList(p string) []string {
	if p == "" {
		return nil
	}
	return []string{p}
}
