package controllers

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"podlab.dev/podlab/engine/api"
)

const deploymentSource = "deployment-controller"

// Deployment condition types and reasons (deployment/util).
const (
	DeploymentAvailable      = "Available"
	DeploymentProgressing    = "Progressing"
	reasonRSUpdated          = "ReplicaSetUpdated"
	reasonNewRSCreated       = "NewReplicaSetCreated"
	reasonFoundNewRS         = "FoundNewReplicaSet"
	reasonNewRSAvailable     = "NewReplicaSetAvailable"
	reasonTimedOut           = "ProgressDeadlineExceeded"
	reasonPaused             = "DeploymentPaused"
	reasonResumed            = "DeploymentResumed"
	reasonMinimumAvailable   = "MinimumReplicasAvailable"
	reasonMinimumUnavailable = "MinimumReplicasUnavailable"
)

// AddDeployment adds a Deployment with apps/v1 defaulting (replicas 1,
// RollingUpdate 25%/25%, revisionHistoryLimit 10, progressDeadlineSeconds
// 600) after validating its selector.
func (m *Manager) AddDeployment(obj *api.Deployment) (*Deployment, error) {
	if _, ok := m.deployments[key(obj.Namespace, obj.Name)]; ok {
		return nil, fmt.Errorf("deployment %s already exists", obj.Key())
	}
	d := &Deployment{Deployment: *obj}
	m.initMeta(&d.ObjectMeta)
	defaultDeployment(&d.Spec)
	sel, err := compileWorkloadSelector(d.Spec.Selector, d.Spec.Template.Labels)
	if err != nil {
		return nil, fmt.Errorf("deployment %s: %w", d.Key(), err)
	}
	if isRollingUpdate(d) {
		if _, _, err := ResolveFenceposts(d.Spec.Strategy.RollingUpdate.MaxSurge, d.Spec.Strategy.RollingUpdate.MaxUnavailable, *d.Spec.Replicas); err != nil {
			return nil, fmt.Errorf("deployment %s: spec.strategy.rollingUpdate: %w", d.Key(), err)
		}
	}
	if err := validateDeploymentSpec(&d.Spec); err != nil {
		return nil, fmt.Errorf("deployment %s: %w", d.Key(), err)
	}
	d.selector = sel
	if m.started {
		d.CreationTimestamp = m.now
	}
	m.deployments[d.Key()] = d
	m.known[d.UID] = true
	m.workloadsChanged()
	return d, nil
}

// defaultDeployment is SetDefaults_Deployment of pkg/apis/apps/v1.
func defaultDeployment(s *api.DeploymentSpec) {
	if s.Replicas == nil {
		s.Replicas = ptr(int32(1))
	}
	if s.Strategy.Type == "" {
		s.Strategy.Type = api.RollingUpdateDeploymentStrategyType
	}
	if s.Strategy.Type == api.RollingUpdateDeploymentStrategyType {
		if s.Strategy.RollingUpdate == nil {
			s.Strategy.RollingUpdate = &api.RollingUpdateDeployment{}
		}
		if s.Strategy.RollingUpdate.MaxUnavailable == nil {
			s.Strategy.RollingUpdate.MaxUnavailable = &api.IntOrString{IsString: true, StrVal: "25%"}
		}
		if s.Strategy.RollingUpdate.MaxSurge == nil {
			s.Strategy.RollingUpdate.MaxSurge = &api.IntOrString{IsString: true, StrVal: "25%"}
		}
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = ptr(int32(10))
	}
	if s.ProgressDeadlineSeconds == nil {
		s.ProgressDeadlineSeconds = ptr(int32(600))
	}
}

