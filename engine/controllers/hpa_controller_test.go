package controllers

import (
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
)

func webDeployment(replicas int32, cpu string) *api.Deployment {
	d := nginxDeployment(replicas)
	d.Name = "web"
	q, _ := api.ParseQuantity(cpu)
	d.Spec.Template.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceCPU: q}
	return d
}

func cpuHPA(target string, minR, maxR, percent int32) *api.HorizontalPodAutoscaler {
	return &api.HorizontalPodAutoscaler{ObjectMeta: api.ObjectMeta{Name: target, Namespace: "default"},
		Spec: api.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: api.CrossVersionObjectReference{Kind: KindDeployment, Name: target, APIVersion: "apps/v1"},
			MinReplicas:    &minR, MaxReplicas: maxR,
			Metrics: []api.MetricSpec{{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Name: api.ResourceCPU,
				Target: api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: &percent}}}},
		}}
}

// The HPA syncs every 15 s from its creation; pods still in their CPU
// initialization period that have not been ready for a whole metric window
// are left out, so the first sync finds no usable sample; the second
// scales 2 -> 4 for 80% against a 50% target, with upstream's event and
// conditions; the scale-down recommendation that follows (the load now
// spread over 4 pods) is held by the 5-minute stabilization.
func TestHPAScalesDeploymentOnLoad(t *testing.T) {
	fc := newFakeCluster(t, nodes(3)...)
	if _, err := fc.m.AddDeployment(webDeployment(2, "500m")); err != nil {
		t.Fatal(err)
	}
	if _, err := fc.m.AddHPA(cpuHPA("web", 2, 10, 50)); err != nil {
		t.Fatal(err)
	}
	fc.m.Start()
	if err := fc.m.SetLoad(KindDeployment, "default", "web", LoadStep{At: 0, Percent: 80}); err != nil {
		t.Fatal(err)
	}
	if got := fc.m.Load(KindDeployment, "default", "web"); len(got) != 1 || got[0].MilliCPU != 800 {
		t.Fatalf("load %+v, want 800m (2 pods × 80%% of 500m)", got)
	}
	fc.runUntil(sec(16))
	h := fc.m.HPA("default", "web")
	if msgs := fc.eventMessages("FailedComputeMetricsReplicas"); len(msgs) != 1 ||
		!strings.Contains(msgs[0], "did not receive metrics for targeted pods (pods might be unready)") {
		t.Fatalf("first sync: %q", msgs)
	}
	if c := h.HPACondition(HPAScalingActive); c == nil || c.Status != api.ConditionFalse || c.Reason != "FailedGetResourceMetric" {
		t.Fatalf("ScalingActive after the first sync: %+v", c)
	}
	fc.runUntil(sec(31))
	want := "New size: 4; reason: cpu resource utilization (percentage of request) above target"
	if msgs := fc.eventMessages("SuccessfulRescale"); len(msgs) != 1 || msgs[0] != want {
		t.Fatalf("rescale events %q, want %q", msgs, want)
	}
	if d := fc.m.Deployment("default", "web"); *d.Spec.Replicas != 4 {
		t.Fatalf("replicas %d, want 4", *d.Spec.Replicas)
	}
	if h.Status.CurrentReplicas != 2 || h.Status.DesiredReplicas != 4 || h.Status.LastScaleTime == nil || *h.Status.LastScaleTime != sec(30) ||
		*h.Status.CurrentMetrics[0].AverageUtilization != 80 {
		t.Fatalf("status %+v", h.Status)
	}
	if c := h.HPACondition(HPAScalingActive); c.Status != api.ConditionTrue || c.Reason != "ValidMetricFound" {
		t.Fatalf("ScalingActive %+v", c)
	}
	fc.runUntil(sec(120))
	if d := fc.m.Deployment("default", "web"); *d.Spec.Replicas != 4 {
		t.Fatalf("replicas %d after the load spread, want 4", *d.Spec.Replicas)
	}
	if u := *h.Status.CurrentMetrics[0].AverageUtilization; u != 40 {
		t.Fatalf("utilization %d%%, want 40%% (800m over 4 pods of 500m)", u)
	}
	// The load drops: after the 5-minute window the HPA scales to min.
	if err := fc.m.SetLoad(KindDeployment, "default", "web", LoadStep{At: sec(150), MilliCPU: 100}); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(400))
	if d := fc.m.Deployment("default", "web"); *d.Spec.Replicas != 4 {
		t.Fatalf("replicas %d inside the stabilization window, want 4", *d.Spec.Replicas)
	}
	fc.runUntil(sec(500))
	if d := fc.m.Deployment("default", "web"); *d.Spec.Replicas != 2 {
		t.Fatalf("replicas %d after the window, want 2", *d.Spec.Replicas)
	}
	if msgs := fc.eventMessages("SuccessfulRescale"); msgs[len(msgs)-1] != "New size: 2; reason: All metrics below target" {
		t.Fatalf("events %q", msgs)
	}
}

// Pods nothing models report no sample: the HPA shows the metrics API's
// error, as with a workload metrics-server does not scrape.
func TestHPAWithoutUsageModel(t *testing.T) {
	fc := newFakeCluster(t, nodes(2)...)
	if _, err := fc.m.AddDeployment(webDeployment(2, "500m")); err != nil {
		t.Fatal(err)
	}
	if _, err := fc.m.AddHPA(cpuHPA("web", 1, 5, 50)); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(16))
	want := "failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API"
	if msgs := fc.eventMessages("FailedGetResourceMetric"); len(msgs) != 1 || msgs[0] != want {
		t.Fatalf("events %q, want %q", msgs, want)
	}
	fc.runUntil(sec(100))
	if n := len(fc.eventMessages("FailedGetResourceMetric")); n != 1 {
		t.Fatalf("repeated warning recorded %d times, want once", n)
	}
}

