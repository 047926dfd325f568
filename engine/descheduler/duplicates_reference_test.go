package descheduler

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"podlab.dev/podlab/engine/api"
)

// The RemoveDuplicates plugin as it was before its per-pod keys and
// per-pass target cache (duplicates.go): the reference the equivalence
// test compares the plugin with.

// removeDuplicates is RemoveDuplicates.Balance (removeduplicates.go):
// pods of one owner with the same images on one node are duplicates;
// where a node holds more than ceil(owner's pods / feasible nodes) of
// them, the excess is evicted so the scheduler can spread them.
func removeDuplicatesReference(c *pluginCtx, args *DuplicatesArgs) error {
	filter := c.filter(args.Namespaces, nil)
	podFilter := func(p *api.Pod) bool { return filter(p) && c.ev.preEvictionFilter(p) == "" }
	dups := map[dupOwner]map[string][]*api.Pod{}
	occurrences := map[dupOwner]int{}
	for _, n := range c.v.nodes {
		seenKeys := map[string][][]string{}
		for _, p := range c.v.on[n.Name] {
			if !podFilter(p) || len(p.OwnerReferences) == 0 || excludedOwnerKind(p.OwnerReferences, args.ExcludeOwnerKinds) {
				continue
			}
			var images []string
			for _, ct := range p.Spec.Containers {
				images = append(images, ct.Image)
			}
			sort.Strings(images)
			hash := strings.Join(images, "#")
			var keys []string
			for _, ref := range p.OwnerReferences {
				occurrences[dupOwner{p.Namespace, ref.Kind, ref.Name, hash}]++
				for _, img := range images {
					keys = append(keys, strings.Join([]string{p.Namespace, ref.Kind, ref.Name, img}, "/"))
				}
			}
			sort.Strings(keys)
			if len(keys) == 0 {
				continue
			}
			matched := false
			for _, existing := range seenKeys[keys[0]] {
				if strings.Join(existing, "\x00") == strings.Join(keys, "\x00") {
					matched = true
					for _, ref := range p.OwnerReferences {
						o := dupOwner{p.Namespace, ref.Kind, ref.Name, hash}
						if dups[o] == nil {
							dups[o] = map[string][]*api.Pod{}
						}
						dups[o][n.Name] = append(dups[o][n.Name], p)
					}
					break
				}
			}
			if !matched {
				seenKeys[keys[0]] = append(seenKeys[keys[0]], keys)
			}
		}
	}
	owners := make([]dupOwner, 0, len(dups))
	for o := range dups {
		owners = append(owners, o)
	}
	sort.Slice(owners, func(i, j int) bool { return owners[i].String() < owners[j].String() })
	for _, o := range owners {
		podNodes := dups[o]
		targets := c.duplicateTargetsReference(podNodes)
		if targets < 2 {
			continue
		}
		upperAvg := int(math.Ceil(float64(occurrences[o]) / float64(targets)))
		nodes := make([]string, 0, len(podNodes))
		for n := range podNodes {
			nodes = append(nodes, n)
		}
		sort.Strings(nodes)
	nodeLoop:
		for _, node := range nodes {
			pods := podNodes[node]
			if len(pods)+1 <= upperAvg {
				continue
			}
			reason := fmt.Sprintf("%s %s/%s has %d pods with images [%s] on %s (%d duplicates beyond the first); %d pods over %d feasible nodes allow at most %d per node",
				o.kind, o.namespace, o.name, len(pods)+1, strings.ReplaceAll(o.images, "#", ", "), node, len(pods), occurrences[o], targets, upperAvg)
			for _, p := range pods[upperAvg-1:] {
				if err := c.evict(p, reason); err != nil {
					if le, ok := err.(*limitError); ok {
						switch le.kind {
						case limitNode:
							continue nodeLoop
						case limitTotal:
							return err
						}
					}
				}
			}
		}
	}
	return nil
}

// duplicateTargets is getTargetNodes: the nodes at least one distinct
// (tolerations, node affinity, nodeSelector) variant of the duplicates
// could run on, counting only variants that fit more than one node.
func (c *pluginCtx) duplicateTargetsReference(podNodes map[string][]*api.Pod) int {
	var distinct []*api.Pod
	seen := map[string]bool{}
	nodes := make([]string, 0, len(podNodes))
	for n := range podNodes {
		nodes = append(nodes, n)
	}
	sort.Strings(nodes)
	for _, n := range nodes {
		for _, p := range podNodes[n] {
			var na any
			if a := p.Spec.Affinity; a != nil && a.NodeAffinity != nil {
				na = a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
			}
			key := plainVariantKey
			if len(p.Spec.Tolerations) > 0 || na != nil || len(p.Spec.NodeSelector) > 0 {
				key = fmt.Sprintf("%+v|%+v|%s", p.Spec.Tolerations, na, sortedMap(p.Spec.NodeSelector))
			}
			if !seen[key] {
				seen[key] = true
				distinct = append(distinct, p)
			}
		}
	}
	targets := map[string]bool{}
	for _, p := range distinct {
		var matching []string
		for _, n := range c.v.nodes {
			if _, bad := api.FindUntoleratedTaint(n.Spec.Taints, p.Spec.Tolerations, api.DoNotScheduleTaint); bad {
				continue
			}
			if !api.PodMatchesNodeSelectorAndAffinityTerms(p, n) {
				continue
			}
			matching = append(matching, n.Name)
		}
		if len(matching) > 1 {
			for _, n := range matching {
				targets[n] = true
			}
		}
	}
	return len(targets)
}
