package controllers

import (
	"math"
	"time"

	"podlab.dev/podlab/engine/api"
)

// hpaHistory is what pkg/controller/podautoscaler/horizontal.go keeps per
// HPA between syncs: the recent unstabilized recommendations and the recent
// scale events of each direction (recommendations, scaleUpEvents,
// scaleDownEvents maps keyed by the HPA).
type hpaHistory struct {
	Recommendations []timedRecommendation
	ScaleUp         []scaleEvent
	ScaleDown       []scaleEvent
}

type timedRecommendation struct {
	Replicas int32
	At       api.Time
}

type scaleEvent struct {
	Change   int32
	At       api.Time
	Outdated bool
}

// hpaLimit is a condition produced by normalization (reason and message as
// upstream sets them on AbleToScale / ScalingLimited).
type hpaLimit struct {
	Reason, Message string
}

// normalization is NormalizationArg.
type normalization struct {
	ScaleUp, ScaleDown *api.HPAScalingRules
	Min, Max           int32
	Current, Desired   int32
}

// recordInitial is recordInitialRecommendation: the first sync remembers the
// current scale as a recommendation.
func (h *hpaHistory) recordInitial(current int32, now api.Time) {
	if h.Recommendations == nil {
		h.Recommendations = []timedRecommendation{{current, now}}
	}
}

// stabilize is stabilizeRecommendation (an HPA without behavior): the
// highest recommendation within the downscale stabilization window, and
// the new recommendation replaces one older than the window.
func (h *hpaHistory) stabilize(desired int32, window time.Duration, now api.Time) int32 {
	maxRec := desired
	old, oldIdx := false, 0
	cutoff := now.Add(-window)
	for i, r := range h.Recommendations {
		if r.At < cutoff {
			old, oldIdx = true, i
		} else if r.Replicas > maxRec {
			maxRec = r.Replicas
		}
	}
	rec := timedRecommendation{desired, now}
	if old {
		h.Recommendations[oldIdx] = rec
	} else {
		h.Recommendations = append(h.Recommendations, rec)
	}
	return maxRec
}

// normalizeWithoutBehavior is normalizeDesiredReplicas: stabilization, then
// convertDesiredReplicasWithRules (min, max and a scale-up of at most
// max(2×current, 4)). It returns the replicas and the AbleToScale and
// ScalingLimited conditions' reasons.
func (h *hpaHistory) normalizeWithoutBehavior(current, desired, minR, maxR int32, now api.Time) (int32, hpaLimit, hpaLimit, bool) {
	stabilized := h.stabilize(desired, HPADownscaleStabilization, now)
	able := hpaLimit{"ReadyForNewScale", "recommended size matches current size"}
	if stabilized != desired {
		able = hpaLimit{"ScaleDownStabilized", "recent recommendations were higher than current one, applying the highest recent recommendation"}
	}
	out, limit := convertDesiredReplicasWithRules(current, stabilized, minR, maxR)
	return out, able, limit, out != stabilized
}

// convertDesiredReplicasWithRules is horizontal.go's function of that name.
func convertDesiredReplicasWithRules(current, desired, minR, maxR int32) (int32, hpaLimit) {
	scaleUpLimit := int32(math.Max(scaleUpLimitFactor*float64(current), scaleUpLimitMinimum))
	maxAllowed := maxR
	limit := hpaLimit{"TooManyReplicas", "the desired replica count is more than the maximum replica count"}
	if maxR > scaleUpLimit {
		maxAllowed = scaleUpLimit
		limit = hpaLimit{"ScaleUpLimit", "the desired replica count is increasing faster than the maximum scale rate"}
	}
	if desired < minR {
		return minR, hpaLimit{"TooFewReplicas", "the desired replica count is less than the minimum replica count"}
	}
	if desired > maxAllowed {
		return maxAllowed, limit
	}
	return desired, hpaLimit{"DesiredWithinRange", "the desired count is within the acceptable range"}
}

// normalizeWithBehavior is normalizeDesiredReplicasWithBehaviors:
// stabilization over both windows, then the policies' rate limits and
// min/max (convertDesiredReplicasWithBehaviorRate).
func (h *hpaHistory) normalizeWithBehavior(a normalization, now api.Time) (int32, hpaLimit, hpaLimit, bool) {
	stabilized, able := h.stabilizeWithBehavior(a, now)
	if stabilized == a.Desired {
		able = hpaLimit{"ReadyForNewScale", "recommended size matches current size"}
	}
	a.Desired = stabilized
	out, limit := h.convertWithBehaviorRate(a, now)
	return out, able, limit, out != stabilized
}

// stabilizeWithBehavior is stabilizeRecommendationWithBehaviors: the
// recommendation is kept between the lowest recommendation within the
// scale-up window and the highest within the scale-down window.
func (h *hpaHistory) stabilizeWithBehavior(a normalization, now api.Time) (int32, hpaLimit) {
	upRec, downRec := a.Desired, a.Desired
	upCutoff := now.Add(-seconds(*a.ScaleUp.StabilizationWindowSeconds))
	downCutoff := now.Add(-seconds(*a.ScaleDown.StabilizationWindowSeconds))
	old, oldIdx := false, 0
	for i, r := range h.Recommendations {
		if r.At > upCutoff {
			upRec = min(r.Replicas, upRec)
		}
		if r.At > downCutoff {
			downRec = max(r.Replicas, downRec)
		}
		if r.At < upCutoff && r.At < downCutoff {
			old, oldIdx = true, i
		}
	}
	rec := a.Current
	if rec < upRec {
		rec = upRec
	}
	if rec > downRec {
		rec = downRec
	}
	nr := timedRecommendation{a.Desired, now}
	if old {
		h.Recommendations[oldIdx] = nr
	} else {
		h.Recommendations = append(h.Recommendations, nr)
	}
	if a.Desired >= a.Current {
		return rec, hpaLimit{"ScaleUpStabilized", "recent recommendations were lower than current one, applying the lowest recent recommendation"}
	}
	return rec, hpaLimit{"ScaleDownStabilized", "recent recommendations were higher than current one, applying the highest recent recommendation"}
}