func validateDeploymentSpec(s *api.DeploymentSpec) error {
	if err := validateReplicas(s.Replicas); err != nil {
		return err
	}
	if err := validateStrategy("spec.strategy.type", s.Strategy.Type, api.RecreateDeploymentStrategyType, api.RollingUpdateDeploymentStrategyType); err != nil {
		return err
	}
	if s.Strategy.Type == api.RecreateDeploymentStrategyType && s.Strategy.RollingUpdate != nil {
		return fmt.Errorf("spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'")
	}
	if s.Strategy.Type == api.RollingUpdateDeploymentStrategyType {
		ru := s.Strategy.RollingUpdate
		surge, err := scaledValue(ru.MaxSurge, 100, true)
		if err != nil {
			return fmt.Errorf("spec.strategy.rollingUpdate.maxSurge: %w", err)
		}
		unavailable, err := scaledValue(ru.MaxUnavailable, 100, true)
		if err != nil {
			return fmt.Errorf("spec.strategy.rollingUpdate.maxUnavailable: %w", err)
		}
		if surge < 0 || unavailable < 0 {
			return fmt.Errorf("spec.strategy.rollingUpdate: Invalid value: must be greater than or equal to 0")
		}
		if surge == 0 && unavailable == 0 {
			return fmt.Errorf("spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0")
		}
		if ru.MaxUnavailable.IsString && unavailable > 100 {
			return fmt.Errorf("spec.strategy.rollingUpdate.maxUnavailable: Invalid value: %q: must not be greater than 100%%", ru.MaxUnavailable.StrVal)
		}
	}
	return nil
}

// Deployment returns the Deployment namespace/name, or nil.
func (m *Manager) Deployment(namespace, name string) *Deployment {
	return m.deployments[key(namespace, name)]
}

// Deployments returns every Deployment sorted by namespace/name.
func (m *Manager) Deployments() []*Deployment {
	out := make([]*Deployment, 0, len(m.deployments))
	for _, k := range sortedKeys(m.deployments) {
		out = append(out, m.deployments[k])
	}
	return out
}

func (m *Manager) deploymentEvent(d *Deployment, typ, reason, format string, args ...any) {
	m.record(KindDeployment, &d.ObjectMeta, deploymentSource, typ, reason, format, args...)
}

// syncDeployment is DeploymentController.syncDeployment.
func (m *Manager) syncDeployment(d *Deployment) {
	if d.selector.Empty() {
		m.deploymentEvent(d, EventWarning, "SelectingAll", "This deployment is selecting all pods. A non-empty selector is required.")
		return
	}
	rsList := m.claimReplicaSets(d)
	if d.DeletionTimestamp != nil {
		newRS, old := m.replicaSetsAndSyncRevision(d, rsList, false)
		m.syncDeploymentStatus(d, append(old, newRS), newRS)
		return
	}
	m.checkPausedConditions(d)
	if d.Spec.Paused {
		m.syncScale(d, rsList)
		return
	}
	if m.isScalingEvent(d, rsList) {
		m.syncScale(d, rsList)
		return
	}
	if isRollingUpdate(d) {
		m.rolloutRolling(d, rsList)
	} else {
		m.rolloutRecreate(d, rsList)
	}
}

