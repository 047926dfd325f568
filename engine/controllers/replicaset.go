package controllers

import (
	"fmt"
	"iter"

	"podlab.dev/podlab/engine/api"
)

// burstReplicas is the ReplicaSet controller's --concurrent... burst limit
// (replicaset.BurstReplicas = 500): at most this many creates or deletes
// per sync; the next pass of the same instant continues.
const burstReplicas = 500

const replicaSetSource = "replicaset-controller"

// AddReplicaSet adds a ReplicaSet (from a manifest or created by a
// Deployment), applying apps/v1 defaulting (replicas 1).
func (m *Manager) AddReplicaSet(obj *api.ReplicaSet) (*ReplicaSet, error) {
	if _, ok := m.replicaSets[key(obj.Namespace, obj.Name)]; ok {
		return nil, fmt.Errorf("replicaset %s already exists", obj.Key())
	}
	rs := &ReplicaSet{ReplicaSet: *obj}
	m.initMeta(&rs.ObjectMeta)
	if rs.Spec.Replicas == nil {
		rs.Spec.Replicas = ptr(int32(1))
	}
	sel, err := compileWorkloadSelector(rs.Spec.Selector, rs.Spec.Template.Labels)
	if err == nil {
		err = validateReplicas(rs.Spec.Replicas)
	}
	if err != nil {
		return nil, fmt.Errorf("replicaset %s: %w", rs.Key(), err)
	}
	rs.selector = sel
	if rs.CreationTimestamp == 0 && m.started {
		rs.CreationTimestamp = m.now
	}
	m.replicaSets[rs.Key()] = rs
	m.known[rs.UID] = true
	m.workloadsChanged()
	return rs, nil
}

// compileWorkloadSelector compiles spec.selector and checks what apps/v1
// validation checks: it is non-empty and selects the template's labels.
func compileWorkloadSelector(ls *api.LabelSelector, templateLabels map[string]string) (api.Selector, error) {
	if ls == nil {
		return api.Nothing(), fmt.Errorf("spec.selector: Required value")
	}
	sel, err := api.CompileSelector(ls)
	if err != nil {
		return api.Nothing(), fmt.Errorf("spec.selector: %w", err)
	}
	if sel.Empty() {
		return api.Nothing(), fmt.Errorf("spec.selector: Invalid value: empty selector is invalid for deployment")
	}
	if !sel.Matches(templateLabels) {
		return api.Nothing(), fmt.Errorf("spec.template.metadata.labels: Invalid value: %v: `selector` does not match template `labels`", templateLabels)
	}
	return sel, nil
}

func key(namespace, name string) string {
	if namespace == "" {
		namespace = "default"
	}
	return namespace + "/" + name
}

// ReplicaSet returns the ReplicaSet namespace/name, or nil.
func (m *Manager) ReplicaSet(namespace, name string) *ReplicaSet {
	return m.replicaSets[key(namespace, name)]
}

// ReplicaSets returns every ReplicaSet sorted by namespace/name.
func (m *Manager) ReplicaSets() []*ReplicaSet {
	out := make([]*ReplicaSet, 0, len(m.replicaSets))
	for _, k := range sortedKeys(m.replicaSets) {
		out = append(out, m.replicaSets[k])
	}
	return out
}

// syncReplicaSet is ReplicaSetController.syncReplicaSet.
func (m *Manager) syncReplicaSet(rs *ReplicaSet) {
	if m.q != nil {
		// work queues: the candidates are known by their versions
		owned, orphans := m.q.versions(rs.Namespace, rs.UID)
		// the key is kept in rs, typed: boxed into the memo's any it
		// was allocated on every sync that changed nothing
		key := queuedRSKey{replicaSetMemoKey(rs), owned, orphans, m.epoch}
		if rs.memo != nil && rs.queuedKey == key && rs.memo.holds(nil, nil, m.now) {
			rs.memo.replay(m)
			return
		}
		w := m.beginMemo()
		if !m.syncReplicaSetTable(rs) {
			m.syncReplicaSetOf(rs, m.claimCandidates(rs.Namespace, rs.UID))
		}
		rs.memo, rs.queuedKey = w.doneIn(&rs.memoSpace, nil, nil), key
		return
	}
	candidates := m.claimCandidates(rs.Namespace, rs.UID)
	if !m.memoSyncs {
		m.syncReplicaSetOf(rs, candidates)
		return
	}
	key := replicaSetMemoKey(rs)
	if rs.memo.holds(key, candidates, m.now) {
		rs.memo.replay(m)
		return
	}
	w := m.beginMemo()
	m.syncReplicaSetOf(rs, candidates)
	rs.memo = w.done(key, candidates)
}

