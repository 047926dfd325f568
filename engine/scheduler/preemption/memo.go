package preemption

import (
	"fmt"
	"sort"
	"strings"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// A running cluster preempts in waves: the replicas of one high-priority
// workload, one after another, each dry-running hundreds of nodes of
// which only the few its predecessors touched have changed. dryMemo keeps,
// per node, the outcome of the last in-place dry run — which lower-priority
// pods must go, how many violate a budget — with everything that outcome
// depends on besides the filters (which run again every time):
//   - the node: the NodeInfo itself and its Generation, which changes with
//     every pod added, removed or updated and every node update;
//   - the preemptor: its priority, the requests Fit compares and the
//     plan's flags (memoInputs.plan numbers each distinct combination);
//   - the budgets: namespace, name, selector, disruptionsAllowed and
//     disrupted pods of each (memoInputs.budgets numbers them likewise);
//   - nominated pods: a node holding any is never answered from the memo.
//
// An entry whose inputs all match is exactly what the dry run would
// compute again; the equivalence tests compare the two.
type dryMemo struct {
	node          *framework.NodeInfo
	generation    int64
	plan, budgets uint64
	// noVictims: the node has no lower-priority pod; else candidate is
	// the node's candidate (its victims and numbers).
	noVictims bool
	candidate Candidate
}

// memoInputs numbers the preemptor and budget inputs of the dry runs: a
// number changes whenever its inputs differ from the previous
// preemption's.
type memoInputs struct {
	planKey, budgetsKey string
	plan, budgets       uint64
}

// update renumbers the inputs for one preemption (plan may be nil: no
// in-place dry runs, nothing to number).
func (m *memoInputs) update(plan *fastPlan, pod *framework.PodInfo, budgets []budget) {
	if plan == nil {
		return
	}
	var b strings.Builder
	r := &plan.req
	fmt.Fprintf(&b, "%d %d %d %d %d %t %t", pod.Priority, r.pods, r.cpu, r.mem, r.eph, plan.ports, plan.antiAffinity)
	for _, s := range r.scalars {
		fmt.Fprintf(&b, " %s=%d", s.name, s.amount)
	}
	if k := b.String(); k != m.planKey || m.plan == 0 {
		m.planKey = k
		m.plan++
	}
	b.Reset()
	for _, x := range budgets {
		p := x.pdb
		fmt.Fprintf(&b, "%s/%s %t %t %q %d [", p.Namespace, p.Name, x.valid, x.selector.Empty(), x.selector.String(), p.Status.DisruptionsAllowed)
		disrupted := make([]string, 0, len(p.Status.DisruptedPods))
		for name := range p.Status.DisruptedPods {
			disrupted = append(disrupted, name)
		}
		sort.Strings(disrupted)
		fmt.Fprintf(&b, "%q]\n", disrupted)
	}
	if k := b.String(); k != m.budgetsKey || m.budgets == 0 {
		m.budgetsKey = k
		m.budgets++
	}
}

// memoOf returns the node's memo slot, nil for a node that is not the
// snapshot's own (a copy).
func (e *Evaluator) memoOf(ni *framework.NodeInfo, snap *framework.Snapshot) *dryMemo {
	numNodes := len(snap.Nodes())
	if ni.Index < 0 || ni.Index >= numNodes || snap.Nodes()[ni.Index] != ni {
		return nil
	}
	if len(e.memo) < numNodes {
		e.memo = append(e.memo, make([]dryMemo, numNodes-len(e.memo))...)
	}
	return &e.memo[ni.Index]
}

func (m *dryMemo) matches(ni *framework.NodeInfo, in *memoInputs) bool {
	return m.node == ni && m.generation == ni.Generation && m.plan == in.plan && m.budgets == in.budgets
}

func (m *dryMemo) store(ni *framework.NodeInfo, in *memoInputs, noVictims bool, c Candidate) {
	*m = dryMemo{node: ni, generation: ni.Generation, plan: in.plan, budgets: in.budgets,
		noVictims: noVictims, candidate: c}
}
