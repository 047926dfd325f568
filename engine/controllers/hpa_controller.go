package controllers

import (
	"fmt"
	"maps"
	"strings"

	"podlab.dev/podlab/engine/api"
)

// KindHorizontalPodAutoscaler is the HPA's kind in events.
const KindHorizontalPodAutoscaler = "HorizontalPodAutoscaler"

// hpaSource is the HPA controller's event source.
const hpaSource = "horizontal-pod-autoscaler"

// HPA condition types (autoscaling/v2).
const (
	HPAAbleToScale    = "AbleToScale"
	HPAScalingActive  = "ScalingActive"
	HPAScalingLimited = "ScalingLimited"
)

// HorizontalPodAutoscaler is an HPA with its status and the controller's
// per-HPA memory (recommendations, scale events).
type HorizontalPodAutoscaler struct {
	api.HorizontalPodAutoscaler
	Status HPAStatus
	// NextSync is when the controller looks at the HPA next (every
	// HPASyncPeriod from its creation, like the controller's work queue).
	NextSync api.Time
	history  hpaHistory
	// warned holds the warning events raised since the HPA last worked: a
	// repeat is not recorded again (the event recorder would aggregate it
	// into a count on the first one).
	warned map[string]bool
	// podTable keeps what the syncs read from the selected pods
	// (hpa_pods.go); a clone starts without it.
	podTable hpaPodTable
}

// HPAStatus is autoscaling/v2 HorizontalPodAutoscalerStatus.
type HPAStatus struct {
	LastScaleTime   *api.Time
	CurrentReplicas int32
	DesiredReplicas int32
	// CurrentMetrics has one entry per spec metric; an entry whose Type is
	// empty could not be computed (kubectl prints <unknown>).
	CurrentMetrics []MetricStatus
	Conditions     []Condition
}

// MetricStatus is autoscaling/v2 MetricStatus for a Resource metric.
type MetricStatus struct {
	Type               string
	Resource           string
	AverageUtilization *int32
	AverageValue       *api.Quantity
}

// AddHPA creates an HPA (defaulted as the API server does). The first sync
// is one period after creation.
func (m *Manager) AddHPA(obj *api.HorizontalPodAutoscaler) (*HorizontalPodAutoscaler, error) {
	if obj == nil || obj.Name == "" {
		return nil, fmt.Errorf("add hpa: the autoscaler needs a name")
	}
	h := &HorizontalPodAutoscaler{HorizontalPodAutoscaler: deepCopy(*obj)}
	m.initMeta(&h.ObjectMeta)
	SetHPADefaults(&h.HorizontalPodAutoscaler)
	if err := validateHPA(&h.HorizontalPodAutoscaler); err != nil {
		return nil, fmt.Errorf("add hpa %s: %w", h.Name, err)
	}
	if h.CreationTimestamp == 0 {
		h.CreationTimestamp = m.now
	}
	h.NextSync = m.now.Add(HPASyncPeriod)
	m.requeueAt(h.NextSync)
	m.hpas[key(h.Namespace, h.Name)] = h
	m.workloadsChanged()
	return h, nil
}

// validateHPA checks what the API server's validation would refuse and the
// controller relies on.
func validateHPA(h *api.HorizontalPodAutoscaler) error {
	s := &h.Spec
	if s.ScaleTargetRef.Kind == "" || s.ScaleTargetRef.Name == "" {
		return fmt.Errorf("spec.scaleTargetRef needs kind and name")
	}
	if s.MaxReplicas < 1 {
		return fmt.Errorf("spec.maxReplicas must be greater than or equal to 1")
	}
	if *s.MinReplicas < 1 {
		return fmt.Errorf("spec.minReplicas must be greater than or equal to 1 (HPAScaleToZero is off)")
	}
	if *s.MinReplicas > s.MaxReplicas {
		return fmt.Errorf("spec.maxReplicas must be greater than or equal to `minReplicas`")
	}
	for i, ms := range s.Metrics {
		if ms.Type != api.ResourceMetricSourceType || ms.Resource == nil {
			return fmt.Errorf("spec.metrics[%d]: the lab models Resource metrics only", i)
		}
		t := ms.Resource.Target
		switch {
		case t.Type == api.UtilizationMetricType && t.AverageUtilization != nil && *t.AverageUtilization > 0:
		case t.Type == api.AverageValueMetricType && t.AverageValue != nil && *t.AverageValue > 0:
		default:
			return fmt.Errorf("spec.metrics[%d].resource.target: give averageUtilization (> 0) with type Utilization or averageValue (> 0) with type AverageValue", i)
		}
	}
	return nil
}