// syncReplicaSetOf is syncReplicaSet over the claim candidates.
func (m *Manager) syncReplicaSetOf(rs *ReplicaSet, candidates []*api.Pod) {
	// active is candidates itself (read only) while every one is active
	active := candidates[:0:0]
	var terminating []*api.Pod
	all := true
	for i, p := range candidates {
		if isPodActive(p) {
			if !all {
				active = append(active, p)
			}
			continue
		}
		if all {
			all = false
			active = append(make([]*api.Pod, 0, len(candidates)), candidates[:i]...)
		}
		if isPodTerminating(p) && isControlledBy(&p.ObjectMeta, rs.UID) && rs.selector.Matches(p.Labels) {
			terminating = append(terminating, p)
		}
	}
	if all {
		active = candidates[:len(candidates):len(candidates)]
	}
	var facts *podFactsCache
	sel, filter := rs.selector, (func(*api.Pod) bool)(nil)
	if m.q != nil {
		// work queues: the selector's verdict per pod object from the
		// cache (claimPods ANDs the filter into Everything's match)
		facts = rs.podFactsFor()
		sel, filter = api.Everything(), func(p *api.Pod) bool { return facts.of(rs, p).selected }
	}
	// manageReplicas and the status only read the claimed pods (and
	// append, which copies a capped slice)
	filtered := m.claimPodsShared(rs.Kind(), &rs.ObjectMeta, sel, active, filter)
	if rs.DeletionTimestamp == nil {
		filtered = m.manageReplicas(rs, filtered)
	}
	m.replicaSetStatus(rs, filtered, terminating, facts)
	if facts != nil {
		facts.prune(candidates)
	}
}

// manageReplicas is ReplicaSetController.manageReplicas; it returns the
// active pods after its changes.
func (m *Manager) manageReplicas(rs *ReplicaSet, pods []*api.Pod) []*api.Pod {
	diff := len(pods) - int(*rs.Spec.Replicas)
	switch {
	case diff < 0:
		n := min(-diff, burstReplicas)
		for range n {
			p, err := m.createPodFromTemplate(&rs.Spec.Template, rs.Kind(), &rs.ObjectMeta, rs.source(), "", nil)
			if err != nil {
				break
			}
			pods = append(pods, p)
		}
	case diff > 0:
		n := min(diff, burstReplicas)
		victims := podsToDelete(pods, m.relatedPods(rs), n, m.now)
		gone := make(map[string]bool, n)
		for _, p := range victims {
			m.deletePod(p, rs.Kind(), &rs.ObjectMeta, rs.source())
			gone[p.UID] = true
		}
		kept := pods[:0:0]
		for _, p := range pods {
			if !gone[p.UID] {
				kept = append(kept, p)
			}
		}
		pods = kept
	}
	return pods
}

// podsToDelete is replica_set.go getPodsToDelete: the first diff pods in
// scale-down order (no ranking when every pod goes).
func podsToDelete(pods, related []*api.Pod, diff int, now api.Time) []*api.Pod {
	if diff >= len(pods) {
		return pods[:diff:diff]
	}
	ranked := RankForScaleDown(pods, related, now)
	out := make([]*api.Pod, diff)
	for i := range out {
		out[i] = ranked[i].Pod
	}
	return out
}

