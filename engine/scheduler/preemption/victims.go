package preemption

import (
	"errors"
	"math"
	"slices"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// ReasonNoVictims is the dry-run status of a node with no lower-priority pod.
const ReasonNoVictims = "No preemption victims found for incoming pod"

// notStarted stands for the start time of a pod that has not started:
// upstream uses time.Now(), which is later than every real start time.
const notStarted = api.Time(math.MaxInt64)

// startTime is util.GetPodStartTime.
func startTime(p *api.Pod) api.Time {
	if p.Status.StartTime != nil {
		return *p.Status.StartTime
	}
	return notStarted
}

// importance is what util.MoreImportantPod compares (higher priority
// first, then the pod that started earlier), read once per pod.
type importance struct {
	prio  int32
	start api.Time
}

func importanceOf(p *framework.PodInfo) importance {
	return importance{p.Priority, startTime(p.Pod)}
}

func (a importance) before(b importance) bool {
	if a.prio != b.prio {
		return a.prio > b.prio
	}
	return a.start < b.start
}

// sortByImportance orders pods most important first (stable), on keys read
// once per pod: a node's lower-priority pods are few, so an insertion sort
// on a stack array does; longer lists sort keyed copies.
func sortByImportance(pods []*framework.PodInfo) {
	const small = 32
	if len(pods) > small {
		keyed := make([]struct {
			p *framework.PodInfo
			k importance
		}, len(pods))
		for i, p := range pods {
			keyed[i].p, keyed[i].k = p, importanceOf(p)
		}
		slices.SortStableFunc(keyed, func(a, b struct {
			p *framework.PodInfo
			k importance
		}) int {
			switch {
			case a.k.before(b.k):
				return -1
			case b.k.before(a.k):
				return 1
			}
			return 0
		})
		for i := range keyed {
			pods[i] = keyed[i].p
		}
		return
	}
	var keys [small]importance
	for i, p := range pods {
		keys[i] = importanceOf(p)
	}
	for i := 1; i < len(pods); i++ {
		for j := i; j > 0 && keys[j].before(keys[j-1]); j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
			pods[j], pods[j-1] = pods[j-1], pods[j]
		}
	}
}

// dryRun is one node of DryRunPreemption: the node's victims, how many of
// them violate a budget, or the status that makes it no candidate. A node
// without lower-priority pods is answered before copying anything; nodes
// whose potential victims are inert (fastpath.go) are decided in place,
// by arithmetic, or — when the pod does not fit even with every victim
// gone — by one filter run on a copy; the rest run selectVictimsOnNode on
// a copy of the node and a clone of the state. All give the same answer.
func (e *Evaluator) dryRun(plan *fastPlan, state *framework.CycleState, pod *framework.PodInfo, ni *framework.NodeInfo, budgets []budget) (Candidate, *framework.Status) {
	if plan != nil {
		if c, st, ok := e.dryRunInPlace(plan, pod, ni, budgets); ok {
			e.stats.inPlace++
			return c, st
		}
	}
	potential := e.potential[:0]
	for _, p := range ni.Pods {
		if p.Priority < pod.Priority {
			potential = append(potential, p)
		}
	}
	e.potential = potential
	if len(potential) == 0 {
		return Candidate{}, framework.NewStatus(framework.UnschedulableAndUnresolvable, ReasonNoVictims)
	}
	if plan != nil && plan.allInert(potential) {
		// The in-place run gave up because the pod does not fit even with
		// every victim gone. One filter run on a copy without them gives
		// the status naming the first failing filter in profile order
		// (the state needs no clone: inert pods leave it as it is).
		node, removed := e.scratch.copyWithout(ni, pod.Priority, e.removed)
		e.removed = removed
		if st := e.Handle.RunFilterPlugins(state, pod, node); !st.IsSuccess() {
			e.stats.copy++
			return Candidate{}, st
		}
	}
	e.stats.reference++
	victims, n, st := e.selectVictimsOnNode(state.Clone(), pod, e.scratch.copyOf(ni), potential, budgets)
	return candidateOf(ni, victims, n, st)
}

func candidateOf(ni *framework.NodeInfo, victims []*framework.PodInfo, numViolating int, st *framework.Status) (Candidate, *framework.Status) {
	if !st.IsSuccess() {
		return Candidate{}, st
	}
	return NewCandidate(ni.Node.Name, victims, numViolating), nil
}

// selectVictimsOnNode is DefaultPreemption.SelectVictimsOnNode on a copied
// node and cloned state: remove every lower-priority pod (potential, in the
// node's order), check that the preemptor fits, then add pods back —
// budget-violating ones first, each group most important first — keeping
// every pod that still lets the preemptor fit. It returns the victims
// (most important first) and how many of them violate a budget, or the
// status that makes the node unsuitable.
func (e *Evaluator) selectVictimsOnNode(state *framework.CycleState, pod *framework.PodInfo, ni *framework.NodeInfo, potential []*framework.PodInfo, budgets []budget) ([]*framework.PodInfo, int, *framework.Status) {
	h := e.Handle
	remove := func(p *framework.PodInfo) *framework.Status {
		ni.RemovePodInfo(p)
		if st := h.RunPreFilterExtensionRemovePod(state, pod, p, ni); !st.IsSuccess() {
			return asError(st)
		}
		return nil
	}
	add := func(p *framework.PodInfo) *framework.Status {
		ni.AddPodInfo(p)
		if st := h.RunPreFilterExtensionAddPod(state, pod, p, ni); !st.IsSuccess() {
			return asError(st)
		}
		return nil
	}
	for _, p := range potential {
		if st := remove(p); st != nil {
			return nil, 0, st
		}
	}
	// If the pod does not fit even with every lower-priority pod gone, the
	// node cannot help (affinity to a victim is deliberately not
	// considered, as upstream).
	if st := h.RunFilterPlugins(state, pod, ni); !st.IsSuccess() {
		return nil, 0, st
	}
	return reprieve(potential, budgets, func(p *framework.PodInfo) (bool, *framework.Status) {
		if st := add(p); st != nil {
			return false, st
		}
		if h.RunFilterPlugins(state, pod, ni).IsSuccess() {
			return true, nil
		}
		return false, remove(p)
	})
}

// reprieve is the reprieve loop of SelectVictimsOnNode: the potential
// victims most important first, those whose eviction would violate a
// budget before the others; keep(p) puts p back and reports whether the
// preemptor still fits (if not, keep has taken p away again and p is a
// victim). It returns the victims, most important first, and how many of
// them violate a budget.
func reprieve(potential []*framework.PodInfo, budgets []budget, keep func(*framework.PodInfo) (bool, *framework.Status)) (victims []*framework.PodInfo, numViolating int, st *framework.Status) {
	sortByImportance(potential)
	violating, nonViolating := splitByPDBViolation(potential, budgets)
	for i, group := range [][]*framework.PodInfo{violating, nonViolating} {
		for _, p := range group {
			kept, st := keep(p)
			if st != nil {
				return nil, 0, st
			}
			if !kept {
				victims = append(victims, p)
				if i == 0 {
					numViolating++
				}
			}
		}
	}
	// keep the victims ordered by importance across both groups
	if len(violating) != 0 && len(nonViolating) != 0 {
		sortByImportance(victims)
	}
	return victims, numViolating, nil
}

// asError turns a failed extension call into an Error status carrying the
// handle's message unchanged (upstream returns status.AsError(); the
// handle already names the plugin).
func asError(st *framework.Status) *framework.Status {
	if st.Err != nil {
		return framework.AsStatus(st.Err)
	}
	return framework.AsStatus(errors.New(st.Message()))
}