// A missing target: FailedGetScale with the API server's message.
func TestHPAMissingTarget(t *testing.T) {
	fc := newFakeCluster(t, nodes(1)...)
	if _, err := fc.m.AddHPA(cpuHPA("nope", 1, 5, 50)); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(16))
	h := fc.m.HPA("default", "nope")
	if c := h.HPACondition(HPAAbleToScale); c == nil || c.Status != api.ConditionFalse || c.Reason != "FailedGetScale" ||
		c.Message != `the HPA controller was unable to get the target's current scale: deployments.apps "nope" not found` {
		t.Fatalf("AbleToScale %+v", c)
	}
}

// minReplicas above the current scale rescales at once, without metrics.
func TestHPABelowMin(t *testing.T) {
	fc := newFakeCluster(t, nodes(2)...)
	if _, err := fc.m.AddDeployment(webDeployment(1, "500m")); err != nil {
		t.Fatal(err)
	}
	if _, err := fc.m.AddHPA(cpuHPA("web", 3, 5, 50)); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(16))
	if msgs := fc.eventMessages("SuccessfulRescale"); len(msgs) != 1 || msgs[0] != "New size: 3; reason: Current number of replicas below Spec.MinReplicas" {
		t.Fatalf("events %q", msgs)
	}
}

// Clone copies the autoscalers with their history and the load model.
func TestHPAClone(t *testing.T) {
	fc := newFakeCluster(t, nodes(3)...)
	if _, err := fc.m.AddDeployment(webDeployment(2, "500m")); err != nil {
		t.Fatal(err)
	}
	if _, err := fc.m.AddHPA(cpuHPA("web", 2, 10, 50)); err != nil {
		t.Fatal(err)
	}
	fc.m.Start()
	if err := fc.m.SetLoad(KindDeployment, "default", "web", LoadStep{At: 0, MilliCPU: 800}); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(40))
	c := fc.m.Clone(fc)
	h, ch := fc.m.HPA("default", "web"), c.HPA("default", "web")
	if ch == nil || len(ch.history.Recommendations) != len(h.history.Recommendations) || ch.Status.DesiredReplicas != h.Status.DesiredReplicas ||
		len(c.Load(KindDeployment, "default", "web")) != 1 {
		t.Fatalf("clone lost state: %+v", ch)
	}
	ch.history.Recommendations[0].Replicas = 99
	if h.history.Recommendations[0].Replicas == 99 {
		t.Fatal("clone shares the history")
	}
}

// fakeMemory is a Cluster with modelled memory (MemoryUsageSource).
type fakeMemory struct {
	*fakeCluster
	bytes int64
}

func (f fakeMemory) PodMemoryUsage(string, string) (int64, bool) { return f.bytes, true }

// A StatefulSet target with an AverageValue memory metric and a behavior
// that adds one pod per minute: the Pods policy limits each step, and
// ScalingLimited says so.
func TestHPAStatefulSetMemoryWithBehavior(t *testing.T) {
	fc := newFakeCluster(t, nodes(3)...)
	fm := fakeMemory{fc, 600 << 20}
	fc.m = New(fm, 1)
	set := webStatefulSet(2, api.ParallelPodManagement)
	q, _ := api.ParseQuantity("256Mi")
	set.Spec.Template.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceMemory: q}
	if _, err := fc.m.AddStatefulSet(set); err != nil {
		t.Fatal(err)
	}
	target, _ := api.ParseQuantity("300Mi")
	one := int32(1)
	sel := api.MaxChangePolicySelect
	h := &api.HorizontalPodAutoscaler{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: api.CrossVersionObjectReference{Kind: KindStatefulSet, Name: "web", APIVersion: "apps/v1"},
			MinReplicas:    &one, MaxReplicas: 6,
			Metrics: []api.MetricSpec{{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Name: api.ResourceMemory,
				Target: api.MetricTarget{Type: api.AverageValueMetricType, AverageValue: &target}}}},
			Behavior: &api.HorizontalPodAutoscalerBehavior{ScaleUp: &api.HPAScalingRules{SelectPolicy: &sel,
				Policies: []api.HPAScalingPolicy{{Type: api.PodsScalingPolicy, Value: 1, PeriodSeconds: 60}}}},
		}}
	if _, err := fc.m.AddHPA(h); err != nil {
		t.Fatal(err)
	}
	fc.runUntil(sec(16))
	got := fc.m.HPA("default", "web")
	if s := fc.m.StatefulSet("default", "web"); *s.Spec.Replicas != 3 {
		t.Fatalf("replicas %d, want 3 (one pod per minute)", *s.Spec.Replicas)
	}
	if c := got.HPACondition(HPAScalingLimited); c == nil || c.Status != api.ConditionTrue || c.Reason != "ScaleUpLimit" {
		t.Fatalf("ScalingLimited %+v", c)
	}
	if v := got.Status.CurrentMetrics[0].AverageValue; v == nil || v.Value() != 600<<20 {
		t.Fatalf("current average value %v", v)
	}
	fc.runUntil(sec(31))
	if s := fc.m.StatefulSet("default", "web"); *s.Spec.Replicas != 3 {
		t.Fatalf("replicas %d at 30s, want still 3 (the period is 60 s)", *s.Spec.Replicas)
	}
	fc.runUntil(sec(77))
	if s := fc.m.StatefulSet("default", "web"); *s.Spec.Replicas != 4 {
		t.Fatalf("replicas %d after a minute, want 4", *s.Spec.Replicas)
	}
}
