package controllers

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

func rules(sel string, window int32, policies ...api.HPAScalingPolicy) *api.HPAScalingRules {
	return &api.HPAScalingRules{StabilizationWindowSeconds: &window, SelectPolicy: &sel, Policies: policies}
}

// horizontal_test.go TestCalculateScaleUpLimitWithScalingRules and
// TestCalculateScaleDownLimitWithBehaviors: with selectPolicy Min the
// smaller change wins.
func TestScaleLimitsWithRulesUpstream(t *testing.T) {
	pods2 := api.HPAScalingPolicy{Type: api.PodsScalingPolicy, Value: 2, PeriodSeconds: 60}
	pct50 := api.HPAScalingPolicy{Type: api.PercentScalingPolicy, Value: 50, PeriodSeconds: 60}
	if got := scaleUpLimitWithRules(1, nil, nil, rules(api.MinChangePolicySelect, 300, pods2, pct50), 0); got != 2 {
		t.Fatalf("scale-up limit = %d, want 2", got)
	}
	if got := scaleDownLimitWithRules(5, nil, nil, rules(api.MinChangePolicySelect, 300, pods2, pct50), 0); got != 3 {
		t.Fatalf("scale-down limit = %d, want 3", got)
	}
}

// The defaults (pkg/apis/autoscaling/v2/defaults.go) read back as upstream
// writes them, and SetDefaults only fills a behavior that was given.
func TestHPADefaults(t *testing.T) {
	up, down := DefaultHPAScaleUpRules(), DefaultHPAScaleDownRules()
	if *up.StabilizationWindowSeconds != 0 || *up.SelectPolicy != api.MaxChangePolicySelect || len(up.Policies) != 2 ||
		up.Policies[0] != (api.HPAScalingPolicy{Type: api.PodsScalingPolicy, Value: 4, PeriodSeconds: 15}) ||
		up.Policies[1] != (api.HPAScalingPolicy{Type: api.PercentScalingPolicy, Value: 100, PeriodSeconds: 15}) {
		t.Fatalf("scale-up defaults %+v", up)
	}
	if down.StabilizationWindowSeconds != nil || *down.SelectPolicy != api.MaxChangePolicySelect ||
		len(down.Policies) != 1 || down.Policies[0] != (api.HPAScalingPolicy{Type: api.PercentScalingPolicy, Value: 100, PeriodSeconds: 15}) {
		t.Fatalf("scale-down defaults %+v", down)
	}
	h := &api.HorizontalPodAutoscaler{Spec: api.HorizontalPodAutoscalerSpec{MaxReplicas: 5}}
	SetHPADefaults(h)
	if *h.Spec.MinReplicas != 1 || h.Spec.Behavior != nil || len(h.Spec.Metrics) != 1 ||
		h.Spec.Metrics[0].Resource.Name != api.ResourceCPU || *h.Spec.Metrics[0].Resource.Target.AverageUtilization != 80 {
		t.Fatalf("defaults %+v", h.Spec)
	}
	w := int32(60)
	h = &api.HorizontalPodAutoscaler{Spec: api.HorizontalPodAutoscalerSpec{MaxReplicas: 5,
		Behavior: &api.HorizontalPodAutoscalerBehavior{ScaleDown: &api.HPAScalingRules{StabilizationWindowSeconds: &w}}}}
	SetHPADefaults(h)
	b := h.Spec.Behavior
	if *b.ScaleDown.StabilizationWindowSeconds != 60 || len(b.ScaleDown.Policies) != 1 || *b.ScaleUp.StabilizationWindowSeconds != 0 || len(b.ScaleUp.Policies) != 2 {
		t.Fatalf("behavior defaults %+v %+v", b.ScaleUp, b.ScaleDown)
	}
}