// claimReplicaSets is ReplicaSetControllerRefManager.ClaimReplicaSets:
// owned ReplicaSets that still match are kept, non-matching ones released,
// matching orphans adopted. Returned sorted by name.
func (m *Manager) claimReplicaSets(d *Deployment) []*ReplicaSet {
	// Each ReplicaSet is handled on its own, so the map is walked in any
	// order and only the claimed ones are sorted: sorting every key for
	// every Deployment was quadratic on an imported cluster (3,000
	// Deployments took seconds).
	var keys []string
	var vals []*ReplicaSet
	if m.q != nil {
		// the sorted keys and their objects are cached per epoch
		// (keysOf, valuesOf; a new epoch makes new slices, so these stay
		// as they are); only the Deployment's own and the orphans are
		// visited (the others are left alone below), in key order
		// (rsClaimCandidates); other namespaces' are skipped below
		keys, vals = m.q.rsClaimCandidates(m, d.UID)
	} else {
		for k, rs := range m.replicaSets {
			if rs.Namespace == d.Namespace {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
	}
	var out []*ReplicaSet
	for i, k := range keys {
		var rs *ReplicaSet
		if vals != nil {
			rs = vals[i]
		} else {
			rs = m.replicaSets[k]
		}
		if rs.Namespace != d.Namespace {
			continue
		}
		ref := rs.ControllerRef()
		if ref != nil && ref.UID != d.UID {
			// another controller's: left alone, its labels unread
			continue
		}
		matches := d.selector.Matches(rs.Labels)
		switch {
		case ref != nil && matches:
			out = append(out, rs)
		case ref != nil:
			if d.DeletionTimestamp == nil {
				rs.OwnerReferences = removeOwner(rs.OwnerReferences, d.UID)
				m.workloadsChanged()
			}
		case matches && d.DeletionTimestamp == nil && rs.DeletionTimestamp == nil:
			rs.OwnerReferences = append(rs.OwnerReferences, controllerRef(KindDeployment, &d.ObjectMeta))
			m.workloadsChanged()
			out = append(out, rs)
		}
	}
	return out
}

func removeOwner(refs []api.OwnerReference, uid string) []api.OwnerReference {
	var out []api.OwnerReference
	for _, r := range refs {
		if r.UID != uid {
			out = append(out, r)
		}
	}
	return out
}

// findNewReplicaSet is deploymentutil.FindNewReplicaSet: the oldest
// ReplicaSet whose template equals the Deployment's (ignoring the hash).
//
// Upstream sorts the list by creation (stable: sortByCreation) and takes
// the first match; the oldest match, ties to the earlier in rsList, is
// the same one, found without a sorted copy (a Deployment syncs on every
// status change of its ReplicaSets).
func findNewReplicaSet(d *Deployment, rsList []*ReplicaSet, cached bool) *ReplicaSet {
	var found *ReplicaSet
	for _, rs := range rsList {
		if found != nil && !createdBefore(rs, found) {
			continue
		}
		if cached && rs.sameTemplateAs(d) || !cached && templatesEqual(&rs.Spec.Template, &d.Spec.Template) {
			found = rs
		}
	}
	return found
}

// createdBefore is sortByCreation's order: creation time, then name.
func createdBefore(a, b *ReplicaSet) bool {
	if a.CreationTimestamp == b.CreationTimestamp {
		return a.Name < b.Name
	}
	return a.CreationTimestamp < b.CreationTimestamp
}

// templateMatch caches templatesEqual between a ReplicaSet's template and
// a Deployment's (work-queue mode): a ReplicaSet's template never changes,
// a Deployment's only with a new generation (UpdateDeployment installs a
// copy), so the answer holds for the same Deployment object and
// generation.
type templateMatch struct {
	d     *Deployment
	gen   int64
	equal bool
}

// sameTemplateAs is templatesEqual(rs template, d template), cached.
func (rs *ReplicaSet) sameTemplateAs(d *Deployment) bool {
	if c := rs.tmplMatch; c.d == d && c.gen == d.Generation {
		return c.equal
	}
	eq := templatesEqual(&rs.Spec.Template, &d.Spec.Template)
	rs.tmplMatch = templateMatch{d, d.Generation, eq}
	return eq
}

// replicaSetsAndSyncRevision is getAllReplicaSetsAndSyncRevision with
// getNewReplicaSet: it returns the new ReplicaSet (creating it when asked)
// and all old ones, keeping revision annotations in step.
func (m *Manager) replicaSetsAndSyncRevision(d *Deployment, rsList []*ReplicaSet, create bool) (*ReplicaSet, []*ReplicaSet) {
	existing := findNewReplicaSet(d, rsList, m.q != nil)
	var old []*ReplicaSet
	for _, rs := range rsList {
		if rs != existing {
			old = append(old, rs)
		}
	}
	newRevision := strconv.FormatInt(maxRevision(old)+1, 10)
	if existing != nil {
		if setNewReplicaSetAnnotations(d, existing, newRevision, true) || existing.Spec.MinReadySeconds != d.Spec.MinReadySeconds {
			existing.Spec.MinReadySeconds = d.Spec.MinReadySeconds
			m.changed = true
		}
		m.setDeploymentRevision(d, existing.Annotations[RevisionAnnotation])
		if hasProgressDeadline(d) && d.condition(DeploymentProgressing) == nil {
			m.setCondition(&d.Status, DeploymentProgressing, api.ConditionTrue, reasonFoundNewRS, fmt.Sprintf("Found new replica set %q", existing.Name))
		}
		return existing, old
	}
	if !create {
		return nil, old
	}
	tmpl := copyTemplate(&d.Spec.Template)
	hash := ComputeHash(&d.Spec.Template, d.Status.CollisionCount)
	tmpl.Labels = cloneMap(tmpl.Labels)
	tmpl.Labels[api.LabelPodTemplateHash] = hash
	sel := *d.Spec.Selector
	sel.MatchLabels = cloneMap(sel.MatchLabels)
	sel.MatchLabels[api.LabelPodTemplateHash] = hash
	name := replicaSetName(d.Name, hash)
	if clash := m.ReplicaSet(d.Namespace, name); clash != nil {
		if ref := clash.ControllerRef(); ref != nil && ref.UID == d.UID && templatesEqual(&d.Spec.Template, &clash.Spec.Template) {
			return clash, old
		}
		// A hash collision: bump collisionCount and retry on the next pass.
		if d.Status.CollisionCount == nil {
			d.Status.CollisionCount = ptr(int32(0))
		}
		*d.Status.CollisionCount++
		m.changed = true
		return nil, old
	}
	rs := &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: d.Namespace, Labels: cloneMap(tmpl.Labels),
			OwnerReferences: []api.OwnerReference{controllerRef(KindDeployment, &d.ObjectMeta)}},
		Spec: api.ReplicaSetSpec{Replicas: ptr(int32(0)), MinReadySeconds: d.Spec.MinReadySeconds, Selector: &sel, Template: tmpl},
	}
	probe := &ReplicaSet{ReplicaSet: *rs}
	replicas := newRSNewReplicas(d, append(append([]*ReplicaSet(nil), old...), probe), probe)
	*rs.Spec.Replicas = replicas
	setNewReplicaSetAnnotations(d, probe, newRevision, false)
	rs.Annotations = probe.Annotations
	created, err := m.AddReplicaSet(rs)
	if err != nil {
		m.deploymentEvent(d, EventWarning, "ReplicaSetCreateError", "Failed to create new replica set %q: %v", name, err)
		return nil, old
	}
	created.CreationTimestamp = m.now
	if replicas > 0 {
		m.deploymentEvent(d, EventNormal, "ScalingReplicaSet", "Scaled up replica set %s from 0 to %d", name, replicas)
	}
	m.setDeploymentRevision(d, newRevision)
	if hasProgressDeadline(d) {
		m.setCondition(&d.Status, DeploymentProgressing, api.ConditionTrue, reasonNewRSCreated, fmt.Sprintf("Created new replica set %q", name))
	}
	return created, old
}

