package controllers

import (
	"fmt"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// Ported from kubernetes v1.36 pkg/controller/controller_utils_test.go
// TestSortingActivePodsWithRanks (the pod table, equalityTests and
// inequalityTests; the feature-gate-off rows are left out: PodDeletionCost
// and LogarithmicScaleDown are locked on). Times are seconds before now.
// One row differs on purpose: upstream's "ready-no-last-transition-time"
// has a zero lastTransitionTime, which afterOrZero sorts before every real
// time; in the lab a Ready condition always has a time (the manifest's,
// else the pod's start or the load instant, which is "now" then), so that
// row is checked with the time set to now, where it behaves the same.
func TestSortingActivePodsWithRanksUpstream(t *testing.T) {
	const month, hour = 30 * 24 * 3600.0, 3600.0
	nowS := month + 1000
	now := sec(nowS)
	ago := func(s float64) float64 { return nowS - s }
	pod := func(name, node, phase string, ready bool, restarts int32, readySince, created float64, cost *int) *api.Pod {
		b := mkPod(name).uid("").node(node).phase(phase).createdAt(created)
		if ready {
			b.readyAt(readySince).restarts(restarts)
		}
		if cost != nil {
			b.cost(*cost)
		}
		return b.obj()
	}
	ten, hundred := 10, 100
	var (
		unscheduled           = pod("unscheduled", "", api.PodPending, false, 0, 0, 0, nil)
		scheduledPending      = pod("pending", "node", api.PodPending, false, 0, 0, 0, nil)
		unknownPhase          = pod("unknown-phase", "node", api.PodUnknown, false, 0, 0, 0, nil)
		runningNotReady       = pod("not-ready", "node", api.PodRunning, false, 0, 0, 0, nil)
		readyNoTransitionTime = pod("ready-no-last-transition-time", "node", api.PodRunning, true, 0, nowS, 0, nil)
		readyNow              = pod("ready-now", "node", api.PodRunning, true, 0, nowS, nowS, nil)
		readyThen             = pod("ready-then", "node", api.PodRunning, true, 0, ago(month), ago(month), nil)
		readyNowHighRestarts  = pod("ready-high-restarts", "node", api.PodRunning, true, 9001, nowS, nowS, nil)
		readyNowCreatedThen   = pod("ready-now-created-then", "node", api.PodRunning, true, 0, nowS, ago(month), nil)
		lowDeletionCost       = pod("low-deletion-cost", "node", api.PodRunning, true, 0, nowS, ago(month), &ten)
		highDeletionCost      = pod("high-deletion-cost", "node", api.PodRunning, true, 0, nowS, ago(month), &hundred)
		unscheduled5Hours     = pod("unscheduled-5-hours", "", api.PodPending, false, 0, ago(5*hour), ago(5*hour), nil)
		unscheduled8Hours     = pod("unscheduled-10-hours", "", api.PodPending, false, 0, ago(8*hour), ago(8*hour), nil)
		ready2Hours           = pod("ready-2-hours", "", api.PodRunning, true, 0, ago(2*hour), ago(month), nil)
		ready5Hours           = pod("ready-5-hours", "", api.PodRunning, true, 0, ago(5*hour), ago(month), nil)
		ready10Hours          = pod("ready-10-hours", "", api.PodRunning, true, 0, ago(8*hour), ago(month), nil)
	)
	for i, tc := range []struct{ p1, p2 *api.Pod }{
		{unscheduled, nil}, {scheduledPending, nil}, {unknownPhase, nil}, {runningNotReady, nil},
		{readyNowCreatedThen, nil}, {readyNow, nil}, {readyThen, nil}, {readyNowHighRestarts, nil},
		{unscheduled5Hours, unscheduled8Hours}, {ready5Hours, ready10Hours},
	} {
		t.Run(fmt.Sprintf("equality %d", i), func(t *testing.T) {
			p2 := tc.p2
			if p2 == nil {
				p2 = tc.p1
			}
			a, b := &rankInput{tc.p1, 1}, &rankInput{p2, 1}
			if l, _ := compareForScaleDown(a, b, now); l {
				t.Errorf("%s < %s, want equivalent", tc.p1.Name, p2.Name)
			}
			if l, _ := compareForScaleDown(b, a, now); l {
				t.Errorf("%s < %s, want equivalent", p2.Name, tc.p1.Name)
			}
		})
	}
	type ranked struct {
		pod  *api.Pod
		rank int
	}
	for i, tc := range []struct{ lesser, greater ranked }{
		{ranked{unscheduled, 1}, ranked{scheduledPending, 2}},
		{ranked{unscheduled, 2}, ranked{scheduledPending, 1}},
		{ranked{scheduledPending, 1}, ranked{unknownPhase, 2}},
		{ranked{unknownPhase, 1}, ranked{runningNotReady, 2}},
		{ranked{runningNotReady, 1}, ranked{readyNoTransitionTime, 1}},
		{ranked{readyNow, 2}, ranked{readyNoTransitionTime, 1}},
		{ranked{readyNow, 1}, ranked{readyThen, 1}},
		{ranked{readyNow, 2}, ranked{readyThen, 1}},
		{ranked{readyNowHighRestarts, 1}, ranked{readyNow, 1}},
		{ranked{readyNow, 2}, ranked{readyNowHighRestarts, 1}},
		{ranked{readyNow, 1}, ranked{readyNowCreatedThen, 1}},
		{ranked{readyNowCreatedThen, 2}, ranked{readyNow, 1}},
		{ranked{lowDeletionCost, 2}, ranked{highDeletionCost, 1}},
		{ranked{ready2Hours, 1}, ranked{ready5Hours, 1}},
	} {
		t.Run(fmt.Sprintf("inequality %d %s<%s", i, tc.lesser.pod.Name, tc.greater.pod.Name), func(t *testing.T) {
			a, b := &rankInput{tc.lesser.pod, tc.lesser.rank}, &rankInput{tc.greater.pod, tc.greater.rank}
			if l, rule := compareForScaleDown(a, b, now); !l {
				t.Errorf("want %s (rank %d) < %s (rank %d); rule %v", a.pod.Name, a.colocated, b.pod.Name, b.colocated, rule)
			}
			if l, _ := compareForScaleDown(b, a, now); l {
				t.Errorf("want %s not < %s", b.pod.Name, a.pod.Name)
			}
		})
	}
}

// Sidecar restarts (kubernetes#124952, controller_utils.go
// compareMaxContainerRestarts): regular containers' restarts decide first;
// only when they tie do restartable init containers' restarts count, and
// plain init containers never do.
func TestCompareMaxContainerRestartsSidecars(t *testing.T) {
	withInit := func(name string, regular, sidecar, plainInit int32) *api.Pod {
		p := mkPod(name).node("n").readyAt(5).restarts(regular).obj()
		p.Spec.InitContainers = []api.Container{{Name: "side", RestartPolicy: "Always"}, {Name: "setup"}}
		p.Status.InitContainerStatuses = []api.ContainerStatus{{Name: "side", RestartCount: sidecar}, {Name: "setup", RestartCount: plainInit}}
		return p
	}
	now := sec(100)
	for _, tc := range []struct {
		name     string
		a, b     *api.Pod
		wantLess bool
		wantRule RankRule
	}{
		{"regular restarts decide", withInit("a", 2, 0, 0), withInit("b", 1, 50, 0), true, RuleRestarts},
		{"sidecar restarts break a tie", withInit("a", 1, 0, 0), withInit("b", 1, 3, 0), false, RuleRestarts},
		{"sidecar restarts break a tie (other side)", withInit("a", 1, 3, 0), withInit("b", 1, 0, 0), true, RuleRestarts},
		{"plain init containers do not count", withInit("a", 1, 0, 9), withInit("b", 1, 0, 0), false, RuleNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := tc.a, tc.b
			a.CreationTimestamp, b.CreationTimestamp = 0, 0
			less, rule := compareForScaleDown(&rankInput{a, 1}, &rankInput{b, 1}, now)
			if less != tc.wantLess || rule != tc.wantRule {
				t.Fatalf("less=%v rule=%v, want %v %v", less, rule, tc.wantLess, tc.wantRule)
			}
		})
	}
}