// HPA returns an autoscaler by namespace and name.
func (m *Manager) HPA(namespace, name string) *HorizontalPodAutoscaler {
	return m.hpas[key(namespace, name)]
}

// HPAs returns every autoscaler sorted by namespace/name.
func (m *Manager) HPAs() []*HorizontalPodAutoscaler {
	out := make([]*HorizontalPodAutoscaler, 0, len(m.hpas))
	for _, k := range sortedKeys(m.hpas) {
		out = append(out, m.hpas[k])
	}
	return out
}

// DeleteHPA removes an autoscaler (its history goes with it, as
// reconcileKey forgets a deleted HPA).
func (m *Manager) DeleteHPA(namespace, name string) error {
	k := key(namespace, name)
	if m.hpas[k] == nil {
		return fmt.Errorf("horizontalpodautoscalers.autoscaling %q not found", name)
	}
	delete(m.hpas, k)
	m.invalidate()
	return nil
}

// scaleInfo is the target's scale subresource.
type scaleInfo struct {
	Spec, Status int32
	Selector     api.Selector
	Template     *api.PodTemplateSpec
	// LabelSelector is the source of Selector (its matchLabels narrow
	// the pod lookup in the work-queue mode).
	LabelSelector *api.LabelSelector
}

// scaleTarget reads the scale subresource of a Deployment, ReplicaSet or
// StatefulSet; errors are the API server's.
func (m *Manager) scaleTarget(kind, namespace, name string) (scaleInfo, error) {
	k := key(namespace, name)
	switch kind {
	case KindDeployment:
		if d := m.deployments[k]; d != nil {
			return scaleInfo{*d.Spec.Replicas, d.Status.Replicas, d.selector, &d.Spec.Template, d.Spec.Selector}, nil
		}
		return scaleInfo{}, fmt.Errorf("deployments.apps %q not found", name)
	case KindReplicaSet:
		if rs := m.replicaSets[k]; rs != nil {
			return scaleInfo{*rs.Spec.Replicas, rs.Status.Replicas, rs.selector, &rs.Spec.Template, rs.Spec.Selector}, nil
		}
		return scaleInfo{}, fmt.Errorf("replicasets.apps %q not found", name)
	case KindStatefulSet:
		if s := m.statefulSets[k]; s != nil {
			return scaleInfo{*s.Spec.Replicas, s.Status.Replicas, s.selector, &s.Spec.Template, s.Spec.Selector}, nil
		}
		return scaleInfo{}, fmt.Errorf("statefulsets.apps %q not found", name)
	case KindDaemonSet, KindJob, KindCronJob:
		return scaleInfo{}, fmt.Errorf("the server could not find the requested resource")
	}
	return scaleInfo{}, fmt.Errorf("no matches for kind %q in group %q", kind, "")
}

// podsFor returns the namespace's pods, in key order, that a selector
// compiled from ls may match: in the work-queue mode only those carrying
// one of its matchLabels pairs (every selected pod carries each of them),
// else all.
func (m *Manager) podsFor(namespace string, ls *api.LabelSelector) []*api.Pod {
	if m.q == nil || ls == nil || len(ls.MatchLabels) == 0 {
		return m.pods(namespace)
	}
	// the smallest key, without collecting the keys (every HPA sync asks)
	k, first := "", true
	for l := range ls.MatchLabels {
		if first || l < k {
			k, first = l, false
		}
	}
	return m.q.withLabel(namespace, k, ls.MatchLabels[k])
}

// selectPods lists the namespace's pods the selector matches (the HPA's pod
// lister).
func (m *Manager) selectPods(namespace string, sel api.Selector, ls *api.LabelSelector) []*api.Pod {
	from := m.podsFor(namespace, ls)
	// a selector that is one matchLabels pair selects exactly the pods
	// the label index returned for it
	exact := m.q != nil && ls != nil && len(ls.MatchLabels) == 1 && len(ls.MatchExpressions) == 0
	if exact {
		// the index's list itself (read only: the index does not edit
		// it while a sync may hold it; capped so an append copies); nil
		// when empty, as below
		if len(from) == 0 {
			return nil
		}
		return from[:len(from):len(from)]
	}
	var out []*api.Pod
	for _, p := range from {
		if sel.Matches(p.Labels) {
			out = append(out, p)
		}
	}
	return out
}

