package controllers

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

// Cases ported from k8s.io/kubernetes pkg/controller/podautoscaler/
// replica_calculator_test.go (v1.36, the Test… function each case names).
// Upstream's pods have two containers requesting 1.0 CPU each and report
// each level per container; the lab's have one: utilizations and replica
// counts are the same, raw values are halved. Upstream's hot pods start
// "now" and cool ones 3 minutes ago with a 2-minute testing
// initialization period; here the period is the controller's 5 minutes,
// so cool pods start 10 minutes ago.
type calcCase struct {
	name        string
	current     int32
	requests    []string // per pod; "" = no request
	levels      []int64  // per pod with a sample, in pod order
	metricNames []string // names of the samples when they are not the pods'
	readiness   []string // per pod: "T" / "F"
	phase       []string
	hot         []bool
	deleting    []bool
	target      int32

	want     int32
	wantUtil int32
	wantRaw  int64
	wantErr  string
}

func (tc calcCase) run(t *testing.T) {
	now := sec(3600)
	n := len(tc.requests)
	var pods []*api.Pod
	for i := 0; i < n; i++ {
		p := mkPod(fmt.Sprintf("pod-%d", i)).node("n1").obj()
		p.Spec.Containers = []api.Container{{Name: "container1"}}
		if tc.requests[i] != "" {
			q, err := api.ParseQuantity(tc.requests[i])
			if err != nil {
				t.Fatal(err)
			}
			p.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceCPU: q}
		}
		p.Status.Phase = api.PodRunning
		if i < len(tc.phase) {
			p.Status.Phase = tc.phase[i]
		}
		start := now.Add(-10 * time.Minute)
		if i < len(tc.hot) && tc.hot[i] {
			start = now
		}
		p.Status.StartTime = &start
		ready := api.ConditionTrue
		if i < len(tc.readiness) && tc.readiness[i] == "F" {
			ready = api.ConditionFalse
		}
		p.Status.Conditions = []api.Condition{{Type: api.PodReady, Status: ready, LastTransitionTime: start}}
		if i < len(tc.deleting) && tc.deleting[i] {
			p.DeletionTimestamp = &now
		}
		pods = append(pods, p)
	}
	metrics := PodMetrics{}
	for i, v := range tc.levels {
		name := fmt.Sprintf("pod-%d", i)
		if i < len(tc.metricNames) {
			name = tc.metricNames[i]
		}
		metrics[name] = PodMetric{Value: v, Timestamp: now, Window: metricWindow}
	}
	c := newReplicaCalc(now)
	got, util, raw, err := c.resourceReplicas(tc.current, tc.target, api.ResourceCPU, pods, metrics)
	if tc.wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if got != tc.want || util != tc.wantUtil || raw != tc.wantRaw {
		t.Fatalf("replicas, utilization, raw = %d, %d, %d; want %d, %d, %d", got, util, raw, tc.want, tc.wantUtil, tc.wantRaw)
	}
}

func ones(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "1.0"
	}
	return out
}

func TestReplicaCalcUpstreamCases(t *testing.T) {
	R, P, F := api.PodRunning, api.PodPending, api.PodFailed
	cases := []calcCase{
		{name: "TestReplicaCalcScaleUp", current: 3, requests: ones(3), levels: []int64{300, 500, 700}, target: 30, want: 5, wantUtil: 50, wantRaw: 500},
		{name: "TestReplicaCalcScaleUpUnreadyLessScale", current: 3, requests: ones(3), levels: []int64{300, 500, 700}, readiness: []string{"F", "T", "T"}, target: 30, want: 4, wantUtil: 60, wantRaw: 600},
		{name: "TestReplicaCalcScaleUpHotCpuLessScale", current: 3, requests: ones(3), levels: []int64{300, 500, 700}, hot: []bool{true, false, false}, target: 30, want: 4, wantUtil: 60, wantRaw: 600},
		{name: "TestReplicaCalcScaleUpUnreadyNoScale", current: 3, requests: ones(3), levels: []int64{400, 500, 700}, readiness: []string{"T", "F", "F"}, target: 30, want: 3, wantUtil: 40, wantRaw: 400},
		{name: "TestReplicaCalcScaleHotCpuNoScale", current: 3, requests: ones(3), levels: []int64{400, 500, 700}, readiness: []string{"T", "F", "F"}, hot: []bool{false, true, true}, target: 30, want: 3, wantUtil: 40, wantRaw: 400},
		{name: "TestReplicaCalcScaleUpIgnoresFailedPods", current: 2, requests: ones(4), levels: []int64{500, 700}, readiness: []string{"T", "T", "F", "F"}, phase: []string{R, R, F, F}, target: 30, want: 4, wantUtil: 60, wantRaw: 600},
		{name: "TestReplicaCalcScaleUpIgnoresDeletionPods", current: 2, requests: ones(4), levels: []int64{500, 700}, readiness: []string{"T", "T", "F", "F"}, deleting: []bool{false, false, true, true}, target: 30, want: 4, wantUtil: 60, wantRaw: 600},
		{name: "TestReplicaCalcScaleDown", current: 5, requests: ones(5), levels: []int64{100, 300, 500, 250, 250}, target: 50, want: 3, wantUtil: 28, wantRaw: 280},
		{name: "TestReplicaCalcScaleDownExcludeUnreadyPods", current: 5, requests: ones(5), levels: []int64{100, 300, 500, 250, 250}, readiness: []string{"T", "T", "T", "F", "F"}, target: 50, want: 2, wantUtil: 30, wantRaw: 300},
		{name: "TestReplicaCalcScaleDownExcludeUnscheduledPods", current: 5, requests: ones(5), levels: []int64{100}, readiness: []string{"T", "F", "F", "F", "F"}, phase: []string{R, P, P, P, P}, target: 50, want: 1, wantUtil: 10, wantRaw: 100},
		{name: "TestReplicaCalcScaleDownIgnoreHotCpuPods", current: 5, requests: ones(5), levels: []int64{100, 300, 500, 250, 250}, hot: []bool{false, false, false, true, true}, target: 50, want: 2, wantUtil: 30, wantRaw: 300},
		{name: "TestReplicaCalcScaleDownIgnoresFailedPods", current: 5, requests: ones(7), levels: []int64{100, 300, 500, 250, 250}, readiness: []string{"T", "T", "T", "T", "T", "F", "F"}, phase: []string{R, R, R, R, R, F, F}, target: 50, want: 3, wantUtil: 28, wantRaw: 280},
		{name: "TestReplicaCalcScaleDownIgnoresDeletionPods", current: 5, requests: ones(7), levels: []int64{100, 300, 500, 250, 250}, readiness: []string{"T", "T", "T", "T", "T", "F", "F"}, deleting: []bool{false, false, false, false, false, true, true}, target: 50, want: 3, wantUtil: 28, wantRaw: 280},
		{name: "TestReplicaCalcTolerance", current: 3, requests: []string{"0.9", "1.0", "1.1"}, levels: []int64{1010, 1030, 1020}, target: 100, want: 3, wantUtil: 102, wantRaw: 1020},
		{name: "TestReplicaCalcSuperfluousMetrics", current: 4, requests: ones(4), levels: []int64{4000, 9500, 3000, 7000, 3200, 2000}, target: 100, want: 24, wantUtil: 587, wantRaw: 5875},
		{name: "TestReplicaCalcMissingMetrics", current: 4, requests: ones(4), levels: []int64{400, 95}, target: 100, want: 3, wantUtil: 24, wantRaw: 247},
		{name: "TestReplicaCalcMissingMetricsNoChangeEq", current: 2, requests: ones(2), levels: []int64{1000}, target: 100, want: 2, wantUtil: 100, wantRaw: 1000},
		{name: "TestReplicaCalcEmptyMetrics", current: 4, requests: ones(3), target: 100, wantErr: "unable to get metrics for resource cpu: no metrics returned from resource metrics API"},
		{name: "TestReplicaCalcEmptyCPURequest", current: 1, requests: []string{""}, levels: []int64{200}, target: 100, wantErr: "missing request for"},
		{name: "TestReplicaCalcDisjointResourcesMetrics", current: 1, requests: ones(1), levels: []int64{100}, metricNames: []string{"an-older-pod-name"}, target: 100, wantErr: "no metrics returned matched known pods"},
	}
	for _, tc := range cases {
		t.Run(tc.name, tc.run)
	}
}

