package controllers

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"

	"podlab.dev/podlab/engine/api"
)

const statefulSetSource = "statefulset-controller"

// StatefulSet pod labels (k8s.io/api/apps/v1).
const (
	LabelStatefulSetPodName  = "statefulset.kubernetes.io/pod-name"
	LabelPodIndex            = "apps.kubernetes.io/pod-index"
	LabelControllerRevision  = "controller-revision-hash"
	rollingUpdateStrategySTS = "RollingUpdate"
)

// statefulPodRegex is stateful_set_utils.go statefulPodRegex.
var statefulPodRegex = regexp.MustCompile("(.*)-([0-9]+)$")

// parentAndOrdinal is getParentNameAndOrdinal.
func parentAndOrdinal(name string) (string, int) {
	sub := statefulPodRegex.FindStringSubmatch(name)
	if len(sub) < 3 {
		return "", -1
	}
	i, err := strconv.ParseInt(sub[2], 10, 32)
	if err != nil {
		return sub[1], -1
	}
	return sub[1], int(i)
}

// AddStatefulSet adds a StatefulSet with apps/v1 defaulting (replicas 1,
// OrderedReady, RollingUpdate with partition 0, revisionHistoryLimit 10).
func (m *Manager) AddStatefulSet(obj *api.StatefulSet) (*StatefulSet, error) {
	if _, ok := m.statefulSets[key(obj.Namespace, obj.Name)]; ok {
		return nil, fmt.Errorf("statefulset %s already exists", obj.Key())
	}
	s := &StatefulSet{StatefulSet: *obj}
	m.initMeta(&s.ObjectMeta)
	sp := &s.Spec
	defaultStatefulSet(sp)
	if err := validateStatefulSetSpec(sp); err != nil {
		return nil, fmt.Errorf("statefulset %s: %w", s.Key(), err)
	}
	sel, err := compileWorkloadSelector(sp.Selector, sp.Template.Labels)
	if err != nil {
		return nil, fmt.Errorf("statefulset %s: %w", s.Key(), err)
	}
	s.selector = sel
	if m.started {
		s.CreationTimestamp = m.now
	}
	m.statefulSets[s.Key()] = s
	m.known[s.UID] = true
	m.workloadsChanged()
	return s, nil
}

// defaultStatefulSet is SetDefaults_StatefulSet (apps/v1).
func defaultStatefulSet(sp *api.StatefulSetSpec) {
	if sp.Replicas == nil {
		sp.Replicas = ptr(int32(1))
	}
	if sp.PodManagementPolicy == "" {
		sp.PodManagementPolicy = api.OrderedReadyPodManagement
	}
	if sp.UpdateStrategy.Type == "" {
		sp.UpdateStrategy.Type = rollingUpdateStrategySTS
	}
	if sp.UpdateStrategy.Type == rollingUpdateStrategySTS {
		if sp.UpdateStrategy.RollingUpdate == nil {
			sp.UpdateStrategy.RollingUpdate = &api.RollingUpdateStatefulSetStrategy{}
		}
		if sp.UpdateStrategy.RollingUpdate.Partition == nil {
			sp.UpdateStrategy.RollingUpdate.Partition = ptr(int32(0))
		}
	}
	if sp.RevisionHistoryLimit == nil {
		sp.RevisionHistoryLimit = ptr(int32(10))
	}
}

func validateStatefulSetSpec(sp *api.StatefulSetSpec) error {
	if err := validateReplicas(sp.Replicas); err != nil {
		return err
	}
	if sp.OrdinalsStart < 0 {
		return fmt.Errorf("spec.ordinals.start: Invalid value: %d: must be greater than or equal to 0", sp.OrdinalsStart)
	}
	if err := validateStrategy("spec.podManagementPolicy", sp.PodManagementPolicy, api.OrderedReadyPodManagement, api.ParallelPodManagement); err != nil {
		return err
	}
	if err := validateStrategy("spec.updateStrategy.type", sp.UpdateStrategy.Type, rollingUpdateStrategySTS, api.OnDeleteStrategyType); err != nil {
		return err
	}
	if ru := sp.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil && *ru.Partition < 0 {
		return fmt.Errorf("spec.updateStrategy.rollingUpdate.partition: Invalid value: %d: must be greater than or equal to 0", *ru.Partition)
	}
	return nil
}

// StatefulSet returns the StatefulSet namespace/name, or nil.
func (m *Manager) StatefulSet(namespace, name string) *StatefulSet {
	return m.statefulSets[key(namespace, name)]
}

// StatefulSets returns every StatefulSet sorted by namespace/name.
func (m *Manager) StatefulSets() []*StatefulSet {
	out := make([]*StatefulSet, 0, len(m.statefulSets))
	for _, k := range sortedKeys(m.statefulSets) {
		out = append(out, m.statefulSets[k])
	}
	return out
}