// syncHPAs runs every autoscaler whose sync is due.
//
// The controller manager runs several passes a virtual second and an HPA
// is due every 15 s: in work-queue mode the earliest NextSync is kept
// (valid for the epoch: adding or deleting an HPA moves it) and, until
// it comes, the pass only repeats its wake request (the earliest of
// every HPA's, which is what requeueAt keeps of them).
func (m *Manager) syncHPAs() {
	if m.q != nil && m.hpaDue.ok && m.hpaDue.epoch == m.epoch && m.now < m.hpaDue.at {
		m.requeueAt(m.hpaDue.at)
		return
	}
	due := dueCache{}
	for _, k := range keysOf(m, m.hpas) {
		h := m.hpas[k]
		if h.NextSync <= m.now {
			m.reconcileAutoscaler(h)
			h.NextSync = m.now.Add(HPASyncPeriod)
		}
		m.requeueAt(h.NextSync)
		due.add(h.NextSync)
	}
	due.epoch = m.epoch
	m.hpaDue = due
}

// dueCache is the earliest of some instants, valid for an epoch.
type dueCache struct {
	at    api.Time
	ok    bool
	epoch uint64
}

func (d *dueCache) add(t api.Time) {
	if !d.ok || t < d.at {
		d.at, d.ok = t, true
	}
}

func (m *Manager) hpaEvent(h *HorizontalPodAutoscaler, typ, reason, msg string) {
	if typ == EventWarning {
		if h.warned[reason+msg] {
			return
		}
		if h.warned == nil {
			h.warned = map[string]bool{}
		}
		h.warned[reason+msg] = true
	} else {
		h.warned = nil
	}
	m.record(KindHorizontalPodAutoscaler, &h.ObjectMeta, hpaSource, typ, reason, "%s", msg)
}

// setHPACondition is setConditionInList: the transition time changes only
// when the status does.
func (m *Manager) setHPACondition(h *HorizontalPodAutoscaler, typ, status, reason, msg string) {
	for i := range h.Status.Conditions {
		c := &h.Status.Conditions[i]
		if c.Type == typ {
			if c.Status != status {
				c.LastTransitionTime = m.now
			}
			c.Status, c.Reason, c.Message = status, reason, msg
			return
		}
	}
	h.Status.Conditions = append(h.Status.Conditions, Condition{Type: typ, Status: status, Reason: reason, Message: msg, LastTransitionTime: m.now})
}

// HPACondition returns the autoscaler's condition of a type, or nil.
func (h *HorizontalPodAutoscaler) HPACondition(typ string) *Condition {
	for i := range h.Status.Conditions {
		if h.Status.Conditions[i].Type == typ {
			return &h.Status.Conditions[i]
		}
	}
	return nil
}

// reconcileAutoscaler is horizontal.go reconcileAutoscaler.
func (m *Manager) reconcileAutoscaler(h *HorizontalPodAutoscaler) {
	ref := h.Spec.ScaleTargetRef
	sc, err := m.scaleTarget(ref.Kind, h.Namespace, ref.Name)
	if err != nil {
		m.hpaEvent(h, EventWarning, "FailedGetScale", err.Error())
		m.setHPACondition(h, HPAAbleToScale, api.ConditionFalse, "FailedGetScale", "the HPA controller was unable to get the target's current scale: "+err.Error())
		return
	}
	m.setHPACondition(h, HPAAbleToScale, api.ConditionTrue, "SucceededGetScale", "the HPA controller was able to get the target's current scale")
	current := sc.Spec
	h.history.recordInitial(current, m.now)
	minR := *h.Spec.MinReplicas
	var statuses []MetricStatus
	desired, reason, rescale := int32(0), "", true
	switch {
	case current == 0 && minR != 0:
		rescale = false
		m.setHPACondition(h, HPAScalingActive, api.ConditionFalse, "ScalingDisabled", "scaling is disabled since the replica count of the target is zero")
	case current > h.Spec.MaxReplicas:
		reason, desired = "Current number of replicas above Spec.MaxReplicas", h.Spec.MaxReplicas
	case current < minR:
		reason, desired = "Current number of replicas below Spec.MinReplicas", minR
	default:
		metricDesired, metricName, st, err := m.computeReplicasForMetrics(h, sc)
		statuses = st
		if err != nil && metricDesired == -1 {
			m.setHPAStatus(h, current, h.Status.DesiredReplicas, statuses, false)
			m.hpaEvent(h, EventWarning, "FailedComputeMetricsReplicas", err.Error())
			return
		}
		if metricDesired > desired {
			desired = metricDesired
		}
		if desired > current {
			reason = metricName + " above target"
		}
		if desired < current {
			reason = "All metrics below target"
		}
		var able, limit hpaLimit
		var limited bool
		if h.Spec.Behavior == nil {
			desired, able, limit, limited = h.history.normalizeWithoutBehavior(current, desired, minR, h.Spec.MaxReplicas, m.now)
		} else {
			b := h.Spec.Behavior
			if b.ScaleDown.StabilizationWindowSeconds == nil {
				// maybeInitScaleDownStabilizationWindow
				w := int32(HPADownscaleStabilization.Seconds())
				b.ScaleDown.StabilizationWindowSeconds = &w
			}
			desired, able, limit, limited = h.history.normalizeWithBehavior(normalization{
				ScaleUp: b.ScaleUp, ScaleDown: b.ScaleDown, Min: minR, Max: h.Spec.MaxReplicas,
				Current: current, Desired: desired}, m.now)
		}
		m.setHPACondition(h, HPAAbleToScale, api.ConditionTrue, able.Reason, able.Message)
		status := api.ConditionFalse
		if limited {
			status = api.ConditionTrue
		}
		m.setHPACondition(h, HPAScalingLimited, status, limit.Reason, limit.Message)
		rescale = desired != current
	}
	if rescale {
		if err := m.Scale(ref.Kind, h.Namespace, ref.Name, desired); err != nil {
			m.hpaEvent(h, EventWarning, "FailedRescale", fmt.Sprintf("New size: %d; reason: %s; error: %v", desired, reason, err))
			m.setHPACondition(h, HPAAbleToScale, api.ConditionFalse, "FailedUpdateScale", "the HPA controller was unable to update the target scale: "+err.Error())
			m.setHPAStatus(h, current, h.Status.DesiredReplicas, statuses, false)
			return
		}
		m.setHPACondition(h, HPAAbleToScale, api.ConditionTrue, "SucceededRescale", fmt.Sprintf("the HPA controller was able to update the target scale to %d", desired))
		m.hpaEvent(h, EventNormal, "SuccessfulRescale", fmt.Sprintf("New size: %d; reason: %s", desired, reason))
		h.history.storeScaleEvent(h.Spec.Behavior, current, desired, m.now)
	} else {
		desired = current
	}
	m.setHPAStatus(h, current, desired, statuses, rescale)
}