// A pod in its CPU initialization period counts once it has been ready for
// a whole metric window; after the period, an unready pod is ignored only
// if it never became ready (its Ready condition changed within the initial
// readiness delay of its start) — groupPods.
func TestGroupPodsCPUInitialization(t *testing.T) {
	now := sec(1000)
	mk := func(startAgo, readyAgo time.Duration, ready string) *api.Pod {
		p := mkPod("p").node("n1").running().obj()
		st, lt := now.Add(-startAgo), now.Add(-readyAgo)
		p.Status.StartTime = &st
		p.Status.Conditions = []api.Condition{{Type: api.PodReady, Status: ready, LastTransitionTime: lt}}
		return p
	}
	cases := []struct {
		name    string
		pod     *api.Pod
		unready bool
	}{
		{"young, ready for less than a window", mk(time.Minute, 10*time.Second, api.ConditionTrue), true},
		{"young, ready for a whole window", mk(time.Minute, 15*time.Second, api.ConditionTrue), false},
		{"young, not ready", mk(time.Minute, time.Minute, api.ConditionFalse), true},
		{"old, never ready (condition set at start)", mk(10*time.Minute, 10*time.Minute, api.ConditionFalse), true},
		{"old, unready after having been ready", mk(10*time.Minute, time.Minute, api.ConditionFalse), false},
		{"old, ready", mk(10*time.Minute, 9*time.Minute, api.ConditionTrue), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := PodMetrics{"p": {Value: 1, Timestamp: now, Window: metricWindow}}
			_, unready, _, _ := newReplicaCalc(now).groupPods([]*api.Pod{tc.pod}, m, api.ResourceCPU)
			if got := len(unready) == 1; got != tc.unready {
				t.Fatalf("unready = %v, want %v", got, tc.unready)
			}
			// memory ignores readiness
			_, unready, _, _ = newReplicaCalc(now).groupPods([]*api.Pod{tc.pod}, m, api.ResourceMemory)
			if len(unready) != 0 {
				t.Fatalf("memory: unready %v", unready)
			}
		})
	}
}

// GetRawResourceReplicas (AverageValue targets): upstream
// TestReplicaCalcScaleUpCM's numbers through the plain-metric path.
func TestRawResourceReplicas(t *testing.T) {
	now := sec(3600)
	var pods []*api.Pod
	m := PodMetrics{}
	for i, v := range []int64{20000, 10000, 30000} {
		p := mkPod(fmt.Sprintf("p%d", i)).node("n1").readyAt(0).obj()
		st := api.Time(0)
		p.Status.StartTime = &st
		pods = append(pods, p)
		m[p.Name] = PodMetric{Value: v, Timestamp: now, Window: metricWindow}
	}
	got, usage, err := newReplicaCalc(now).rawResourceReplicas(3, 15000, api.ResourceMemory, pods, m)
	if err != nil || got != 4 || usage != 20000 {
		t.Fatalf("got %d, %d, %v; want 4, 20000", got, usage, err)
	}
}