// UpdateStatefulSet edits a StatefulSet's spec (a template change makes a
// new update revision).
func (m *Manager) UpdateStatefulSet(namespace, name string, edit func(*api.StatefulSetSpec)) error {
	s := m.StatefulSet(namespace, name)
	if s == nil {
		return fmt.Errorf("statefulset %q not found", key(namespace, name))
	}
	spec := s.Spec
	spec.Template = copyTemplate(&s.Spec.Template)
	edit(&spec)
	defaultStatefulSet(&spec)
	if err := validateStatefulSetSpec(&spec); err != nil {
		return fmt.Errorf("statefulset %s: %w", s.Key(), err)
	}
	sel, err := compileWorkloadSelector(spec.Selector, spec.Template.Labels)
	if err != nil {
		return fmt.Errorf("statefulset %s: %w", s.Key(), err)
	}
	if sel.String() != s.selector.String() {
		// apps/v1 validation: the selector of an existing workload is immutable.
		return fmt.Errorf("statefulset %s: spec.selector: Invalid value: %q: field is immutable", s.Key(), sel.String())
	}
	if specEqual(s.Spec, spec) {
		return nil // the API server keeps the generation when nothing changed
	}
	s.Spec, s.selector = spec, sel
	s.Generation++
	m.changed = true
	return nil
}

// statefulSetRevisions is getStatefulSetRevisions: the update revision is
// the one matching the current template (an equal older revision is reused
// and renumbered); the current revision is status.currentRevision's.
func (m *Manager) statefulSetRevisions(s *StatefulSet) (current, update *ControllerRevision) {
	var next int64 = 1
	if n := len(s.revisions); n > 0 {
		next = s.revisions[n-1].Revision + 1
	}
	idx := -1
	for i := range s.revisions {
		if templatesEqual(&s.revisions[i].Template, &s.Spec.Template) {
			idx = i
		}
	}
	switch {
	case idx == len(s.revisions)-1 && idx >= 0:
	case idx >= 0:
		r := s.revisions[idx]
		r.Revision = next
		s.revisions = append(append(s.revisions[:idx:idx], s.revisions[idx+1:]...), r)
		m.changed = true
	default:
		s.revisions = append(s.revisions, ControllerRevision{Name: s.Name + "-" + ComputeHash(&s.Spec.Template, nil),
			Revision: next, Template: copyTemplate(&s.Spec.Template)})
		m.changed = true
	}
	update = &s.revisions[len(s.revisions)-1]
	current = update
	for i := range s.revisions {
		if s.revisions[i].Name == s.Status.CurrentRevision {
			current = &s.revisions[i]
		}
	}
	return current, update
}

