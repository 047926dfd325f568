package preemption

import (
	"sort"
	"strings"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// ReasonPreemptionByScheduler is the reason of the DisruptionTarget
// condition the scheduler puts on its victims (v1.PodReasonPreemptionByScheduler).
const ReasonPreemptionByScheduler = "PreemptionByScheduler"

// Evaluator runs DefaultPreemption for one profile.
type Evaluator struct {
	Handle framework.Handle
	// PDBs returns the budgets in force (with status computed by the caller).
	PDBs func() []*api.PodDisruptionBudget
	// TieBreak breaks final ties between equally good candidate nodes;
	// nil ⇒ smallest node name.
	TieBreak func(candidates []string) string
	// Window: AllCandidates (zero value; the oracle and the timeless
	// commands) or UpstreamWindow (a running kube-scheduler; the engine).
	Window Window
	// Offset draws UpstreamWindow's starting offset in [0, n) — the
	// scheduler passes its seeded generator's IntN; nil ⇒ 0.
	Offset func(n int) int
	// MinCandidateNodesPercentage / MinCandidateNodesAbsolute are
	// DefaultPreemptionArgs for UpstreamWindow's size; both 0 ⇒ the
	// defaults (10 %, 100).
	MinCandidateNodesPercentage, MinCandidateNodesAbsolute int32

	// scratch is the node copy dry runs edit; potential the buffer of a
	// node's lower-priority pods.
	scratch   scratchNode
	potential []*framework.PodInfo
	// removed is copyWithout's buffer.
	removed []*framework.PodInfo
	// potentialNodes is the buffer of the nodes preemption might help.
	potentialNodes []*framework.NodeInfo
	// referenceOnly disables the arithmetic dry run (equivalence tests);
	// stats counts dry runs per path.
	referenceOnly bool
	stats         struct{ inPlace, memo, copy, reference int }
	// memo and inputs: the per-node memo of in-place dry runs (memo.go).
	memo   []dryMemo
	inputs memoInputs
	// nominatedMark is the buffer of fastPlan.marked.
	nominatedMark []bool
}

// Result is the outcome of a preemption attempt.
type Result struct {
	// NominatedNode is "" when preemption found nothing.
	NominatedNode string
	// Victims are the pods to evict from NominatedNode, sorted by
	// namespace/name. Preempt does not remove them.
	Victims []*framework.PodInfo
	// Message is DefaultPreemption's PostFilter message, e.g.
	// "preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."
	// or "preemption: not eligible due to preemptionPolicy=Never."; "" when
	// a node was nominated. The FitError message appends it after a space.
	Message string
	// Candidates are the nodes found where preemption would work (every
	// such node with AllCandidates, the window's with UpstreamWindow), in
	// node-name order, with the numbers the choice compared; DecidedBy names the
	// criterion that picked NominatedNode.
	Candidates []Candidate
	DecidedBy  Criterion
	// Why is Summary of the choice, e.g. "node-a: lowest highest-victim
	// priority (node-a 100, node-b 1000)".
	Why string
	// DryRun holds, for nodes that were dry-run and are not candidates, why
	// (e.g. "No preemption victims found for incoming pod", or the filter
	// that still fails with every lower-priority pod gone).
	DryRun map[string]*framework.Status
	// ClearNomination: no candidate was found (and no dry run failed
	// with an error), so the pod's nomination is cleared: upstream
	// returns NewPostFilterResultWithNominatedNode("")
	// (framework/preemption/preemption.go:147, v1.36.3). A pod not
	// eligible to preempt, or whose dry runs failed, keeps it (a nil
	// PostFilterResult).
	ClearNomination bool
}

// Preempt is Evaluator.Preempt upstream. nodeStatuses are the filter
// verdicts of the failed cycle by node name; a node without an entry counts
// as UnschedulableAndUnresolvable (upstream's default for absent nodes),
// so when a PreFilter rejected the pod with plain Unschedulable the caller
// must give every node that status. state is the cycle's state after
// PreFilter; each dry run works on its own clone.
func (e *Evaluator) Preempt(state *framework.CycleState, pod *framework.PodInfo, nodeStatuses framework.NodeToStatus) Result {
	snap := e.Handle.Snapshot()
	// 1) Is the pod allowed to preempt at all?
	if ok, msg := e.PodEligibleToPreemptOthers(pod, nodeStatuses); !ok {
		return Result{Message: postFilterMessage(msg)}
	}
	// 2) Candidates: nodes whose failure preemption might fix.
	if snap.NumNodes() == 0 {
		return Result{Message: postFilterMessage("no nodes available")}
	}
	potential := e.potentialNodes[:0]
	for _, ni := range snap.Nodes() {
		if codeOf(nodeStatuses, ni) == framework.Unschedulable {
			potential = append(potential, ni)
		}
	}
	e.potentialNodes = potential
	if len(potential) == 0 {
		return Result{Message: postFilterMessage(FitMessage(snap.NumNodes(), nil, ReasonNotHelpful)), ClearNomination: true}
	}
	var budgets []budget
	if e.PDBs != nil {
		budgets = compileBudgets(e.PDBs())
	}
	res := Result{DryRun: map[string]*framework.Status{}}
	var errs []string
	plan := e.planFast(state, pod)
	e.inputs.update(plan, pod, budgets)
	offset, num := e.window(len(potential))
	win := candidateWindow{num: num}
	for i := range potential {
		ni := potential[(offset+i)%len(potential)]
		c, st := e.dryRun(plan, state, pod, ni, budgets)
		if st.IsSuccess() && len(c.Victims) != 0 {
			if win.add(c) {
				break
			}
			continue
		}
		if st.IsSuccess() {
			st = framework.NewStatus(framework.Error, "expected at least one victim pod on node \""+ni.Node.Name+"\"")
		}
		if st.Code == framework.Error {
			errs = append(errs, st.Message())
		}
		res.DryRun[ni.Node.Name] = st
	}
	res.Candidates = win.candidates()
	sort.Slice(res.Candidates, func(a, b int) bool { return res.Candidates[a].Node < res.Candidates[b].Node })
	if len(res.Candidates) == 0 {
		if len(errs) > 0 {
			res.Message = postFilterMessage(aggregate(errs))
			return res
		}
		res.Message = postFilterMessage(FitMessage(snap.NumNodes(), res.DryRun, ReasonNotHelpful))
		res.ClearNomination = true
		return res
	}
	// 3) The best candidate.
	i, by := Pick(res.Candidates, e.TieBreak)
	best := res.Candidates[i]
	res.NominatedNode, res.DecidedBy = best.Node, by
	res.Why = Summary(res.Candidates, i, by)
	res.Victims = append([]*framework.PodInfo(nil), best.Victims...)
	sort.Slice(res.Victims, func(a, b int) bool { return res.Victims[a].Pod.Key() < res.Victims[b].Pod.Key() })
	return res
}

// PodEligibleToPreemptOthers is DefaultPreemption.PodEligibleToPreemptOthers:
// a pod with preemptionPolicy Never may not preempt; a pod nominated to a
// node where a lower-priority pod is still terminating because of
// preemption waits for it, unless that node is now unresolvable for it.
func (e *Evaluator) PodEligibleToPreemptOthers(pod *framework.PodInfo, nodeStatuses framework.NodeToStatus) (bool, string) {
	p := pod.Pod
	if p.Spec.PreemptionPolicy != nil && *p.Spec.PreemptionPolicy == api.PreemptNever {
		return false, MsgPreemptNever
	}
	nom := p.Status.NominatedNodeName
	if nom == "" {
		return true, ""
	}
	ni := e.Handle.Snapshot().Get(nom)
	if ni == nil || codeOf(nodeStatuses, ni) == framework.UnschedulableAndUnresolvable {
		return true, ""
	}
	{
		prio := pod.Priority
		for _, q := range ni.Pods {
			if q.Priority < prio && TerminatingByPreemption(q.Pod) {
				return false, MsgTerminatingOnNominated
			}
		}
	}
	return true, ""
}

// TerminatingByPreemption reports a pod being deleted with a
// DisruptionTarget=True condition of reason PreemptionByScheduler.
func TerminatingByPreemption(p *api.Pod) bool {
	if p.DeletionTimestamp == nil {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == api.DisruptionTarget {
			return c.Status == api.ConditionTrue && c.Reason == ReasonPreemptionByScheduler
		}
	}
	return false
}

func codeOf(statuses framework.NodeToStatus, ni *framework.NodeInfo) framework.Code {
	st := statuses.NodeStatus(ni)
	if st == nil {
		return framework.UnschedulableAndUnresolvable
	}
	return st.CodeOf()
}

// aggregate formats errors as utilerrors.NewAggregate(errs).Error():
// duplicates once, several in brackets.
func aggregate(errs []string) string {
	seen := map[string]bool{}
	var uniq []string
	for _, e := range errs {
		if !seen[e] {
			seen[e] = true
			uniq = append(uniq, e)
		}
	}
	if len(uniq) == 1 {
		return uniq[0]
	}
	return "[" + strings.Join(uniq, ", ") + "]"
}
