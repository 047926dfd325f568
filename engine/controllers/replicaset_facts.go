package controllers

import (
	"maps"
	"reflect"

	"podlab.dev/podlab/engine/api"
)

// podFacts is what a ReplicaSet's sync reads from one of its pods besides
// the phase and deletion fields: whether its selector selects the pod (the
// claim), whether the template's labels do (fullyLabeledReplicas), and the
// Ready condition (readyReplicas, availableReplicas).
type podFacts struct {
	selected, fullyLabeled, ready bool
	readySince                    api.Time
	// active and terminating are isPodActive and isPodTerminating;
	// sameNamespace: the pod is in the ReplicaSet's namespace (the
	// table's sync, replicaset_table.go).
	active, terminating, sameNamespace bool
}

// podFactsCache keeps podFacts per pod object for one ReplicaSet. A pod
// object is never modified once the engine shares it (a change is a new
// object, engine/state.go copyPod), so the facts of a pod that did not
// change since the last sync are read from here instead of from its
// labels and conditions: a ReplicaSet whose one pod changed re-reads that
// pod, not its hundred. The facts also depend on the selector and the
// template's labels, which the cache records and checks. Used in
// work-queue mode only, so that the full syncs (which read every pod)
// remain the reference TestWorkQueuesAreInvisible compares against.
type podFactsCache struct {
	selector   *api.LabelSelector
	tmplLabels map[string]string
	// tmplSrc is the template's own map tmplLabels was last found equal
	// to: a template's labels are never edited in place (a change is a
	// new template or a cloned map, as for the pods that share them,
	// createPodFromTemplate), so the same map needs no comparison
	tmplSrc map[string]string
	tmpl    api.Selector
	facts   map[*api.Pod]podFacts
	// pods, aligned and spare are the table of replicaset_table.go: the
	// facts of the pods of the last table sync, in their order.
	pods           []*api.Pod
	aligned, spare []podFacts
	// count sums the aligned rows (factsCount), kept as rows change
	count factsCount
	// shared: facts is also a clone's (or the original's), copied before
	// the first write (sharedWith)
	shared bool
}

// podFactsFor returns the ReplicaSet's cache, emptied when the selector or
// the template's labels are not those its facts were read with.
func (rs *ReplicaSet) podFactsFor() *podFactsCache {
	c := &rs.factsCache
	labels := rs.Spec.Template.Labels
	if c.facts != nil && c.selector == rs.Spec.Selector && sameMap(c.tmplSrc, labels) && len(c.tmplLabels) == len(labels) {
		return c
	}
	if c.facts == nil || c.selector != rs.Spec.Selector || !mapsEqual(c.tmplLabels, labels) {
		*c = podFactsCache{selector: rs.Spec.Selector, tmplLabels: cloneMap(labels),
			tmpl: api.SelectorFromSet(labels), facts: map[*api.Pod]podFacts{}}
	}
	c.tmplSrc = labels
	return c
}

// sameMap reports whether a and b are the same map object (both nil
// included).
func sameMap(a, b map[string]string) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// of returns p's facts, reading them from p the first time.
func (c *podFactsCache) of(rs *ReplicaSet, p *api.Pod) podFacts {
	if f, ok := c.facts[p]; ok {
		return f
	}
	f := c.read(rs, p)
	if c.shared {
		c.facts, c.shared = maps.Clone(c.facts), false
	}
	c.facts[p] = f
	return f
}

// read reads p's facts.
func (c *podFactsCache) read(rs *ReplicaSet, p *api.Pod) podFacts {
	f := readPodFacts(p, c.tmpl)
	f.selected = rs.selector.Matches(p.Labels)
	f.active, f.terminating = isPodActive(p), isPodTerminating(p)
	f.sameNamespace = p.Namespace == rs.Namespace
	return f
}

// sharedWith gives clone, a copy of rs (Manager.Clone: the same
// spec, deep-copied) the facts read so far, shared copy-on-write: they
// are about pod objects both managers' clusters share, and the clone's
// selector and template labels are equal to the ones they were read
// with. A clone's first sync thus reads only the pods that changed, not
// every pod again.
func (c *podFactsCache) sharedWith(rs, clone *ReplicaSet) podFactsCache {
	if c.facts == nil || c.selector != rs.Spec.Selector || !mapsEqual(c.tmplLabels, rs.Spec.Template.Labels) {
		return podFactsCache{} // stale: emptied on the next read anyway
	}
	c.shared = true
	out := *c
	out.selector = clone.Spec.Selector
	// the table's slices are edited in place (replicaset_table.go): the
	// clone builds its own on its first table sync, from the shared facts
	out.pods, out.aligned, out.spare, out.count = nil, nil, nil, factsCount{}
	return out
}

// readPodFacts reads p's facts but selected: whether tmpl (the template's
// labels) matches it and when it became Ready.
func readPodFacts(p *api.Pod, tmpl api.Selector) podFacts {
	f := podFacts{fullyLabeled: tmpl.Matches(p.Labels)}
	f.readySince, f.ready = podReadyTime(p)
	return f
}

// prune drops the facts of pod objects no longer among the candidates
// (replaced or deleted) once they outnumber the live ones, which bounds
// the cache at about twice the ReplicaSet's pods.
func (c *podFactsCache) prune(candidates []*api.Pod) {
	if len(c.facts) <= 2*len(candidates)+32 {
		return
	}
	kept := make(map[*api.Pod]podFacts, len(candidates))
	for _, p := range candidates {
		if f, ok := c.facts[p]; ok {
			kept[p] = f
		}
	}
	c.facts = kept
}