// setHPAStatus is setStatus.
func (m *Manager) setHPAStatus(h *HorizontalPodAutoscaler, current, desired int32, metrics []MetricStatus, rescale bool) {
	h.Status.CurrentReplicas = current
	h.Status.DesiredReplicas = desired
	h.Status.CurrentMetrics = metrics
	if rescale {
		t := m.now
		h.Status.LastScaleTime = &t
	}
}

// computeReplicasForMetrics is horizontal.go computeReplicasForMetrics: the
// largest proposal over the metrics; -1 when none could be computed, or
// when some failed and the others would scale down.
func (m *Manager) computeReplicasForMetrics(h *HorizontalPodAutoscaler, sc scaleInfo) (int32, string, []MetricStatus, error) {
	pods := m.selectPods(h.Namespace, sc.Selector, sc.LabelSelector)
	facts := h.podTable.refresh(pods, m.q != nil)
	load := m.loads[loadKey(h.Spec.ScaleTargetRef.Kind, h.Namespace, h.Spec.ScaleTargetRef.Name)]
	statuses := make([]MetricStatus, len(h.Spec.Metrics))
	var replicas int32
	var metric string
	invalid := 0
	var firstErr error
	var firstCond hpaLimit
	calc := newReplicaCalc(m.now)
	for i, ms := range h.Spec.Metrics {
		res := ms.Resource.Name
		var proposal int32
		var name string
		var err error
		t := ms.Resource.Target
		if t.AverageValue != nil && t.Type == api.AverageValueMetricType {
			samples, _ := m.hpaSamples(h.podTable.samples, res, facts, load)
			h.podTable.samples = samples
			var usage int64
			proposal, usage, err = calc.rawResourceReplicasOver(sc.Spec, t.AverageValue.MilliValue(), res, facts, samples, sampleSum{})
			if err != nil {
				err = fmt.Errorf("failed to get %s usage: %w", res, err)
			} else {
				name = res + " resource"
				v := api.Milli(usage)
				statuses[i] = MetricStatus{Type: api.ResourceMetricSourceType, Resource: res, AverageValue: &v}
			}
		} else {
			var util int32
			var raw int64
			samples, nSamples, ok := m.hpaLoadSamples(res, facts, load)
			if !ok {
				var list []podSample
				list, nSamples = m.hpaSamples(h.podTable.samples, res, facts, load)
				h.podTable.samples = list
				samples = podSamples{list: list}
			}
			proposal, util, raw, err = calc.resourceReplicasOver(sc.Spec, *t.AverageUtilization, res, facts, samples, nSamples)
			if err != nil {
				err = fmt.Errorf("failed to get %s utilization: %w", res, err)
			} else {
				name = utilizationMetricName(res)
				v := api.Milli(raw)
				statuses[i] = MetricStatus{Type: api.ResourceMetricSourceType, Resource: res, AverageUtilization: &util, AverageValue: &v}
			}
		}
		if err != nil {
			// getUnableComputeReplicaCountCondition records the event too
			m.hpaEvent(h, EventWarning, "FailedGetResourceMetric", err.Error())
			if invalid == 0 {
				firstCond = hpaLimit{"FailedGetResourceMetric", "the HPA was unable to compute the replica count: " + err.Error()}
				firstErr = fmt.Errorf("failed to get %s resource metric value: %w", res, err)
			}
			invalid++
			continue
		}
		if replicas == 0 || proposal > replicas {
			replicas, metric = proposal, name
		}
	}
	if firstErr != nil {
		firstErr = fmt.Errorf("invalid metrics (%d invalid out of %d), first error is: %w", invalid, len(h.Spec.Metrics), firstErr)
	}
	if invalid >= len(h.Spec.Metrics) || (invalid > 0 && replicas < sc.Spec) {
		m.setHPACondition(h, HPAScalingActive, api.ConditionFalse, firstCond.Reason, firstCond.Message)
		return -1, "", statuses, firstErr
	}
	if invalid == 0 {
		h.warned = nil
	}
	const validPrefix = "the HPA was able to successfully calculate a replica count from "
	if c := h.HPACondition(HPAScalingActive); c != nil && c.Status == api.ConditionTrue && c.Reason == "ValidMetricFound" &&
		len(c.Message) == len(validPrefix)+len(metric) && strings.HasPrefix(c.Message, validPrefix) && strings.HasSuffix(c.Message, metric) {
		// unchanged: setHPACondition would rewrite the same values (the
		// message is not built: it was allocated on every sync)
		return replicas, metric, statuses, firstErr
	}
	m.setHPACondition(h, HPAScalingActive, api.ConditionTrue, "ValidMetricFound", validPrefix+metric)
	return replicas, metric, statuses, firstErr
}

