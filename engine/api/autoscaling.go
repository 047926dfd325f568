package api

// autoscaling/v2 metric source and target types, scaling policy types and
// select policies (k8s.io/api/autoscaling/v2 types.go).
const (
	ResourceMetricSourceType = "Resource"

	UtilizationMetricType  = "Utilization"
	AverageValueMetricType = "AverageValue"

	PodsScalingPolicy    = "Pods"
	PercentScalingPolicy = "Percent"

	MaxChangePolicySelect = "Max"
	MinChangePolicySelect = "Min"
	DisabledPolicySelect  = "Disabled"
)

// HorizontalPodAutoscaler is autoscaling/v2 HorizontalPodAutoscaler (spec;
// the controller keeps the status).
type HorizontalPodAutoscaler struct {
	ObjectMeta
	Spec HorizontalPodAutoscalerSpec
}

// HorizontalPodAutoscalerSpec is autoscaling/v2 HorizontalPodAutoscalerSpec.
type HorizontalPodAutoscalerSpec struct {
	ScaleTargetRef CrossVersionObjectReference
	MinReplicas    *int32
	MaxReplicas    int32
	Metrics        []MetricSpec
	Behavior       *HorizontalPodAutoscalerBehavior
}

// CrossVersionObjectReference names the scale target.
type CrossVersionObjectReference struct {
	Kind       string
	Name       string
	APIVersion string
}

// MetricSpec is autoscaling/v2 MetricSpec; the lab models Resource metrics
// (cpu and memory) only.
type MetricSpec struct {
	Type     string
	Resource *ResourceMetricSource
}

// ResourceMetricSource is autoscaling/v2 ResourceMetricSource.
type ResourceMetricSource struct {
	Name   string
	Target MetricTarget
}

// MetricTarget is autoscaling/v2 MetricTarget (Utilization or AverageValue).
type MetricTarget struct {
	Type               string
	AverageUtilization *int32
	AverageValue       *Quantity
}

// HorizontalPodAutoscalerBehavior is autoscaling/v2 behavior.
type HorizontalPodAutoscalerBehavior struct {
	ScaleUp   *HPAScalingRules
	ScaleDown *HPAScalingRules
}

// HPAScalingRules is autoscaling/v2 HPAScalingRules.
type HPAScalingRules struct {
	StabilizationWindowSeconds *int32
	SelectPolicy               *string
	Policies                   []HPAScalingPolicy
}

// HPAScalingPolicy is autoscaling/v2 HPAScalingPolicy.
type HPAScalingPolicy struct {
	Type          string
	Value         int32
	PeriodSeconds int32
}
