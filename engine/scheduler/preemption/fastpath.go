package preemption

import (
	"sort"

	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/interpodaffinity"
	"podlab.dev/podlab/engine/scheduler/plugins/nodeaffinity"
	"podlab.dev/podlab/engine/scheduler/plugins/nodename"
	"podlab.dev/podlab/engine/scheduler/plugins/nodeports"
	"podlab.dev/podlab/engine/scheduler/plugins/noderesources"
	"podlab.dev/podlab/engine/scheduler/plugins/nodeunschedulable"
	"podlab.dev/podlab/engine/scheduler/plugins/podtopologyspread"
	"podlab.dev/podlab/engine/scheduler/plugins/tainttoleration"
)

// Profile is implemented by a Handle that tells the dry run which plugins
// it runs. With it, a node whose lower-priority pods cannot change any
// filter's verdict but NodeResourcesFit's is dry-run by arithmetic, in
// place (dryRunInPlace). Without it every node takes the reference path.
type Profile interface {
	// PreemptionPlugins returns the names of the profile's filter plugins
	// and of its PreFilter plugins with extensions.
	PreemptionPlugins() []string
	// NominatedPodsForNode returns the pods nominated to a node; the
	// Handle's RunFilterPlugins adds those of at least the pod's priority
	// (RunFilterPluginsWithNominatedPods).
	NominatedPodsForNode(node string) []*framework.PodInfo
	// NominatedNodes lists the nodes holding nominated pods (a dry run of
	// any other node skips the lookup).
	NominatedNodes() []string
	// FilterRunner returns RunFilterPlugins with state for nodes that hold
	// no nominated pod (the active plugins resolved once).
	FilterRunner(state *framework.CycleState) func(pod *framework.PodInfo, node *framework.NodeInfo) *framework.Status
}

// fastPlan is what makes a victim "inert" for one preemptor: its presence
// on the node changes no active filter's verdict except NodeResourcesFit's,
// and no PreFilter extension's state. Reasons, per default filter plugin:
//   - NodeUnschedulable, NodeName, TaintToleration, NodeAffinity read the
//     node and the preemptor only;
//   - NodePorts (no extensions) compares the preemptor's host ports with
//     the node's: a victim matters only if both have host ports;
//   - InterPodAffinity counts pods matching the preemptor's required terms
//     and pods whose required anti-affinity matches the preemptor: with no
//     required terms on the preemptor, only victims with required
//     anti-affinity terms matter (its AddPod/RemovePod change nothing for
//     the others);
//   - PodTopologySpread counts pods matching its constraints: the plan
//     requires that PreFilter skipped it (no hard constraints);
//   - any other plugin: no plan (reference path).
type fastPlan struct {
	// ports: NodePorts runs and the preemptor wants host ports.
	ports bool
	// antiAffinity: InterPodAffinity runs.
	antiAffinity bool
	// req is the preemptor's request in the dimensions Fit compares.
	req fitVector
	// nominated is the Handle's nominated-pods lookup.
	nominated func(node string) []*framework.PodInfo
	// withoutFit is the cycle's state with NodeResourcesFit skipped, for
	// the in-place dry run (dryRunInPlace).
	withoutFit *framework.CycleState
	// prof is the Handle as a Profile.
	prof Profile
	// filterWithoutFit runs the filters but Fit on a node holding no
	// nominated pod.
	filterWithoutFit func(pod *framework.PodInfo, node *framework.NodeInfo) *framework.Status
	// snap and marked: marked[i] is set when snap.Nodes[i] holds
	// nominated pods.
	snap   *framework.Snapshot
	marked []bool
}

// markNominated records which snapshot nodes hold nominated pods, in the
// reused buffer.
func (pl *fastPlan) markNominated(buf []bool) []bool {
	n := len(pl.snap.Nodes())
	if cap(buf) < n {
		buf = make([]bool, n)
	}
	buf = buf[:n]
	clear(buf)
	for _, name := range pl.prof.NominatedNodes() {
		if ni := pl.snap.Get(name); ni != nil {
			buf[ni.Index] = true
		}
	}
	pl.marked = buf
	return buf
}

// nominatedOn returns the pods nominated to ni, looking them up only for a
// node marked (or not the snapshot's own).
func (pl *fastPlan) nominatedOn(ni *framework.NodeInfo) []*framework.PodInfo {
	if i := ni.Index; i >= 0 && i < len(pl.marked) && pl.snap.Nodes()[i] == ni && !pl.marked[i] {
		return nil
	}
	return pl.nominated(ni.Node.Name)
}