// relatedPods is getIndirectlyRelatedPods: the pods selected by every
// ReplicaSet with the same controller (all ReplicaSets of one Deployment),
// each pod once. A ReplicaSet without a controller has none.
func (m *Manager) relatedPods(rs *ReplicaSet) []*api.Pod {
	ref := rs.ControllerRef()
	if ref == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []*api.Pod
	for _, k := range sortedKeys(m.replicaSets) {
		other := m.replicaSets[k]
		if other.Namespace != rs.Namespace || !isControlledBy(&other.ObjectMeta, ref.UID) {
			continue
		}
		for _, p := range m.podsFor(rs.Namespace, other.Spec.Selector) {
			if !seen[p.UID] && other.selector.Matches(p.Labels) {
				seen[p.UID] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// ScaleDownOrder returns a ReplicaSet's pods in the order it would delete
// them now, each with the facts that decided its place (for the UI's "why
// this pod goes first").
func (m *Manager) ScaleDownOrder(namespace, name string) []RankedPod {
	rs := m.ReplicaSet(namespace, name)
	if rs == nil {
		return nil
	}
	m.podCache = nil
	var pods []*api.Pod
	for _, p := range m.pods(namespace) {
		if isPodActive(p) && isControlledBy(&p.ObjectMeta, rs.UID) && rs.selector.Matches(p.Labels) {
			pods = append(pods, p)
		}
	}
	out := RankForScaleDown(pods, m.relatedPods(rs), m.now)
	m.podCache = nil
	return out
}

// replicaSetStatus is replica_set_utils.go calculateStatus plus the
// availability re-check of syncReplicaSet.
//
// facts, when set (work queues), gives each pod's labels and Ready verdicts
// as read when that pod object was first seen (replicaset_facts.go).
func (m *Manager) replicaSetStatus(rs *ReplicaSet, active, terminating []*api.Pod, facts *podFactsCache) {
	if facts != nil {
		m.replicaSetStatusOf(rs, active, terminating, func(p *api.Pod) podFacts { return facts.of(rs, p) })
		return
	}
	tmpl := api.SelectorFromSet(rs.Spec.Template.Labels)
	m.replicaSetStatusOf(rs, active, terminating, func(p *api.Pod) podFacts { return readPodFacts(p, tmpl) })
}

// replicaSetStatusOf is replicaSetStatus with each active pod's facts
// from factsOf.
func (m *Manager) replicaSetStatusOf(rs *ReplicaSet, active, terminating []*api.Pod, factsOf func(*api.Pod) podFacts) {
	m.setReplicaSetStatus(rs, len(active), len(terminating), func(yield func(podFacts) bool) {
		for _, p := range active {
			if !yield(factsOf(p)) {
				return
			}
		}
	})
}

// setReplicaSetStatus is replicaSetStatus from the numbers of active and
// terminating pods and the active pods' facts.
func (m *Manager) setReplicaSetStatus(rs *ReplicaSet, active, terminating int, facts iter.Seq[podFacts]) {
	st := ReplicaSetStatus{ObservedGeneration: rs.Generation, Replicas: int32(active), TerminatingReplicas: int32(terminating)}
	minReady := rs.Spec.MinReadySeconds
	for f := range facts {
		// isPodReady, isPodAvailable and availableAt over one look-up of
		// the Ready condition
		if f.fullyLabeled {
			st.FullyLabeledReplicas++
		}
		if f.ready {
			st.ReadyReplicas++
			if availableSince(f.readySince, minReady, m.now) {
				st.AvailableReplicas++
			} else {
				m.requeueAt(availableAtSince(f.readySince, minReady))
			}
		}
	}
	m.setReplicaSetStatusCounts(rs, st)
}

// setReplicaSetStatusCounts stores a computed status (a change queues the
// ReplicaSet's controller).
func (m *Manager) setReplicaSetStatusCounts(rs *ReplicaSet, st ReplicaSetStatus) {
	if st != rs.Status {
		rs.Status = st
		m.changed = true
		m.replicaSetStatusChanged(rs)
	}
}
