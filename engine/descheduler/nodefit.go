package descheduler

import (
	"fmt"
	"slices"

	"podlab.dev/podlab/engine/api"
)

// nodeFit is node.NodeFit (pkg/descheduler/node/node.go:134): the subset
// of the scheduler's filters the descheduler checks before evicting, in
// its order (fastest first). It returns why the pod does not fit, or "".
func (v *view) nodeFit(p *api.Pod, n *api.Node) string {
	if n.Spec.Unschedulable {
		return "node is not schedulable"
	}
	if !api.PodMatchesNodeSelectorAndAffinityTerms(p, n) {
		return "pod node selector does not match the node label"
	}
	if _, bad := api.FindUntoleratedTaint(n.Spec.Taints, p.Spec.Tolerations, api.DoNotScheduleTaint); bad {
		return "pod does not tolerate taints on the node"
	}
	if v.matchesAntiAffinityOn(p, n) {
		return "pod matches inter-pod anti-affinity rule of other pod on node"
	}
	if p.Spec.NodeName != n.Name {
		if why := v.fitsRequest(p, n); why != "" {
			return why
		}
	}
	return ""
}

// fitsRequest is node.fitsRequest: every resource the pod requests, and
// one pod slot, must be left on the node.
func (v *view) fitsRequest(p *api.Pod, n *api.Node) string {
	alloc := v.allocatable(n)
	used := v.requested[n.Name]
	if len(p.Spec.Containers) == 1 && simpleRequests(p) {
		// the pod's requests are its container's: compare them in place
		// rather than building (and keeping) a request list per pod
		req := p.Spec.Containers[0].Resources.Requests
		k := 0
		if q, ok := req[api.ResourceCPU]; ok {
			k++
			if q.MilliValue() > alloc[api.ResourceCPU]-used[api.ResourceCPU] {
				return "insufficient " + api.ResourceCPU
			}
		}
		if q, ok := req[api.ResourceMemory]; ok {
			k++
			if q.Value() > alloc[api.ResourceMemory]-used[api.ResourceMemory] {
				return "insufficient " + api.ResourceMemory
			}
		}
		if k < len(req) {
			for name, q := range req {
				if name == api.ResourceCPU || name == api.ResourceMemory || name == api.ResourcePods {
					continue
				}
				if q.Value() > alloc[name]-used[name] {
					return fmt.Sprintf("insufficient %s", name)
				}
			}
		}
		if alloc[api.ResourcePods]-used[api.ResourcePods] <= 0 {
			return "insufficient pods"
		}
		return ""
	}
	for name, q := range v.request(p) {
		if name == api.ResourcePods {
			continue
		}
		if q > alloc[name]-used[name] {
			return fmt.Sprintf("insufficient %s", name)
		}
	}
	if alloc[api.ResourcePods]-used[api.ResourcePods] <= 0 {
		return "insufficient pods"
	}
	return ""
}

// matchesAntiAffinityOn is node.podMatchesInterPodAntiAffinity
// (node.go:384): one of the pod's required anti-affinity terms selects a
// pod already on the node and the node has the term's topology key.
func (v *view) matchesAntiAffinityOn(p *api.Pod, n *api.Node) bool {
	a := p.Spec.Affinity
	if a == nil || a.PodAntiAffinity == nil {
		return false
	}
	for i := range a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
		term := &a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[i]
		sel, err := api.CompileSelector(term.LabelSelector)
		if err != nil {
			continue
		}
		for _, q := range v.on[n.Name] {
			if q.Name == p.Name && q.Namespace == p.Namespace {
				continue
			}
			if !termNamespaces(p, term, q.Namespace) || !sel.Matches(q.Labels) {
				continue
			}
			if _, ok := n.Labels[term.TopologyKey]; ok {
				return true
			}
		}
	}
	return false
}

// termNamespaces is utils.GetNamespacesFromPodAffinityTerm: the term's
// namespaces, or the pod's own when it lists none.
func termNamespaces(p *api.Pod, term *api.PodAffinityTerm, ns string) bool {
	if len(term.Namespaces) == 0 {
		return ns == p.Namespace
	}
	return slices.Contains(term.Namespaces, ns)
}

// fitsAnyOtherNode is node.PodFitsAnyOtherNode: the pod fits one of nodes
// other than its own.
func (v *view) fitsAnyOtherNode(p *api.Pod, nodes []*api.Node) bool {
	for _, n := range nodes {
		if n.Name == p.Spec.NodeName {
			continue
		}
		if v.nodeFit(p, n) == "" {
			return true
		}
	}
	return false
}

// fitsAnyNode is node.PodFitsAnyNode.
func (v *view) fitsAnyNode(p *api.Pod, nodes []*api.Node) bool {
	for _, n := range nodes {
		if v.nodeFit(p, n) == "" {
			return true
		}
	}
	return false
}

// plainRequests is a pod whose node fit depends on nothing but its cpu
// and memory requests and the node: one container with only cpu and/or
// memory requests (no init containers, overhead or pod-level resources),
// no nodeSelector, affinity or tolerations.
type plainRequests struct {
	cpu, mem       int64
	hasCPU, hasMem bool
}

func plainRequestsOf(p *api.Pod) (plainRequests, bool) {
	if len(p.Spec.NodeSelector) > 0 || p.Spec.Affinity != nil || len(p.Spec.Tolerations) > 0 ||
		len(p.Spec.Containers) != 1 || !simpleRequests(p) {
		return plainRequests{}, false
	}
	req := p.Spec.Containers[0].Resources.Requests
	cpu, hasCPU := req[api.ResourceCPU]
	mem, hasMem := req[api.ResourceMemory]
	if b2i(hasCPU)+b2i(hasMem) != len(req) {
		return plainRequests{}, false
	}
	return plainRequests{cpu.MilliValue(), mem.Value(), hasCPU, hasMem}, true
}

// fitsAnyOtherNodeMemo is fitsAnyOtherNode(p, nodes), remembering for
// pods with plain requests the first two nodes they fit (memo belongs to
// one nodes list): the pod fits another node when the first is not its
// own or there is a second. The answer is nodeFit's, which for such a
// pod reads only the node and the requests.
func (v *view) fitsAnyOtherNodeMemo(p *api.Pod, nodes []*api.Node, memo map[plainRequests][2]string) bool {
	pr, ok := plainRequestsOf(p)
	if !ok {
		return v.fitsAnyOtherNode(p, nodes)
	}
	first, found := memo[pr]
	if !found {
		k := 0
		for _, n := range nodes {
			// nodeFit leaves requests out on the pod's own node: the
			// memo, shared by pods on other nodes, needs them there too
			if v.nodeFit(p, n) == "" && (n.Name != p.Spec.NodeName || v.fitsRequest(p, n) == "") {
				first[k] = n.Name
				if k++; k == 2 {
					break
				}
			}
		}
		memo[pr] = first
	}
	return (first[0] != "" && first[0] != p.Spec.NodeName) || first[1] != ""
}