// Behaviour cases after horizontal_test.go TestNormalizeDesiredReplicasWithBehavior
// and TestScalingWithRules, computed by hand from the upstream functions.
func TestNormalizeWithBehavior(t *testing.T) {
	up, down := DefaultHPAScaleUpRules(), DefaultHPAScaleDownRules()
	w300 := int32(300)
	down.StabilizationWindowSeconds = &w300
	cases := []struct {
		name     string
		recs     []timedRecommendation
		upEv     []scaleEvent
		downEv   []scaleEvent
		up, down *api.HPAScalingRules
		min, max int32
		current  int32
		desired  int32
		want     int32
		able     string
		limit    string
	}{
		{name: "default scale-up doubles or adds 4 per 15s: 1 -> 5", up: &up, down: &down, min: 1, max: 100, current: 1, desired: 20, want: 5, able: "ReadyForNewScale", limit: "ScaleUpLimit"},
		{name: "default scale-up: 10 -> 20 (100% beats 4 pods)", up: &up, down: &down, min: 1, max: 100, current: 10, desired: 50, want: 20, limit: "ScaleUpLimit", able: "ReadyForNewScale"},
		{name: "scale-up counts the pods added within the period", upEv: []scaleEvent{{Change: 5, At: sec(90)}}, up: &up, down: &down, min: 1, max: 100, current: 10, desired: 50, want: 10, limit: "ScaleUpLimit", able: "ReadyForNewScale"},
		{name: "maxReplicas caps", up: &up, down: &down, min: 1, max: 6, current: 4, desired: 8, want: 6, limit: "TooManyReplicas", able: "ReadyForNewScale"},
		{name: "scale-down stabilized by a higher recent recommendation", recs: []timedRecommendation{{8, sec(0)}}, up: &up, down: &down, min: 1, max: 10, current: 8, desired: 2, want: 8, limit: "DesiredWithinRange", able: "ScaleDownStabilized"},
		{name: "scale-down after the window", recs: []timedRecommendation{{8, sec(-250)}}, up: &up, down: &down, min: 1, max: 10, current: 8, desired: 2, want: 2, limit: "DesiredWithinRange", able: "ReadyForNewScale"},
		{name: "minReplicas floors", up: &up, down: &down, min: 3, max: 10, current: 8, desired: 1, want: 3, limit: "TooFewReplicas", able: "ReadyForNewScale"},
		{name: "scale-down Pods policy limits", up: &up, down: rules(api.MaxChangePolicySelect, 0, api.HPAScalingPolicy{Type: api.PodsScalingPolicy, Value: 1, PeriodSeconds: 60}), min: 1, max: 10, current: 8, desired: 2, want: 7, limit: "ScaleDownLimit", able: "ReadyForNewScale"},
		{name: "selectPolicy Disabled: no scale-up", up: rules(api.DisabledPolicySelect, 0), down: &down, min: 1, max: 10, current: 3, desired: 6, want: 3, limit: "ScaleUpLimit", able: "ReadyForNewScale"},
		{name: "scale-up window keeps the lowest recent recommendation", recs: []timedRecommendation{{4, sec(50)}}, up: rules(api.MaxChangePolicySelect, 60, up.Policies...), down: &down, min: 1, max: 10, current: 3, desired: 6, want: 4, limit: "DesiredWithinRange", able: "ScaleUpStabilized"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := hpaHistory{Recommendations: tc.recs, ScaleUp: tc.upEv, ScaleDown: tc.downEv}
			got, able, limit, _ := h.normalizeWithBehavior(normalization{ScaleUp: tc.up, ScaleDown: tc.down, Min: tc.min, Max: tc.max, Current: tc.current, Desired: tc.desired}, sec(100))
			if got != tc.want || able.Reason != tc.able || limit.Reason != tc.limit {
				t.Fatalf("got %d (%s, %s), want %d (%s, %s)", got, able.Reason, limit.Reason, tc.want, tc.able, tc.limit)
			}
		})
	}
}

// Without behavior: horizontal_test.go TestConvertDesiredReplicasWithRules
// (scale-up at most max(2×current, 4)) and the 5-minute downscale
// stabilization.
func TestNormalizeWithoutBehavior(t *testing.T) {
	cases := []struct {
		current, desired, min, max, want int32
		reason                           string
	}{
		{5, 7, 2, 10, 7, "DesiredWithinRange"},
		{3, 1, 2, 10, 2, "TooFewReplicas"},
		{1, 20, 1, 100, 4, "ScaleUpLimit"},
		{8, 20, 1, 100, 16, "ScaleUpLimit"},
		{8, 20, 1, 10, 10, "TooManyReplicas"},
	}
	for _, tc := range cases {
		got, l := convertDesiredReplicasWithRules(tc.current, tc.desired, tc.min, tc.max)
		if got != tc.want || l.Reason != tc.reason {
			t.Errorf("%+v: got %d %s", tc, got, l.Reason)
		}
	}
	var h hpaHistory
	h.recordInitial(6, 0)
	if got, able, _, _ := h.normalizeWithoutBehavior(6, 2, 1, 10, sec(60)); got != 6 || able.Reason != "ScaleDownStabilized" {
		t.Fatalf("within the window: %d %s", got, able.Reason)
	}
	if got, _, _, _ := h.normalizeWithoutBehavior(6, 2, 1, 10, sec(361)); got != 2 {
		t.Fatalf("after the window: %d, want 2", got)
	}
}