// convertWithBehaviorRate is convertDesiredReplicasWithBehaviorRate.
func (h *hpaHistory) convertWithBehaviorRate(a normalization, now api.Time) (int32, hpaLimit) {
	if a.Desired > a.Current {
		limit := scaleUpLimitWithRules(a.Current, h.ScaleUp, h.ScaleDown, a.ScaleUp, now)
		if limit < a.Current {
			limit = a.Current
		}
		maxAllowed := a.Max
		l := hpaLimit{"TooManyReplicas", "the desired replica count is more than the maximum replica count"}
		if maxAllowed > limit {
			maxAllowed = limit
			l = hpaLimit{"ScaleUpLimit", "the desired replica count is increasing faster than the maximum scale rate"}
		}
		if a.Desired > maxAllowed {
			return maxAllowed, l
		}
	} else if a.Desired < a.Current {
		limit := scaleDownLimitWithRules(a.Current, h.ScaleUp, h.ScaleDown, a.ScaleDown, now)
		if limit > a.Current {
			limit = a.Current
		}
		minAllowed := a.Min
		l := hpaLimit{"TooFewReplicas", "the desired replica count is less than the minimum replica count"}
		if minAllowed < limit {
			minAllowed = limit
			l = hpaLimit{"ScaleDownLimit", "the desired replica count is decreasing faster than the maximum scale rate"}
		}
		if a.Desired < minAllowed {
			return minAllowed, l
		}
	}
	return a.Desired, hpaLimit{"DesiredWithinRange", "the desired count is within the acceptable range"}
}

// changeInPeriod is getReplicasChangePerPeriod: the replicas changed by the
// events strictly after now − period.
func changeInPeriod(periodSeconds int32, events []scaleEvent, now api.Time) int32 {
	cutoff := now.Add(-seconds(periodSeconds))
	var n int32
	for _, e := range events {
		if e.At > cutoff {
			n += e.Change
		}
	}
	return n
}

// scaleUpLimitWithRules is calculateScaleUpLimitWithScalingRules: for each
// policy, the replicas at the start of its period plus what it allows;
// selectPolicy Max takes the largest, Min the smallest, Disabled allows
// nothing.
func scaleUpLimitWithRules(current int32, up, down []scaleEvent, rules *api.HPAScalingRules, now api.Time) int32 {
	sel := *rules.SelectPolicy
	if sel == api.DisabledPolicySelect {
		return current
	}
	result := int32(math.MinInt32)
	pick := func(a, b int32) int32 { return max(a, b) }
	if sel == api.MinChangePolicySelect {
		result = math.MaxInt32
		pick = func(a, b int32) int32 { return min(a, b) }
	}
	for _, p := range rules.Policies {
		start := current - changeInPeriod(p.PeriodSeconds, up, now) + changeInPeriod(p.PeriodSeconds, down, now)
		var proposed int32
		switch p.Type {
		case api.PodsScalingPolicy:
			proposed = start + p.Value
		case api.PercentScalingPolicy:
			proposed = int32(math.Ceil(float64(start) * (1 + float64(p.Value)/100)))
		}
		result = pick(result, proposed)
	}
	return result
}

// scaleDownLimitWithRules is calculateScaleDownLimitWithBehaviors.
func scaleDownLimitWithRules(current int32, up, down []scaleEvent, rules *api.HPAScalingRules, now api.Time) int32 {
	sel := *rules.SelectPolicy
	if sel == api.DisabledPolicySelect {
		return current
	}
	result := int32(math.MaxInt32)
	pick := func(a, b int32) int32 { return min(a, b) }
	if sel == api.MinChangePolicySelect {
		result = math.MinInt32
		pick = func(a, b int32) int32 { return max(a, b) }
	}
	for _, p := range rules.Policies {
		start := current - changeInPeriod(p.PeriodSeconds, up, now) + changeInPeriod(p.PeriodSeconds, down, now)
		var proposed int32
		switch p.Type {
		case api.PodsScalingPolicy:
			proposed = start - p.Value
		case api.PercentScalingPolicy:
			proposed = int32(float64(start) * (1 - float64(p.Value)/100))
		}
		result = pick(result, proposed)
	}
	return result
}

// storeScaleEvent is horizontal.go storeScaleEvent: only HPAs with a
// behavior keep events; an event older than the longest policy period is
// reused for the new one.
func (h *hpaHistory) storeScaleEvent(b *api.HorizontalPodAutoscalerBehavior, prev, next int32, now api.Time) {
	if b == nil {
		return
	}
	events, rules, change := &h.ScaleDown, b.ScaleDown, prev-next
	if next > prev {
		events, rules, change = &h.ScaleUp, b.ScaleUp, next-prev
	}
	var longest int32
	for _, p := range rules.Policies {
		longest = max(longest, p.PeriodSeconds)
	}
	cutoff := now.Add(-seconds(longest))
	old, oldIdx := false, 0
	for i := range *events {
		if (*events)[i].At < cutoff {
			(*events)[i].Outdated = true
		}
		if (*events)[i].Outdated {
			old, oldIdx = true, i
		}
	}
	e := scaleEvent{Change: change, At: now}
	if old {
		(*events)[oldIdx] = e
	} else {
		*events = append(*events, e)
	}
}
