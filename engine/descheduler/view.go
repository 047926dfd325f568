package descheduler

import (
	"slices"
	"sort"
	"strings"

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
	// alloc caches allocatableOf per node name: node fit checks ask for
	// the same nodes thousands of times in a pass.
	alloc   map[string]resources
	classes map[string]*api.PriorityClass
	pdbs    []*api.PodDisruptionBudget
	// evicted are pods evicted earlier in this pass: later plugins see
	// them terminating, as upstream's informer does once the API server
	// set their deletionTimestamp.
	evicted map[*api.Pod]bool
	// ownerPods counts pods per owner UID (DefaultEvictor minReplicas),
	// counted over allPods on first use (ownerCount).
	ownerPods map[string]int
	allPods   []*api.Pod
	// variants caches, per duplicates variant key, the nodes it fits
	// (duplicateTargets).
	variants map[string]*nodeBits
}

// resources are quantities by resource name: cpu in millicores, memory
// and ephemeral-storage in bytes, pods and extended resources in units.
type resources map[string]int64

func requestsOf(p *api.Pod) resources {
	rl := api.PodRequests(p, api.PodRequestsOptions{})
	r := quantities(rl, len(rl)+1)
	r[api.ResourcePods] = 1
	return r
}

// quantities converts rl to resources (cpu in millicores, the rest in
// units), sized for size entries.
func quantities(rl api.ResourceList, size int) resources {
	r := make(resources, size)
	for name, q := range rl {
		if name == api.ResourceCPU {
			r[name] = q.MilliValue()
		} else {
			r[name] = q.Value()
		}
	}
	return r
}

// addRequests adds a pod's requests to sum. Pods with only regular
// containers (no init containers, overhead or pod-level resources) are
// summed in place, without building their request list (a pass over
// 30,000 pods would otherwise allocate 30,000 maps).
func addRequests(sum resources, p *api.Pod) {
	if !simpleRequests(p) {
		for k, q := range requestsOf(p) {
			sum[k] += q
		}
		return
	}
	for i := range p.Spec.Containers {
		addContainerRequests(sum, p.Spec.Containers[i].Resources.Requests)
	}
	sum[api.ResourcePods]++
}

// simpleRequests reports whether a pod's requests are the sum of its
// regular containers' (no init containers, overhead or pod-level
// resources).
func simpleRequests(p *api.Pod) bool {
	return len(p.Spec.InitContainers) == 0 && len(p.Spec.Overhead) == 0 && p.Spec.Resources == nil
}

// addContainerRequests adds one container's requests to sum: cpu and
// memory by direct lookup (ranging over a small map costs more than
// the additions), anything else by iteration.
func addContainerRequests(sum resources, req api.ResourceList) {
	n := 0
	if q, ok := req[api.ResourceCPU]; ok {
		sum[api.ResourceCPU] += q.MilliValue()
		n++
	}
	if q, ok := req[api.ResourceMemory]; ok {
		sum[api.ResourceMemory] += q.Value()
		n++
	}
	if n == len(req) {
		return
	}
	for name, q := range req {
		if name != api.ResourceCPU && name != api.ResourceMemory {
			sum[name] += q.Value()
		}
	}
}

