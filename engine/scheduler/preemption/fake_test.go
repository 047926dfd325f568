package preemption

import (
	"fmt"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// fakeHandle runs the given plugins directly, as the runtime's handle
// does: filters in order stopping at the first rejection, PreFilter
// extensions of plugins whose PreFilter did not skip.
type fakeHandle struct {
	snap    *framework.Snapshot
	plugins []framework.Plugin
}

func (h *fakeHandle) Snapshot() *framework.Snapshot { return h.snap }

func (h *fakeHandle) RunFilterPlugins(state *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	for _, p := range h.plugins {
		f, ok := p.(framework.FilterPlugin)
		if !ok || state.SkipFilterPlugins[p.Name()] {
			continue
		}
		if st := f.Filter(state, pod, node); !st.IsSuccess() {
			return st.WithPlugin(p.Name())
		}
	}
	return nil
}

func (h *fakeHandle) extensions(state *framework.CycleState, op string, fn func(framework.PreFilterExtensions) *framework.Status) *framework.Status {
	for _, p := range h.plugins {
		pf, ok := p.(framework.PreFilterPlugin)
		if !ok || state.SkipFilterPlugins[p.Name()] || pf.PreFilterExtensions() == nil {
			continue
		}
		if st := fn(pf.PreFilterExtensions()); !st.IsSuccess() {
			return framework.AsStatus(fmt.Errorf("running %s on PreFilter plugin %q: %s", op, p.Name(), st.Message()))
		}
	}
	return nil
}

func (h *fakeHandle) RunPreFilterExtensionAddPod(state *framework.CycleState, pod, add *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	return h.extensions(state, "AddPod", func(e framework.PreFilterExtensions) *framework.Status { return e.AddPod(state, pod, add, node) })
}

func (h *fakeHandle) RunPreFilterExtensionRemovePod(state *framework.CycleState, pod, rm *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	return h.extensions(state, "RemovePod", func(e framework.PreFilterExtensions) *framework.Status { return e.RemovePod(state, pod, rm, node) })
}

// cycle runs PreFilter and Filter on every node, as a failed scheduling
// cycle would, and returns the state and per-node statuses for Preempt.
func (h *fakeHandle) cycle(pod *framework.PodInfo) (*framework.CycleState, framework.NodeToStatusMap) {
	state := framework.NewCycleState()
	state.SkipFilterPlugins = map[string]bool{}
	for _, p := range h.plugins {
		if pf, ok := p.(framework.PreFilterPlugin); ok {
			if _, st := pf.PreFilter(state, pod, h.snap); st.IsSkip() {
				state.SkipFilterPlugins[p.Name()] = true
			}
		}
	}
	statuses := map[string]*framework.Status{}
	for _, ni := range h.snap.Nodes() {
		if st := h.RunFilterPlugins(state, pod, ni); !st.IsSuccess() {
			statuses[ni.Node.Name] = st
		}
	}
	return state, statuses
}

// fit is a small NodeResourcesFit stand-in: cpu and pod count, resolvable
// unless the request exceeds the node's whole allocatable.
type fit struct{}

func (fit) Name() string { return "Fit" }

func (fit) Filter(_ *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	var reasons []string
	if int64(len(node.Pods))+1 > node.Allocatable.AllowedPods {
		reasons = append(reasons, "Too many pods")
	}
	if pod.Requests.MilliCPU > node.Allocatable.MilliCPU {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, "Insufficient cpu")
	}
	if pod.Requests.MilliCPU+node.Requested.MilliCPU > node.Allocatable.MilliCPU {
		reasons = append(reasons, "Insufficient cpu")
	}
	if len(reasons) > 0 {
		return framework.NewStatus(framework.Unschedulable, reasons...)
	}
	return nil
}

// tainted rejects nodes labelled "tainted" as unresolvable.
type tainted struct{}

func (tainted) Name() string { return "TaintToleration" }

func (tainted) Filter(_ *framework.CycleState, _ *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	if _, ok := node.Node.Labels["tainted"]; ok {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint(s)")
	}
	return nil
}

// Builders.

func mkNode(name, cpu string, labels ...string) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{api.LabelHostname: name}}}
	for i := 0; i+1 < len(labels); i += 2 {
		n.Labels[labels[i]] = labels[i+1]
	}
	n.Status.Allocatable = api.ResourceList{"cpu": mustQ(cpu), "memory": mustQ("4Gi"), "pods": mustQ("10")}
	n.Status.Capacity = n.Status.Allocatable
	return n
}

func mustQ(s string) api.Quantity {
	q, err := api.ParseQuantity(s)
	if err != nil {
		panic(err)
	}
	return q
}

type podSpec struct {
	name, node, cpu string
	prio            int32
	start           int // seconds; 0 ⇒ not started
	labels          []string
}

func mkPod(s podSpec) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: s.name, Namespace: "default", UID: "uid-" + s.name, Labels: map[string]string{}}}
	for i := 0; i+1 < len(s.labels); i += 2 {
		p.Labels[s.labels[i]] = s.labels[i+1]
	}
	p.Spec.NodeName = s.node
	prio := s.prio
	p.Spec.Priority = &prio
	p.Spec.Containers = []api.Container{{Name: "c", Image: "pause", Resources: api.ResourceRequirements{
		Requests: api.ResourceList{"cpu": mustQ(s.cpu)},
	}}}
	if s.start > 0 {
		t := api.Time(time.Duration(s.start) * time.Second)
		p.Status.StartTime = &t
	}
	if s.node != "" {
		p.Status.Phase = api.PodRunning
	}
	api.DefaultPod(p)
	return p
}

func newHandle(nodes []*api.Node, pods []*api.Pod, plugins ...framework.Plugin) *fakeHandle {
	snap := framework.NewSnapshot()
	for _, n := range nodes {
		api.DefaultNode(n)
		snap.AddNode(n)
	}
	for _, p := range pods {
		snap.AddPod(framework.NewPodInfo(p))
	}
	if len(plugins) == 0 {
		plugins = []framework.Plugin{tainted{}, fit{}}
	}
	return &fakeHandle{snap: snap, plugins: plugins}
}

func keys(pods []*framework.PodInfo) []string {
	out := make([]string, len(pods))
	for i, p := range pods {
		out[i] = p.Pod.Key()
	}
	return out
}

func pdb(name string, allowed int32, match ...string) *api.PodDisruptionBudget {
	sel := map[string]string{}
	for i := 0; i+1 < len(match); i += 2 {
		sel[match[i]] = match[i+1]
	}
	return &api.PodDisruptionBudget{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec:       api.PDBSpec{Selector: &api.LabelSelector{MatchLabels: sel}},
		Status:     api.PDBStatus{DisruptionsAllowed: allowed},
	}
}

func fmtKeys(ks []string) string { return fmt.Sprint(ks) }