// Ported from kubernetes v1.36 pkg/controller/replicaset/replica_set_test.go
// TestGetPodsToDelete (every case of its table).
func TestGetPodsToDeleteUpstream(t *testing.T) {
	now := sec(1000)
	unscheduledPending := mkPod("unscheduled-pending-pod").obj()
	scheduledPending := mkPod("scheduled-pending-pod").node("fake-node").obj()
	notReady := mkPod("scheduled-running-not-ready-pod").node("fake-node").running().obj()
	notReady.Status.Conditions = []api.Condition{{Type: api.PodReady, Status: api.ConditionFalse}}
	readyOn1 := mkPod("scheduled-running-ready-pod-on-node-1").node("fake-node-1").readyAt(0).obj()
	readyOn2 := mkPod("scheduled-running-ready-pod-on-node-2").node("fake-node-2").readyAt(0).obj()
	all := []*api.Pod{readyOn1, readyOn1, readyOn2, notReady, scheduledPending, unscheduledPending}
	for _, tc := range []struct {
		name    string
		pods    []*api.Pod
		related []*api.Pod // nil: the pods themselves
		diff    int
		want    []*api.Pod
	}{
		{"len(pods) = 0 (i.e., diff = 0 too)", []*api.Pod{}, nil, 0, []*api.Pod{}},
		{"diff = len(pods)", []*api.Pod{notReady, readyOn1}, nil, 2, []*api.Pod{notReady, readyOn1}},
		{"diff < len(pods)", []*api.Pod{readyOn1, notReady}, nil, 1, []*api.Pod{notReady}},
		{"various pod phases and conditions, diff = len(pods)", all, nil, 6, all},
		{"various pod phases and conditions, diff = len(pods), relatedPods empty", all, []*api.Pod{}, 6, all},
		{"scheduled vs unscheduled, diff < len(pods)", []*api.Pod{scheduledPending, unscheduledPending}, nil, 1, []*api.Pod{unscheduledPending}},
		{"ready vs not-ready, diff < len(pods)", []*api.Pod{readyOn1, notReady, notReady}, nil, 2, []*api.Pod{notReady, notReady}},
		{"ready and colocated with another ready pod vs not colocated, diff < len(pods)", []*api.Pod{readyOn1, readyOn2}, []*api.Pod{readyOn1, readyOn2, readyOn2}, 1, []*api.Pod{readyOn2}},
		{"pending vs running, diff < len(pods)", []*api.Pod{scheduledPending, notReady}, nil, 1, []*api.Pod{scheduledPending}},
		{"various pod phases and conditions, diff < len(pods)", []*api.Pod{readyOn1, readyOn2, notReady, scheduledPending, unscheduledPending}, nil, 3, []*api.Pod{unscheduledPending, scheduledPending, notReady}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			related := tc.related
			if related == nil {
				related = tc.pods
			}
			got := podsToDelete(tc.pods, related, tc.diff, now)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d pods, want %d", len(got), len(tc.want))
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("[%d] = %s, want %s", i, got[i].Name, tc.want[i].Name)
				}
			}
		})
	}
}