// syncStatefulSet is StatefulSetController.sync with
// defaultStatefulSetControl.updateStatefulSet (MaxUnavailableStatefulSet
// off, its v1.36 default): OrderedReady creates ordinals in order, one at a
// time, each Running and Ready (and available) before the next, and removes
// from the highest ordinal down; Parallel does both at once; RollingUpdate
// replaces pods from the highest ordinal down to the partition, one at a
// time. A pod keeps its name: a deleted one is recreated only once the old
// object is gone.
func (m *Manager) syncStatefulSet(s *StatefulSet) {
	member := func(p *api.Pod) bool { parent, _ := parentAndOrdinal(p.Name); return parent == s.Name }
	pods := m.claimPods(KindStatefulSet, &s.ObjectMeta, s.selector, m.claimCandidates(s.Namespace, s.UID), member)
	current, update := m.statefulSetRevisions(s)
	start := int(s.Spec.OrdinalsStart)
	want := int(*s.Spec.Replicas)
	// n is the ordinals this sync handles: upstream allocates one slot per
	// replica, but no more pods than the object budget can exist, so a set
	// of 1e9 replicas handles budget+1 ordinals (the last one's create is
	// refused with FailedCreate) instead of allocating gigabytes.
	n := want
	if lim := m.objectLimit(); lim > 0 && n > lim+1 {
		n = lim + 1
	}
	minReady := s.Spec.MinReadySeconds
	replicas := make([]*api.Pod, n)
	var condemned []*api.Pod
	for _, p := range pods {
		_, ord := parentAndOrdinal(p.Name)
		if ord >= start && ord < start+n {
			replicas[ord-start] = p
		} else if ord >= start+n && ord < start+want {
			continue // wanted, beyond what the budget lets this sync handle
		} else if ord >= 0 {
			condemned = append(condemned, p)
		}
	}
	planned := make([]bool, n) // not created yet: newVersionedStatefulSetPod
	for i := range replicas {
		if replicas[i] == nil {
			planned[i] = true
		}
	}
	sort.Slice(condemned, func(i, j int) bool {
		_, a := parentAndOrdinal(condemned[i].Name)
		_, b := parentAndOrdinal(condemned[j].Name)
		return a > b
	})
	unavailable := func(p *api.Pod) bool { return !isPodAvailable(p, minReady, m.now) || p.DeletionTimestamp != nil }
	// firstUnavailable matters only when it is a condemned pod: every
	// ordinal in range is available (a planned pod counts as unavailable).
	var firstUnavailable *api.Pod
	inRange := false
	for i := range replicas {
		if planned[i] || unavailable(replicas[i]) {
			inRange = true
			break
		}
	}
	for i := len(condemned) - 1; i >= 0 && !inRange; i-- {
		if unavailable(condemned[i]) {
			firstUnavailable = condemned[i]
			break
		}
	}
	defer m.statefulSetStatus(s, replicas, condemned, current, update)
	if s.DeletionTimestamp != nil {
		return
	}
	monotonic := s.Spec.PodManagementPolicy != api.ParallelPodManagement
	runningAndReady := func(p *api.Pod) bool { return p.Status.Phase == api.PodRunning && isPodReady(p) }

	// processReplica for every ordinal in the range.
	for i := range replicas {
		p := replicas[i]
		if p != nil && p.IsTerminal() {
			if p.DeletionTimestamp == nil {
				m.deletePod(p, KindStatefulSet, &s.ObjectMeta, statefulSetSource)
			}
			if monotonic {
				return
			}
			continue
		}
		if p == nil {
			ord := start + i
			rev := update
			if s.Spec.UpdateStrategy.Type == rollingUpdateStrategySTS && ord < start+int(*s.Spec.UpdateStrategy.RollingUpdate.Partition) {
				rev = current
			}
			created, err := m.createStatefulPod(s, rev, ord)
			if err != nil {
				return
			}
			replicas[i] = created
			if monotonic {
				return
			}
			continue
		}
		if monotonic && (p.DeletionTimestamp != nil || !runningAndReady(p)) {
			return
		}
		if monotonic && !isPodAvailable(p, minReady, m.now) {
			if at, ok := availableAt(p, minReady); ok {
				m.requeueAt(at)
			}
			return
		}
	}
	// processCondemned, highest ordinal first.
	for _, p := range condemned {
		if p.DeletionTimestamp != nil {
			if monotonic {
				return
			}
			continue
		}
		if monotonic && p != firstUnavailable && (!runningAndReady(p) || !isPodAvailable(p, minReady, m.now)) {
			return
		}
		m.deletePod(p, KindStatefulSet, &s.ObjectMeta, statefulSetSource)
		if monotonic {
			return
		}
	}
	if s.Spec.UpdateStrategy.Type == api.OnDeleteStrategyType {
		return
	}
	partition := int(*s.Spec.UpdateStrategy.RollingUpdate.Partition)
	for target := len(replicas) - 1; target >= partition; target-- {
		p := replicas[target]
		if p.Labels[LabelControllerRevision] != update.Name && p.DeletionTimestamp == nil {
			m.deletePod(p, KindStatefulSet, &s.ObjectMeta, statefulSetSource)
			return
		}
		if unavailable(p) {
			return
		}
	}
}

// createStatefulPod is newStatefulSetPod + CreateStatefulPod: the pod named
// "<set>-<ordinal>" with its identity labels and revision label.
func (m *Manager) createStatefulPod(s *StatefulSet, rev *ControllerRevision, ordinal int) (*api.Pod, error) {
	name := fmt.Sprintf("%s-%d", s.Name, ordinal)
	return m.createPodFromTemplate(&rev.Template, KindStatefulSet, &s.ObjectMeta, statefulSetSource, name, func(p *api.Pod) {
		p.Labels[LabelStatefulSetPodName] = name
		p.Labels[LabelPodIndex] = strconv.Itoa(ordinal)
		p.Labels[LabelControllerRevision] = rev.Name
	})
}

// statefulSetStatus is updateStatus + completeRollingUpdate.
func (m *Manager) statefulSetStatus(s *StatefulSet, replicas, condemned []*api.Pod, current, update *ControllerRevision) {
	st := StatefulSetStatus{ObservedGeneration: s.Generation, CurrentRevision: current.Name, UpdateRevision: update.Name}
	for _, list := range [][]*api.Pod{replicas, condemned} {
		for _, p := range list {
			if p == nil {
				continue
			}
			st.Replicas++
			if p.Status.Phase == api.PodRunning && isPodReady(p) {
				st.ReadyReplicas++
				if isPodAvailable(p, s.Spec.MinReadySeconds, m.now) {
					st.AvailableReplicas++
				}
			}
			if p.DeletionTimestamp == nil {
				if p.Labels[LabelControllerRevision] == current.Name {
					st.CurrentReplicas++
				}
				if p.Labels[LabelControllerRevision] == update.Name {
					st.UpdatedReplicas++
				}
			}
		}
	}
	r := *s.Spec.Replicas
	if s.Spec.UpdateStrategy.Type == rollingUpdateStrategySTS && st.UpdatedReplicas == r && st.ReadyReplicas == r && st.Replicas == r {
		st.CurrentReplicas = st.UpdatedReplicas
		st.CurrentRevision = st.UpdateRevision
	}
	if st != s.Status {
		s.Status = st
		m.changed = true
	}
}
