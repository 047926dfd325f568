package autoscaler

import (
	"fmt"
	"sort"

	"podlab.dev/podlab/engine/api"
)

// podGroup is an equivalence group of pending pods (core/scaleup/
// equivalence): pods of one controller, so one exemplar's verdict on a
// template node holds for all of them.
type podGroup struct {
	Pods []*api.Pod
	// Rejected holds, per node group, the filter reasons that kept the
	// exemplar off its template node.
	Rejected map[string][]string
	// Schedulable lists the groups whose template node fits the exemplar.
	Schedulable []string
}

// buildPodGroups groups pods by controller UID and pod-template-hash
// (equivalence.BuildPodGroups compares the controller and the pod spec;
// pods of one ReplicaSet revision share both); pods without a controller
// are groups of their own. Order: first appearance.
func buildPodGroups(pods []*api.Pod) []*podGroup {
	var out []*podGroup
	byKey := map[string]*podGroup{}
	for _, p := range pods {
		ref := p.ControllerRef()
		if ref == nil {
			out = append(out, &podGroup{Pods: []*api.Pod{p}, Rejected: map[string][]string{}})
			continue
		}
		key := ref.UID + "/" + p.Labels["pod-template-hash"] + "/" + p.Labels["controller-revision-hash"]
		g := byKey[key]
		if g == nil {
			g = &podGroup{Rejected: map[string][]string{}}
			byKey[key] = g
			out = append(out, g)
		}
		g.Pods = append(g.Pods, p)
	}
	return out
}

// podScore is DecreasingPodOrderer's score: the pod's CPU and memory
// requests as fractions of the template's allocatable, summed.
func podScore(p *api.Pod, template *api.Node) float64 {
	r := api.PodRequests(p, api.PodRequestsOptions{})
	var score float64
	for _, res := range []string{api.ResourceCPU, api.ResourceMemory} {
		alloc := template.Status.Allocatable[res].MilliValue()
		if alloc > 0 {
			score += float64(r[res].MilliValue()) / float64(alloc)
		}
	}
	return score
}

// estimate is BinpackingNodeEstimator.Estimate (estimator/
// binpacking_estimator.go): First-Fit Decreasing over the equivalence
// groups, adding nodes "e-0", "e-1", … from the template to the
// simulation while the limit allows. Each group first fills the nodes
// already added; then each remaining pod goes to the last added node, or
// to a new one; a pod that does not fit an empty new node stops the
// group (it would not fit the next one either). It returns the number of
// new nodes that received pods and the pods placed. The simulation is
// reverted before returning.
func (s *simulation) estimate(groups []*podGroup, template *api.Node, limit int) (int, []*api.Pod) {
	ordered := append([]*podGroup(nil), groups...)
	score := make(map[*podGroup]float64, len(ordered))
	for _, g := range ordered {
		score[g] = podScore(g.Pods[0], template)
	}
	sort.SliceStable(ordered, func(i, j int) bool { return score[ordered[i]] > score[ordered[j]] })
	s.fork()
	defer s.revert()
	var (
		newNodes  []string
		withPods  = map[string]bool{}
		lastNode  string
		scheduled []*api.Pod
	)
	place := func(p *api.Pod, node string) {
		s.addPod(p, node)
		withPods[node] = true
		scheduled = append(scheduled, p)
	}
	for _, g := range ordered {
		i := 0
		for ; i < len(g.Pods); i++ {
			node, ok := s.fitsNodes(g.Pods[i], newNodes)
			if !ok {
				break
			}
			place(g.Pods[i], node)
		}
		for _, p := range g.Pods[i:] {
			if lastNode != "" && s.check(p, lastNode).IsSuccess() {
				place(p, lastNode)
				continue
			}
			if lastNode != "" && !withPods[lastNode] {
				break
			}
			if len(newNodes) >= limit {
				break
			}
			lastNode = fmt.Sprintf("e-%d", len(newNodes))
			s.addNode(template, lastNode)
			newNodes = append(newNodes, lastNode)
			if !s.check(p, lastNode).IsSuccess() {
				break
			}
			place(p, lastNode)
		}
	}
	return len(withPods), scheduled
}