// setNewReplicaSetAnnotations is deploymentutil.SetNewReplicaSetAnnotations
// (with the 2000-character revision-history limit).
func setNewReplicaSetAnnotations(d *Deployment, rs *ReplicaSet, newRevision string, exists bool) bool {
	changed := copyDeploymentAnnotations(d, rs)
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	oldRevision, had := rs.Annotations[RevisionAnnotation]
	oldInt, err := strconv.ParseInt(oldRevision, 10, 64)
	if err != nil {
		if oldRevision != "" {
			return false
		}
		oldInt = 0
	}
	newInt, _ := strconv.ParseInt(newRevision, 10, 64)
	if oldInt < newInt {
		rs.Annotations[RevisionAnnotation] = newRevision
		changed = true
		if had {
			h := rs.Annotations[RevisionHistoryAnnotation]
			if h == "" {
				rs.Annotations[RevisionHistoryAnnotation] = oldRevision
			} else {
				parts := strings.Split(h, ",")
				total := len(h) + len(oldRevision) + 1
				start := 0
				for total > 2000 && start < len(parts) {
					total -= len(parts[start]) + 1
					start++
				}
				if total <= 2000 {
					rs.Annotations[RevisionHistoryAnnotation] = strings.Join(append(parts[start:], oldRevision), ",")
				}
			}
		}
	}
	if !exists && setReplicasAnnotations(rs, *d.Spec.Replicas, *d.Spec.Replicas+maxSurge(d)) {
		changed = true
	}
	return changed
}

// skipCopyAnnotation is deploymentutil.skipCopyAnnotation.
func skipCopyAnnotation(k string) bool {
	switch k {
	case lastAppliedAnnotation, RevisionAnnotation, RevisionHistoryAnnotation, DesiredReplicasAnnotation, MaxReplicasAnnotation, "deprecated.deployment.rollback.to":
		return true
	}
	return false
}

// copyDeploymentAnnotations is copyDeploymentAnnotationsToReplicaSet.
func copyDeploymentAnnotations(d *Deployment, rs *ReplicaSet) bool {
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	changed := false
	for k, v := range d.Annotations {
		if cur, ok := rs.Annotations[k]; skipCopyAnnotation(k) || (ok && cur == v) {
			continue
		}
		rs.Annotations[k] = v
		changed = true
	}
	return changed
}

func (m *Manager) setDeploymentRevision(d *Deployment, rev string) {
	if d.Annotations == nil {
		d.Annotations = map[string]string{}
	}
	if d.Annotations[RevisionAnnotation] != rev {
		d.Annotations[RevisionAnnotation] = rev
		m.changed = true
	}
}

