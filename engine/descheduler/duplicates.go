package descheduler

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strings"

	"podlab.dev/podlab/engine/api"
)

// dupOwner is removeduplicates' podOwner: namespace, owner kind and
// name, and the pod's sorted images.
type dupOwner struct{ namespace, kind, name, images string }

func (o dupOwner) String() string {
	return o.namespace + "/" + o.kind + "/" + o.name + "/" + o.images
}

// removeDuplicates is RemoveDuplicates.Balance (removeduplicates.go):
// pods of one owner with the same images on one node are duplicates;
// where a node holds more than ceil(owner's pods / feasible nodes) of
// them, the excess is evicted so the scheduler can spread them.
//
// Upstream keys each pod by its sorted "namespace/kind/name/image"
// strings, one per owner reference and image. A pod with one owner and
// one container (nearly every pod) has the single key
// namespace/kind/name/image, which is its dupOwner: such pods are
// compared by that struct, without building strings (namespaces, names
// and kinds cannot contain "/", so the struct and the joined string are
// equal together). Other pods take upstream's way.
func removeDuplicates(c *pluginCtx, args *DuplicatesArgs) error {
	filter := c.filter(args.Namespaces, nil)
	podFilter := func(p *api.Pod) bool { return filter(p) && c.ev.preEvictionFilter(p) == "" }
	dups := map[dupOwner]map[string][]*api.Pod{}
	occurrences := map[dupOwner]int{}
	addDup := func(o dupOwner, node string, p *api.Pod) {
		if dups[o] == nil {
			dups[o] = map[string][]*api.Pod{}
		}
		dups[o][node] = append(dups[o][node], p)
	}
	seenOne := map[dupOwner]bool{}
	var seenKeys map[string][][]string
	for _, n := range c.v.nodes {
		clear(seenOne)
		seenKeys = nil
		for _, p := range c.v.on[n.Name] {
			if !podFilter(p) || len(p.OwnerReferences) == 0 || excludedOwnerKind(p.OwnerReferences, args.ExcludeOwnerKinds) {
				continue
			}
			if len(p.OwnerReferences) == 1 && len(p.Spec.Containers) == 1 {
				ref := &p.OwnerReferences[0]
				o := dupOwner{p.Namespace, ref.Kind, ref.Name, p.Spec.Containers[0].Image}
				occurrences[o]++
				if seenOne[o] {
					addDup(o, n.Name, p)
				} else {
					seenOne[o] = true
				}
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
			if seenKeys == nil {
				seenKeys = map[string][][]string{}
			}
			matched := false
			for _, existing := range seenKeys[keys[0]] {
				if strings.Join(existing, "\x00") == strings.Join(keys, "\x00") {
					matched = true
					for _, ref := range p.OwnerReferences {
						addDup(dupOwner{p.Namespace, ref.Kind, ref.Name, hash}, n.Name, p)
					}
					break
				}
			}
			if !matched {
				seenKeys[keys[0]] = append(seenKeys[keys[0]], keys)
			}
		}
	}
	// owners in the order of their String(), each printed once
	type named struct {
		o   dupOwner
		key string
	}
	owners := make([]named, 0, len(dups))
	for o := range dups {
		owners = append(owners, named{o, o.String()})
	}
	sort.Slice(owners, func(i, j int) bool { return owners[i].key < owners[j].key })
	for _, on := range owners {
		o := on.o
		podNodes := dups[o]
		targets := c.duplicateTargets(podNodes)
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

func excludedOwnerKind(refs []api.OwnerReference, kinds []string) bool {
	for _, r := range refs {
		if slices.Contains(kinds, r.Kind) {
			return true
		}
	}
	return false
}

// plainVariantKey is duplicateTargets' key of a pod without tolerations,
// node affinity or nodeSelector (the common case, formatted once).
var plainVariantKey = fmt.Sprintf("%+v|%+v|%s", []api.Toleration(nil), nil, sortedMap(nil))

// duplicateTargets is getTargetNodes: the nodes at least one distinct
// (tolerations, node affinity, nodeSelector) variant of the duplicates
// could run on, counting only variants that fit more than one node. The
// nodes a variant fits depend on nothing else, so they are found once
// per variant and pass (a bit per node of the pass), not once per owner.
func (c *pluginCtx) duplicateTargets(podNodes map[string][]*api.Pod) int {
	var distinct []*nodeBits
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
				distinct = append(distinct, c.v.variantNodes(key, p))
			}
		}
	}
	switch len(distinct) {
	case 0:
		return 0
	case 1:
		if distinct[0].count > 1 {
			return distinct[0].count
		}
		return 0
	}
	var union nodeBits
	for _, b := range distinct {
		if b.count > 1 {
			union.or(b)
		}
	}
	return union.ones()
}

// nodeBits is a set of the pass's nodes (bit i: v.nodes[i]).
type nodeBits struct {
	words []uint64
	count int
}

func (b *nodeBits) or(o *nodeBits) {
	if len(b.words) < len(o.words) {
		b.words = append(b.words, make([]uint64, len(o.words)-len(b.words))...)
	}
	for i, w := range o.words {
		b.words[i] |= w
	}
}

func (b *nodeBits) ones() int {
	n := 0
	for _, w := range b.words {
		n += bits.OnesCount64(w)
	}
	return n
}

// variantNodes is the set of nodes whose taints p tolerates
// (NoSchedule, NoExecute) and that match its nodeSelector and required
// node affinity, cached by the variant's key for the pass.
func (v *view) variantNodes(key string, p *api.Pod) *nodeBits {
	if b, ok := v.variants[key]; ok {
		return b
	}
	b := &nodeBits{words: make([]uint64, (len(v.nodes)+63)/64)}
	for i, n := range v.nodes {
		if _, bad := api.FindUntoleratedTaint(n.Spec.Taints, p.Spec.Tolerations, api.DoNotScheduleTaint); bad {
			continue
		}
		if !api.PodMatchesNodeSelectorAndAffinityTerms(p, n) {
			continue
		}
		b.words[i/64] |= 1 << (i % 64)
		b.count++
	}
	if v.variants == nil {
		v.variants = map[string]*nodeBits{}
	}
	v.variants[key] = b
	return b
}