// utilizationMetricName is the metric name upstream builds per sync
// (fmt "%s resource utilization (percentage of request)"), constant for
// the usual resources so that a sync allocates none.
func utilizationMetricName(res string) string {
	switch res {
	case "cpu":
		return "cpu resource utilization (percentage of request)"
	case "memory":
		return "memory resource utilization (percentage of request)"
	}
	return res + " resource utilization (percentage of request)"
}

// TargetRef names the HPA's target as kubectl's REFERENCE column does
// ("Deployment/web").
func (h *HorizontalPodAutoscaler) TargetRef() string {
	return h.Spec.ScaleTargetRef.Kind + "/" + h.Spec.ScaleTargetRef.Name
}

// cloneHPAState copies the autoscalers, loads and pod CPU settings into a
// cloned Manager (Clone).
func (m *Manager) cloneHPAState(out *Manager) {
	for k, h := range m.hpas {
		cp := *h
		cp.HorizontalPodAutoscaler = deepCopy(h.HorizontalPodAutoscaler)
		cp.Status = deepCopy(h.Status)
		cp.history = hpaHistory{
			Recommendations: append([]timedRecommendation(nil), h.history.Recommendations...),
			ScaleUp:         append([]scaleEvent(nil), h.history.ScaleUp...),
			ScaleDown:       append([]scaleEvent(nil), h.history.ScaleDown...),
		}
		cp.warned = maps.Clone(h.warned)
		cp.podTable = hpaPodTable{}
		out.hpas[k] = &cp
	}
	for k, l := range m.loads {
		cp := *l
		cp.Steps = append([]LoadStep(nil), l.Steps...)
		out.loads[k] = &cp
	}
	for k, v := range m.podCPU {
		out.podCPU[k] = v
	}
}

// UpdateHPA replaces an autoscaler's spec (kubectl apply), keeping its
// status and the controller's history.
func (m *Manager) UpdateHPA(obj *api.HorizontalPodAutoscaler) error {
	h := m.hpas[key(obj.Namespace, obj.Name)]
	if h == nil {
		return fmt.Errorf("horizontalpodautoscalers.autoscaling %q not found", obj.Name)
	}
	cp := deepCopy(*obj)
	SetHPADefaults(&cp)
	if err := validateHPA(&cp); err != nil {
		return fmt.Errorf("update hpa %s: %w", obj.Name, err)
	}
	h.Spec = cp.Spec
	h.Generation++
	m.changed = true
	return nil
}
