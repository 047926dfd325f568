package descheduler

import (
	"sort"

	"podlab.dev/podlab/engine/api"
)

// State is what a pass reads: the cluster at one instant. The engine
// adapter (controller.go) fills it from engine.Engine; tests build it
// directly. Objects are read, never modified.
type State struct {
	Now     api.Time
	Nodes   []*api.Node
	Pods    []*api.Pod
	PDBs    []*api.PodDisruptionBudget
	Classes map[string]*api.PriorityClass
}

// view is a pass's index over a State: the nodes the pass works on
// (ready, matching the policy's nodeSelector, sorted by name), the pods
// on them, and each node's requested resources.
type view struct {
	now   api.Time
	nodes []*api.Node
	node  map[string]*api.Node
	// allOn lists every pod bound to a node (ListAllPodsOnANode); on
	// only the non-terminal ones (ListPodsOnANode: succeeded and failed
	// pods do not occupy resources). Both sorted by pod key.
	allOn map[string][]*api.Pod
	on    map[string][]*api.Pod
	// requested sums the non-terminal pods' requests per node, in
	// milli-cpu, bytes, pods and whole extended units.
	requested map[string]resources
	podReq    map[*api.Pod]resources
	classes   map[string]*api.PriorityClass
	pdbs      []*api.PodDisruptionBudget
	// evicted are pods evicted earlier in this pass: later plugins see
	// them terminating, as upstream's informer does once the API server
	// set their deletionTimestamp.
	evicted map[*api.Pod]bool
	// ownerPods counts pods per owner UID (DefaultEvictor minReplicas).
	ownerPods map[string]int
}

// resources are quantities by resource name: cpu in millicores, memory
// and ephemeral-storage in bytes, pods and extended resources in units.
type resources map[string]int64

func requestsOf(p *api.Pod) resources {
	rl := api.PodRequests(p, api.PodRequestsOptions{})
	r := make(resources, len(rl)+1)
	for name, q := range rl {
		if name == api.ResourceCPU {
			r[name] = q.MilliValue()
		} else {
			r[name] = q.Value()
		}
	}
	r[api.ResourcePods] = 1
	return r
}

// addRequests adds a pod's requests to sum. Pods with only regular
// containers (no init containers, overhead or pod-level resources) are
// summed in place, without building their request list (a pass over
// 30,000 pods would otherwise allocate 30,000 maps).
func addRequests(sum resources, p *api.Pod) {
	if len(p.Spec.InitContainers) > 0 || len(p.Spec.Overhead) > 0 || p.Spec.Resources != nil {
		for k, q := range requestsOf(p) {
			sum[k] += q
		}
		return
	}
	for i := range p.Spec.Containers {
		for name, q := range p.Spec.Containers[i].Resources.Requests {
			if name == api.ResourceCPU {
				sum[name] += q.MilliValue()
			} else {
				sum[name] += q.Value()
			}
		}
	}
	sum[api.ResourcePods]++
}

func allocatableOf(n *api.Node) resources {
	rl := n.Status.Allocatable
	if len(rl) == 0 {
		rl = n.Status.Capacity
	}
	r := make(resources, len(rl))
	for name, q := range rl {
		if name == api.ResourceCPU {
			r[name] = q.MilliValue()
		} else {
			r[name] = q.Value()
		}
	}
	return r
}

// isReady is nodeutil.IsReady: a NodeReady condition that is not True
// excludes the node (unschedulable nodes stay: plugins check that).
func isReady(n *api.Node) bool {
	c := n.Condition("Ready")
	return c == nil || c.Status == "True"
}

func newView(s *State, nodeSelector *api.Selector) *view {
	v := &view{
		now:       s.Now,
		node:      make(map[string]*api.Node, len(s.Nodes)),
		allOn:     make(map[string][]*api.Pod, len(s.Nodes)),
		on:        make(map[string][]*api.Pod, len(s.Nodes)),
		requested: make(map[string]resources, len(s.Nodes)),
		podReq:    make(map[*api.Pod]resources, len(s.Pods)),
		classes:   s.Classes,
		pdbs:      s.PDBs,
		evicted:   map[*api.Pod]bool{},
		ownerPods: map[string]int{},
	}
	for _, n := range s.Nodes {
		if !isReady(n) || (nodeSelector != nil && !nodeSelector.Matches(n.Labels)) {
			continue
		}
		v.nodes = append(v.nodes, n)
		v.node[n.Name] = n
		v.requested[n.Name] = resources{}
	}
	sort.Slice(v.nodes, func(i, j int) bool { return v.nodes[i].Name < v.nodes[j].Name })
	pods := append([]*api.Pod(nil), s.Pods...)
	sort.Slice(pods, func(i, j int) bool {
		if pods[i].Namespace != pods[j].Namespace {
			return pods[i].Namespace < pods[j].Namespace
		}
		return pods[i].Name < pods[j].Name
	})
	for _, p := range pods {
		for _, ref := range p.OwnerReferences {
			v.ownerPods[ref.UID]++
		}
		if _, ok := v.node[p.Spec.NodeName]; !ok {
			continue
		}
		v.allOn[p.Spec.NodeName] = append(v.allOn[p.Spec.NodeName], p)
		if p.IsTerminal() {
			continue
		}
		v.on[p.Spec.NodeName] = append(v.on[p.Spec.NodeName], p)
		addRequests(v.requested[p.Spec.NodeName], p)
	}
	return v
}

// terminating is utils.IsPodTerminating, counting this pass's evictions.
func (v *view) terminating(p *api.Pod) bool { return p.IsTerminating() || v.evicted[p] }

// podsOnNodes is podutil.ListPodsOnNodes: the non-terminal pods of the
// view's nodes (node order, then pod key) that pass filter.
func (v *view) podsOnNodes(filter func(*api.Pod) bool) []*api.Pod {
	var out []*api.Pod
	for _, n := range v.nodes {
		for _, p := range v.on[n.Name] {
			if filter == nil || filter(p) {
				out = append(out, p)
			}
		}
	}
	return out
}

func (v *view) request(p *api.Pod) resources {
	if r, ok := v.podReq[p]; ok {
		return r
	}
	r := requestsOf(p)
	v.podReq[p] = r
	return r
}