func hasProgressDeadline(d *Deployment) bool {
	return d.Spec.ProgressDeadlineSeconds != nil && *d.Spec.ProgressDeadlineSeconds != math.MaxInt32
}

func (d *Deployment) condition(t string) *Condition {
	return findCondition(d.Status.Conditions, t)
}

func findCondition(cs []Condition, t string) *Condition {
	for i := range cs {
		if cs[i].Type == t {
			return &cs[i]
		}
	}
	return nil
}

// setCondition is deploymentutil.SetDeploymentCondition with
// NewDeploymentCondition's timestamps.
func (m *Manager) setCondition(st *DeploymentStatus, typ, status, reason, msg string) {
	st.Conditions = setConditionIn(st.Conditions, Condition{Type: typ, Status: status, Reason: reason, Message: msg, LastUpdateTime: m.now, LastTransitionTime: m.now})
}

// setConditionIn never edits cs: a changed list is a new slice
// (calculateDeploymentStatus shares the Deployment's list).
func setConditionIn(cs []Condition, c Condition) []Condition {
	cur := findCondition(cs, c.Type)
	if cur != nil && cur.Status == c.Status && cur.Reason == c.Reason {
		return cs
	}
	if cur != nil && cur.Status == c.Status {
		c.LastTransitionTime = cur.LastTransitionTime
	}
	out := removeConditionFrom(cs, c.Type)
	return append(out, c)
}

// removeConditionFrom never edits cs either.
func removeConditionFrom(cs []Condition, t string) []Condition {
	var out []Condition
	for _, x := range cs {
		if x.Type != t {
			out = append(out, x)
		}
	}
	return out
}

// checkPausedConditions is DeploymentController.checkPausedConditions.
func (m *Manager) checkPausedConditions(d *Deployment) {
	if !hasProgressDeadline(d) {
		return
	}
	cond := d.condition(DeploymentProgressing)
	if cond != nil && cond.Reason == reasonTimedOut {
		return
	}
	pausedExists := cond != nil && cond.Reason == reasonPaused
	if d.Spec.Paused && !pausedExists {
		m.setCondition(&d.Status, DeploymentProgressing, api.ConditionUnknown, reasonPaused, "Deployment is paused")
		m.changed = true
	} else if !d.Spec.Paused && pausedExists {
		m.setCondition(&d.Status, DeploymentProgressing, api.ConditionUnknown, reasonResumed, "Deployment is resumed")
		m.changed = true
	}
}

// isScalingEvent is DeploymentController.isScalingEvent: an active
// ReplicaSet's desired-replicas annotation differs from spec.replicas.
func (m *Manager) isScalingEvent(d *Deployment, rsList []*ReplicaSet) bool {
	newRS, old := m.replicaSetsAndSyncRevision(d, rsList, false)
	// filterActive(append(old, newRS)), without building it
	scaled := func(rs *ReplicaSet) bool {
		if rs == nil || *rs.Spec.Replicas <= 0 {
			return false
		}
		desired, ok := annotationInt32(rs, DesiredReplicasAnnotation)
		return ok && desired != *d.Spec.Replicas
	}
	return slices.ContainsFunc(old, scaled) || scaled(newRS)
}

// scaleReplicaSet is DeploymentController.scaleReplicaSet.
func (m *Manager) scaleReplicaSet(rs *ReplicaSet, newScale int32, d *Deployment, force bool) bool {
	if !force && *rs.Spec.Replicas == newScale {
		return false
	}
	sizeChange := *rs.Spec.Replicas != newScale
	maxR := *d.Spec.Replicas + maxSurge(d)
	annChange := rs.Annotations[DesiredReplicasAnnotation] != strconv.Itoa(int(*d.Spec.Replicas)) || rs.Annotations[MaxReplicasAnnotation] != strconv.Itoa(int(maxR))
	if !sizeChange && !annChange {
		return false
	}
	old := *rs.Spec.Replicas
	rs.Spec.Replicas = ptr(newScale)
	setReplicasAnnotations(rs, *d.Spec.Replicas, maxR)
	m.changed = true
	if !sizeChange {
		return false
	}
	op := "up"
	if newScale < old {
		op = "down"
	}
	m.deploymentEvent(d, EventNormal, "ScalingReplicaSet", "Scaled %s replica set %s from %d to %d", op, rs.Name, old, newScale)
	return true
}
