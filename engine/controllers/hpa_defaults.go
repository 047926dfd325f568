package controllers

import (
	"time"

	"podlab.dev/podlab/engine/api"
)

// kube-controller-manager's HPA settings, as
// pkg/controller/podautoscaler/config/v1alpha1/defaults.go
// (RecommendedDefaultHPAControllerConfiguration) sets them: the lab runs
// with the flags' defaults.
const (
	// HPASyncPeriod is --horizontal-pod-autoscaler-sync-period.
	HPASyncPeriod = 15 * time.Second
	// HPATolerance is --horizontal-pod-autoscaler-tolerance: no scaling
	// while |1 - usageRatio| <= 0.1.
	HPATolerance = 0.1
	// HPACPUInitializationPeriod is
	// --horizontal-pod-autoscaler-cpu-initialization-period.
	HPACPUInitializationPeriod = 5 * time.Minute
	// HPAInitialReadinessDelay is
	// --horizontal-pod-autoscaler-initial-readiness-delay.
	HPAInitialReadinessDelay = 30 * time.Second
	// HPADownscaleStabilization is
	// --horizontal-pod-autoscaler-downscale-stabilization.
	HPADownscaleStabilization = 5 * time.Minute
	// HPADefaultCPUUtilization is autoscaling.DefaultCPUUtilization: the
	// metric an HPA without metrics gets.
	HPADefaultCPUUtilization int32 = 80

	// scaleUpLimitFactor and scaleUpLimitMinimum bound a scale-up of an HPA
	// without behavior (horizontal.go calculateScaleUpLimit).
	scaleUpLimitFactor  = 2.0
	scaleUpLimitMinimum = 4.0

	// metricWindow is the window metrics-server reports with a sample
	// (its --metric-resolution default, 15 s): a pod in its CPU
	// initialization period counts only once a whole window was measured
	// after it became ready.
	metricWindow = 15 * time.Second
)

// DefaultHPAScaleUpRules is pkg/apis/autoscaling/v2/defaults.go
// defaultHPAScaleUpRules: no stabilization, at most 4 pods or 100% per 15 s,
// whichever allows more.
func DefaultHPAScaleUpRules() api.HPAScalingRules {
	window := int32(0)
	sel := api.MaxChangePolicySelect
	return api.HPAScalingRules{
		StabilizationWindowSeconds: &window,
		SelectPolicy:               &sel,
		Policies: []api.HPAScalingPolicy{
			{Type: api.PodsScalingPolicy, Value: 4, PeriodSeconds: 15},
			{Type: api.PercentScalingPolicy, Value: 100, PeriodSeconds: 15},
		},
	}
}

// DefaultHPAScaleDownRules is defaultHPAScaleDownRules: 100% per 15 s; the
// stabilization window stays nil in the API (the controller fills in its
// --horizontal-pod-autoscaler-downscale-stabilization, 300 s:
// maybeInitScaleDownStabilizationWindow).
func DefaultHPAScaleDownRules() api.HPAScalingRules {
	sel := api.MaxChangePolicySelect
	return api.HPAScalingRules{
		SelectPolicy: &sel,
		Policies:     []api.HPAScalingPolicy{{Type: api.PercentScalingPolicy, Value: 100, PeriodSeconds: 15}},
	}
}

// SetHPADefaults is SetDefaults_HorizontalPodAutoscaler: minReplicas 1, a
// cpu 80% metric when none is given, and — only when a behavior is given —
// every unset field of both rule sets from the defaults above
// (SetDefaults_HorizontalPodAutoscalerBehavior, copyHPAScalingRules).
func SetHPADefaults(h *api.HorizontalPodAutoscaler) {
	if h.Spec.MinReplicas == nil {
		one := int32(1)
		h.Spec.MinReplicas = &one
	}
	if len(h.Spec.Metrics) == 0 {
		u := HPADefaultCPUUtilization
		h.Spec.Metrics = []api.MetricSpec{{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{
			Name: api.ResourceCPU, Target: api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: &u},
		}}}
	}
	if b := h.Spec.Behavior; b != nil {
		up, down := DefaultHPAScaleUpRules(), DefaultHPAScaleDownRules()
		b.ScaleUp = copyScalingRules(b.ScaleUp, &up)
		b.ScaleDown = copyScalingRules(b.ScaleDown, &down)
	}
}

// copyScalingRules is copyHPAScalingRules: every non-nil field of from
// replaces the default's.
func copyScalingRules(from, to *api.HPAScalingRules) *api.HPAScalingRules {
	if from == nil {
		return to
	}
	if from.SelectPolicy != nil {
		to.SelectPolicy = from.SelectPolicy
	}
	if from.StabilizationWindowSeconds != nil {
		to.StabilizationWindowSeconds = from.StabilizationWindowSeconds
	}
	if from.Policies != nil {
		to.Policies = from.Policies
	}
	return to
}
