package scheduler

import (
	"fmt"
	"sync/atomic"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// Builders and fake plugins for runtime tests.

func mkNode(name string, milliCPU int64, labels ...string) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{api.LabelHostname: name}}}
	for i := 0; i+1 < len(labels); i += 2 {
		n.Labels[labels[i]] = labels[i+1]
	}
	n.Status.Allocatable = api.ResourceList{api.ResourceCPU: api.Milli(milliCPU), api.ResourcePods: api.Units(110)}
	n.Status.Capacity = n.Status.Allocatable
	return n
}

func mkPod(name string, milliCPU int64, prio int32) *framework.PodInfo {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name, Labels: map[string]string{}}}
	p.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: api.Milli(milliCPU)}}}}
	p.Spec.Priority = &prio
	api.DefaultPod(p)
	return framework.NewPodInfo(p)
}

func mkSnapshot(nodes ...*api.Node) *framework.Snapshot {
	s := framework.NewSnapshot()
	for _, n := range nodes {
		s.AddNode(n)
	}
	return s
}

// bind assigns the pod to node in the snapshot (a copy with nodeName set).
func bind(s *framework.Snapshot, pi *framework.PodInfo, node string) {
	p := *pi.Pod
	p.Spec.NodeName = node
	c := *pi
	c.Pod = &p
	s.AddPod(&c)
}

// fakeFilter rejects nodes by a function.
type fakeFilter struct {
	name   string
	filter func(pi *framework.PodInfo, ni *framework.NodeInfo) *framework.Status
	calls  atomic.Int64
}

func (f *fakeFilter) Name() string { return f.name }
func (f *fakeFilter) Filter(_ *framework.CycleState, pi *framework.PodInfo, ni *framework.NodeInfo) *framework.Status {
	f.calls.Add(1)
	return f.filter(pi, ni)
}

// rejectNodes rejects the named nodes with the given code and reasons.
func rejectNodes(name string, code framework.Code, reasons []string, nodes ...string) *fakeFilter {
	set := map[string]bool{}
	for _, n := range nodes {
		set[n] = true
	}
	return &fakeFilter{name: name, filter: func(_ *framework.PodInfo, ni *framework.NodeInfo) *framework.Status {
		if set[ni.Node.Name] {
			return framework.NewStatus(code, reasons...)
		}
		return nil
	}}
}

// fitFilter is a minimal NodeResourcesFit: cpu only.
func fitFilter() *fakeFilter {
	return &fakeFilter{name: "NodeResourcesFit", filter: func(pi *framework.PodInfo, ni *framework.NodeInfo) *framework.Status {
		if ni.Requested.MilliCPU+pi.Requests.MilliCPU > ni.Allocatable.MilliCPU {
			return framework.NewStatus(framework.Unschedulable, "Insufficient cpu")
		}
		return nil
	}}
}

// fakePreFilter has PreFilter (by function) and a Filter that counts calls
// and accepts every node.
type fakePreFilter struct {
	name        string
	preFilter   func() (*framework.PreFilterResult, *framework.Status)
	preCalls    int
	filterCalls atomic.Int64
}

func (f *fakePreFilter) Name() string { return f.name }
func (f *fakePreFilter) PreFilter(*framework.CycleState, *framework.PodInfo, *framework.Snapshot) (*framework.PreFilterResult, *framework.Status) {
	f.preCalls++
	return f.preFilter()
}
func (f *fakePreFilter) PreFilterExtensions() framework.PreFilterExtensions { return nil }
func (f *fakePreFilter) Filter(*framework.CycleState, *framework.PodInfo, *framework.NodeInfo) *framework.Status {
	f.filterCalls.Add(1)
	return nil
}

func nodeSet(names ...string) *framework.PreFilterResult {
	r := &framework.PreFilterResult{NodeNames: map[string]struct{}{}}
	for _, n := range names {
		r.NodeNames[n] = struct{}{}
	}
	return r
}

// fakeScore scores by function and, when normalize is set, normalises by
// scaling to the maximum (like helper.DefaultNormalizeScore).
type fakeScore struct {
	name      string
	score     func(ni *framework.NodeInfo) int64
	normalize bool
	skip      bool
	calls     atomic.Int64
}

func (f *fakeScore) Name() string { return f.name }
func (f *fakeScore) PreScore(*framework.CycleState, *framework.PodInfo, *framework.Snapshot, []*framework.NodeInfo) *framework.Status {
	if f.skip {
		return framework.NewStatus(framework.Skip)
	}
	return nil
}
func (f *fakeScore) Score(_ *framework.CycleState, _ *framework.PodInfo, ni *framework.NodeInfo) (int64, *framework.Status) {
	f.calls.Add(1)
	return f.score(ni), nil
}
func (f *fakeScore) ScoreExtensions() framework.ScoreExtensions {
	if !f.normalize {
		return nil
	}
	return f
}
func (f *fakeScore) NormalizeScore(_ *framework.CycleState, _ *framework.PodInfo, scores []framework.NodeScore) *framework.Status {
	var hi int64
	for _, s := range scores {
		hi = max(hi, s.Score)
	}
	for i := range scores {
		if hi > 0 {
			scores[i].Score = framework.MaxNodeScore * scores[i].Score / hi
		}
	}
	return nil
}

// byTable scores nodes from a map (0 for others).
func byTable(m map[string]int64) func(*framework.NodeInfo) int64 {
	return func(ni *framework.NodeInfo) int64 { return m[ni.Node.Name] }
}

// fakeExplainer reports the node's name length as its detail.
type fakeExplainer struct{ fakeFilter }

func (f *fakeExplainer) ExplainNode(_ *framework.CycleState, _ *framework.PodInfo, ni *framework.NodeInfo) any {
	return fmt.Sprintf("detail:%s", ni.Node.Name)
}

func testScheduler(cfg Config, snap *framework.Snapshot, plugins ...framework.Plugin) *Scheduler {
	weights := map[string]int64{}
	var order []string
	for _, pl := range plugins {
		if _, ok := pl.(framework.ScorePlugin); ok {
			weights[pl.Name()] = 1
			order = append(order, pl.Name())
		}
	}
	return newScheduler(cfg, snap, plugins, weights, order)
}

func nodeNames(n int) []*api.Node {
	out := make([]*api.Node, n)
	for i := range out {
		out[i] = mkNode(fmt.Sprintf("node-%04d", i), 4000)
	}
	return out
}