func allocatableOf(n *api.Node) resources {
	rl := n.Status.Allocatable
	if len(rl) == 0 {
		rl = n.Status.Capacity
	}
	return quantities(rl, len(rl))
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
		alloc:     make(map[string]resources, len(s.Nodes)),
		classes:   s.Classes,
		pdbs:      s.PDBs,
		evicted:   map[*api.Pod]bool{},
		allPods:   s.Pods,
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
	pods := s.Pods
	byKey := func(a, b *api.Pod) int {
		if c := strings.Compare(a.Namespace, b.Namespace); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	}
	// the engine's pod list is already in key order: copy and sort only
	// when it is not (keys are unique, so any sort gives the same order)
	if !slices.IsSortedFunc(pods, byKey) {
		pods = slices.Clone(s.Pods)
		slices.SortFunc(pods, byKey)
	}
	// cpu and memory of single-container pods are summed in plain
	// integers per node and added to requested at the end (a map update
	// per pod and resource was a sixth of the pass); the node's pod lists
	// are built beside them, one map lookup per pod
	// on is allOn itself until a node's first terminal pod (the lists are
	// only read; most nodes have none, so one list is built, not two)
	type sum struct {
		cpu, mem, pods int64
		hasCPU, hasMem bool
		split          bool
		allOn, on      []*api.Pod
	}
	sums := make(map[string]*sum, len(v.nodes))
	for _, n := range v.nodes {
		sums[n.Name] = &sum{}
	}
	for _, p := range pods {
		acc, ok := sums[p.Spec.NodeName]
		if !ok {
			continue
		}
		acc.allOn = append(acc.allOn, p)
		if p.IsTerminal() {
			if !acc.split {
				acc.on, acc.split = slices.Clone(acc.allOn[:len(acc.allOn)-1]), true
			}
			continue
		}
		if acc.split {
			acc.on = append(acc.on, p)
		}
		if len(p.Spec.Containers) == 1 && simpleRequests(p) {
			req := p.Spec.Containers[0].Resources.Requests
			cpu, hasCPU := req[api.ResourceCPU]
			mem, hasMem := req[api.ResourceMemory]
			if k := b2i(hasCPU) + b2i(hasMem); k == len(req) {
				if hasCPU {
					acc.cpu += cpu.MilliValue()
					acc.hasCPU = true
				}
				if hasMem {
					acc.mem += mem.Value()
					acc.hasMem = true
				}
				acc.pods++
				continue
			}
		}
		addRequests(v.requested[p.Spec.NodeName], p)
	}
	for _, n := range v.nodes {
		acc, r := sums[n.Name], v.requested[n.Name]
		if acc.allOn != nil {
			v.allOn[n.Name] = acc.allOn
		}
		if !acc.split {
			acc.on = acc.allOn
		}
		if len(acc.on) > 0 {
			v.on[n.Name] = acc.on
		}
		if acc.hasCPU {
			r[api.ResourceCPU] += acc.cpu
		}
		if acc.hasMem {
			r[api.ResourceMemory] += acc.mem
		}
		if acc.pods > 0 {
			r[api.ResourcePods] += acc.pods
		}
	}
	return v
}

// anySpreadConstraint reports whether a non-terminal pod on the view's
// nodes declares a topology spread constraint.
func (v *view) anySpreadConstraint() bool {
	for _, n := range v.nodes {
		for _, p := range v.on[n.Name] {
			if len(p.Spec.TopologySpreadConstraints) > 0 {
				return true
			}
		}
	}
	return false
}

// ownerCount is the number of pods (every pod of the state) with an
// owner reference of that UID.
func (v *view) ownerCount(uid string) int {
	if v.ownerPods == nil {
		v.ownerPods = map[string]int{}
		for _, p := range v.allPods {
			for _, ref := range p.OwnerReferences {
				v.ownerPods[ref.UID]++
			}
		}
	}
	return v.ownerPods[uid]
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
	// addRequests over an empty sum is requestsOf, without building the
	// request list of a pod with only regular containers
	r := make(resources, 3)
	addRequests(r, p)
	if v.podReq == nil {
		// made on first use: a pass that asks for no pod's requests
		// (most) does not allocate a map sized for every pod
		v.podReq = map[*api.Pod]resources{}
	}
	v.podReq[p] = r
	return r
}

// allocatable is allocatableOf(n), computed once per node and pass.
func (v *view) allocatable(n *api.Node) resources {
	if r, ok := v.alloc[n.Name]; ok {
		return r
	}
	r := allocatableOf(n)
	v.alloc[n.Name] = r
	return r
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