// filters runs the filters (Fit skipped) for the in-place dry run.
func (pl *fastPlan) filters(h framework.Handle, pod *framework.PodInfo, ni *framework.NodeInfo, nominated []*framework.PodInfo) *framework.Status {
	if len(nominated) == 0 {
		return pl.filterWithoutFit(pod, ni)
	}
	return h.RunFilterPlugins(pl.withoutFit, pod, ni)
}

// planFast returns the plan for a preemptor, or nil when its dry runs must
// take the reference path.
func (e *Evaluator) planFast(state *framework.CycleState, pod *framework.PodInfo) *fastPlan {
	prof, ok := e.Handle.(Profile)
	if !ok || e.referenceOnly {
		return nil
	}
	plan := &fastPlan{nominated: prof.NominatedPodsForNode, prof: prof, snap: e.Handle.Snapshot()}
	fit := false
	for _, name := range prof.PreemptionPlugins() {
		active := !state.SkipFilterPlugins[name]
		switch name {
		case nodeunschedulable.Name, nodename.Name, tainttoleration.Name, nodeaffinity.Name:
		case noderesources.Name:
			fit = active
		case nodeports.Name:
			plan.ports = plan.ports || (active && len(framework.HostPortsOf(pod.Pod)) > 0)
		case podtopologyspread.Name:
			if active {
				return nil
			}
		case interpodaffinity.Name:
			if active {
				if len(pod.RequiredAffinityTerms) > 0 || len(pod.RequiredAntiAffinityTerms) > 0 || pod.ParseError != nil {
					return nil
				}
				plan.antiAffinity = true
			}
		default:
			return nil
		}
	}
	if !fit {
		return nil
	}
	plan.req = requestVector(pod)
	plan.withoutFit = state.WithFilterSkipped(noderesources.Name)
	plan.filterWithoutFit = prof.FilterRunner(plan.withoutFit)
	e.nominatedMark = plan.markNominated(e.nominatedMark)
	return plan
}

// allInert reports whether every pod is inert.
func (pl *fastPlan) allInert(pods []*framework.PodInfo) bool {
	for _, p := range pods {
		if !pl.inert(p) {
			return false
		}
	}
	return true
}

// inert reports whether p's presence matters to no filter but Fit.
func (pl *fastPlan) inert(p *framework.PodInfo) bool {
	if pl.antiAffinity && len(p.RequiredAntiAffinityTerms) > 0 {
		return false
	}
	if pl.ports && len(framework.HostPortsOf(p.Pod)) > 0 {
		return false
	}
	return true
}

// fitVector holds the amounts NodeResourcesFit compares, for the
// preemptor's requested resources only: pods, cpu, memory,
// ephemeral-storage and each non-zero extended resource (fit.go
// fitsRequest compares a resource only when the pod requests it).
type fitVector struct {
	pods, cpu, mem, eph int64
	scalars             []scalarAmount
}

type scalarAmount struct {
	name   string
	amount int64
}

func requestVector(pod *framework.PodInfo) fitVector {
	r := pod.Requests
	v := fitVector{pods: 1, cpu: r.MilliCPU, mem: r.Memory, eph: r.EphemeralStorage}
	for name, q := range r.Scalar {
		if q != 0 {
			v.scalars = append(v.scalars, scalarAmount{name, q})
		}
	}
	sort.Slice(v.scalars, func(i, j int) bool { return v.scalars[i].name < v.scalars[j].name })
	return v
}

// room is the node's free amount in each dimension the preemptor asks for
// (allocatable minus requested; pods: allowed minus present).
func (pl *fastPlan) room(ni *framework.NodeInfo) fitVector {
	a, u := &ni.Allocatable, &ni.Requested
	v := fitVector{pods: a.AllowedPods - int64(len(ni.Pods)), cpu: a.MilliCPU - u.MilliCPU,
		mem: a.Memory - u.Memory, eph: a.EphemeralStorage - u.EphemeralStorage}
	if len(pl.req.scalars) > 0 {
		v.scalars = make([]scalarAmount, len(pl.req.scalars))
		for i, s := range pl.req.scalars {
			v.scalars[i] = scalarAmount{s.name, a.Scalar[s.name] - u.Scalar[s.name]}
		}
	}
	return v
}

// take changes room by a pod's requests: sign -1 when it is added to the
// node, +1 when it leaves.
func (v *fitVector) take(p *framework.PodInfo, sign int64) {
	r := &p.Requests
	v.pods += sign
	v.cpu += sign * r.MilliCPU
	v.mem += sign * r.Memory
	v.eph += sign * r.EphemeralStorage
	for i := range v.scalars {
		v.scalars[i].amount += sign * r.Scalar[v.scalars[i].name]
	}
}

// fits is fitsRequest's verdict (no reasons): every requested amount within
// the room, and room for one more pod.
func (pl *fastPlan) fits(room *fitVector) bool {
	req := &pl.req
	if room.pods < 1 {
		return false
	}
	if (req.cpu > 0 && req.cpu > room.cpu) || (req.mem > 0 && req.mem > room.mem) || (req.eph > 0 && req.eph > room.eph) {
		return false
	}
	for i := range req.scalars {
		if req.scalars[i].amount > room.scalars[i].amount {
			return false
		}
	}
	return true
}

// dryRunInPlace is the dry run of a node whose potential victims are all
// inert, without copying the node: the filters other than
// NodeResourcesFit give the same verdict with or without inert pods, so
// they run on the node as it is (with the cycle's state, Fit skipped);
// Fit's verdict with every potential victim gone, and then with each
// reprieve, is arithmetic (reprieveByArithmetic). ok is false when the
// node needs the other paths: a victim is not inert, or the pod does not
// fit even with every victim gone (the status must then name the first
// failing filter in the profile's order, which the full run on a copy
// gives).
func (e *Evaluator) dryRunInPlace(plan *fastPlan, pod *framework.PodInfo, ni *framework.NodeInfo, budgets []budget) (c Candidate, st *framework.Status, ok bool) {
	nominatedHere := plan.nominatedOn(ni)
	var memo *dryMemo
	if len(nominatedHere) == 0 {
		memo = e.memoOf(ni, plan.snap)
	}
	if memo != nil && memo.matches(ni, &e.inputs) {
		e.stats.memo++
		if memo.noVictims {
			return Candidate{}, framework.NewStatus(framework.UnschedulableAndUnresolvable, ReasonNoVictims), true
		}
		if st := plan.filters(e.Handle, pod, ni, nominatedHere); !st.IsSuccess() {
			return Candidate{}, nil, false
		}
		return memo.candidate, nil, true
	}
	potential := e.potential[:0]
	for _, p := range ni.Pods {
		if p.Priority < pod.Priority {
			if !plan.inert(p) {
				e.potential = potential
				return Candidate{}, nil, false
			}
			potential = append(potential, p)
		}
	}
	e.potential = potential
	if len(potential) == 0 {
		if memo != nil {
			memo.store(ni, &e.inputs, true, Candidate{})
		}
		return Candidate{}, framework.NewStatus(framework.UnschedulableAndUnresolvable, ReasonNoVictims), true
	}
	if st := plan.filters(e.Handle, pod, ni, nominatedHere); !st.IsSuccess() {
		return Candidate{}, nil, false
	}
	room := plan.room(ni)
	for _, p := range potential {
		room.take(p, 1)
	}
	withNominated, nominated := plan.withNominatedPods(pod, nominatedHere, room)
	if !plan.fits(&room) || (nominated && !plan.fits(&withNominated)) {
		return Candidate{}, nil, false
	}
	victims, numViolating := plan.reprieveByArithmetic(room, withNominated, nominated, potential, budgets)
	c = NewCandidate(ni.Node.Name, victims, numViolating)
	if memo != nil {
		memo.store(ni, &e.inputs, false, c)
	}
	return c, nil, true
}

// withNominatedPods is room less the nominated pods of at least the pod's
// priority (other than the pod itself), which the first pass of
// RunFilterPluginsWithNominatedPods adds to the node; nominated reports
// whether there were any.
func (pl *fastPlan) withNominatedPods(pod *framework.PodInfo, list []*framework.PodInfo, room fitVector) (withNominated fitVector, nominated bool) {
	withNominated = room
	if len(list) == 0 {
		return withNominated, false
	}
	key := pod.Pod.Key()
	withNominated.scalars = append([]scalarAmount(nil), room.scalars...)
	for _, np := range list {
		if np.Priority < pod.Priority || np.Pod.HasKey(key) {
			continue
		}
		withNominated.take(np, -1)
		nominated = true
	}
	return withNominated, nominated
}

// reprieveByArithmetic is the reprieve loop of selectVictimsOnNode when
// only NodeResourcesFit's verdict can change: room is the node's room with
// every potential victim gone, withNominated the same with the nominated
// pods added (both passes of RunFilterPluginsWithNominatedPods must
// pass). Victims come back most important first.
func (pl *fastPlan) reprieveByArithmetic(room, withNominated fitVector, nominated bool, potential []*framework.PodInfo, budgets []budget) (victims []*framework.PodInfo, numViolating int) {
	victims, numViolating, _ = reprieve(potential, budgets, func(p *framework.PodInfo) (bool, *framework.Status) {
		room.take(p, -1)
		if nominated {
			withNominated.take(p, -1)
		}
		if pl.fits(&room) && (!nominated || pl.fits(&withNominated)) {
			return true, nil
		}
		room.take(p, 1)
		if nominated {
			withNominated.take(p, 1)
		}
		return false, nil
	})
	return victims, numViolating
}
