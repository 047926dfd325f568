package descheduler

import (
	"slices"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// TestUpstreamPodLifeTime ports the PodLifeTime tables
// (pkg/framework/plugins/podlifetime/pod_lifetime_test.go): TestPodLifeTime
// (:158), _GenericFiltering (:240), _EvictionLimits (:272),
// _ContainerWaitingReasons (:343), _PodStatusReasons (:623),
// _AgeThreshold (:691), _PodPhaseStates (:753) and
// TestStatesWithTerminatedReasons (:826). Left out: the PVC cases of
// _EvictorConfiguration (:189; podlab pods have no volumes), the
// ephemeral-container cases (:514, :534; podlab has none) and the tables
// for arguments podlab does not model (conditions :898, ownerKinds,
// exitCodes, their combinations). Upstream's "older" creation time is in
// 2009 and "newer" is now; here now is an hour after time zero.
func TestUpstreamPodLifeTime(t *testing.T) {
	const older, newer = api.Time(0), upstreamNow
	ago := func(s int64) api.Time { return upstreamNow - api.Time(s*1e9) }
	max600 := ptr(uint(600))
	// buildTestPodForNode1 (:52) / …WithRSOwnerRef… (:61) / …WithPendingPhase… (:70).
	bare := func(name string, at api.Time, edit ...func(*api.Pod)) *api.Pod {
		return buildPod(name, 100, 0, "node1", append([]func(*api.Pod){withCreation(at)}, edit...)...)
	}
	rs := func(name string, at api.Time, edit ...func(*api.Pod)) *api.Pod {
		return bare(name, at, append([]func(*api.Pod){rsOwner}, edit...)...)
	}
	pending := func(name string, at api.Time, edit ...func(*api.Pod)) *api.Pod {
		return rs(name, at, append([]func(*api.Pod){func(p *api.Pod) { p.Status.Phase = api.PodPending }}, edit...)...)
	}
	waiting := func(reason string) func(*api.Pod) {
		return func(p *api.Pod) {
			p.Status.ContainerStatuses = []api.ContainerStatus{{State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: reason}}}}
		}
	}
	initWaiting := func(reason string) func(*api.Pod) {
		return func(p *api.Pod) {
			p.Status.InitContainerStatuses = []api.ContainerStatus{{State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: reason}}}}
		}
	}
	reason := func(r string) func(*api.Pod) { return func(p *api.Pod) { p.Status.Reason = r } }
	phase := func(ph string) func(*api.Pod) { return func(p *api.Pod) { p.Status.Phase = ph } }
	stuck := func(name, why string) *api.Pod { // test.BuildTestPod(name, 0, 0, …) with a waiting container (:354)
		return buildPod(name, 0, 0, "node1", waiting(why), rsOwner, withCreation(older))
	}
	// buildPod (:79): 1m/1 byte, ReplicaSet-owned, created now.
	rsNow := func(name string, edit ...func(*api.Pod)) *api.Pod {
		return buildPod(name, 1, 1, "node1", append([]func(*api.Pod){rsOwner, withCreation(newer)}, edit...)...)
	}
	terminated := func(r string) api.ContainerState {
		return api.ContainerState{Terminated: &api.ContainerStateTerminated{Reason: r}}
	}
	states := func(s ...string) PodLifeTimeArgs { return PodLifeTimeArgs{MaxPodLifeTimeSeconds: max600, States: s} }
	cases := []struct {
		name                string
		line                int
		args                PodLifeTimeArgs
		pods                []*api.Pod
		perNode, perNS, tot *uint
		want                []string // nil: only the count matters
		count               int
	}{
		{name: "No pod should be evicted since pod terminating", line: 162,
			args: PodLifeTimeArgs{MaxPodLifeTimeSeconds: max600, LabelSelector: matchLabels("foo", "bar")},
			pods: []*api.Pod{rs("p14", older, terminating), rs("p15", older, terminating)}},
		{name: "1 pod matching label selector should be evicted", line: 244,
			args: PodLifeTimeArgs{MaxPodLifeTimeSeconds: max600, LabelSelector: matchLabels("foo", "bar")},
			pods: []*api.Pod{rs("p12", older, labels("foo", "bar")), rs("p13", older, labels("foo", "bar1"))}, want: []string{"p12"}, count: 1},
		{name: "2 Oldest pods should be evicted when maxPodsToEvictPerNode and maxPodsToEvictPerNamespace are not set", line: 276,
			args: PodLifeTimeArgs{MaxPodLifeTimeSeconds: max600},
			pods: []*api.Pod{rs("p1", newer), rs("p2", older), pending("p9", older)}, want: []string{"p2", "p9"}, count: 2},
		{name: "1 Oldest pod should be evicted when maxPodsToEvictPerNamespace is set to 1", line: 292,
			args: PodLifeTimeArgs{MaxPodLifeTimeSeconds: max600},
			pods: []*api.Pod{rs("p1", newer), rs("p2", older)}, perNS: ptr(uint(1)), want: []string{"p2"}, count: 1},
		{name: "1 Oldest pod should be evicted when maxPodsToEvictTotal is set to 1", line: 306,
			args: PodLifeTimeArgs{MaxPodLifeTimeSeconds: max600},
			pods: []*api.Pod{rs("p1", newer), rs("p2", older)}, perNS: ptr(uint(2)), tot: ptr(uint(1)), want: []string{"p2"}, count: 1},
		{name: "1 Oldest pod should be evicted when maxPodsToEvictPerNode is set to 1", line: 321,
			args: PodLifeTimeArgs{MaxPodLifeTimeSeconds: max600},
			pods: []*api.Pod{rs("p1", newer), rs("p2", older)}, perNode: ptr(uint(1)), want: []string{"p2"}, count: 1},
		{name: "Two pods, one with ContainerCreating state. 1 should be evicted.", line: 347, args: states("ContainerCreating"),
			pods: []*api.Pod{pending("p9", older), stuck("container-creating-stuck", "ContainerCreating")}, want: []string{"container-creating-stuck"}, count: 1},
		{name: "Two pods, one with PodInitializing state. 1 should be evicted.", line: 370, args: states("PodInitializing"),
			pods: []*api.Pod{pending("p9", older), stuck("pod-initializing-stuck", "PodInitializing")}, want: []string{"pod-initializing-stuck"}, count: 1},
		{name: "1 pod with container status ImagePullBackOff should be evicted", line: 393, args: states("ImagePullBackOff"),
			pods: []*api.Pod{pending("p9", older, waiting("ImagePullBackOff"))}, count: 1},
		{name: "1 pod with container status CrashLoopBackOff should be evicted", line: 413, args: states("CrashLoopBackOff"),
			pods: []*api.Pod{pending("p9", older, waiting("CrashLoopBackOff"))}, count: 1},
		{name: "1 pod with container status CreateContainerConfigError should be evicted", line: 433, args: states("CreateContainerConfigError"),
			pods: []*api.Pod{pending("p9", older, waiting("CreateContainerConfigError"))}, count: 1},
		{name: "1 pod with container status ErrImagePull should be evicted", line: 453, args: states("ErrImagePull"),
			pods: []*api.Pod{pending("p9", older, waiting("ErrImagePull"))}, count: 1},
		{name: "1 pod with init container status CreateContainerError should not be evicted without includingInitContainers", line: 473, args: states("CreateContainerError"),
			pods: []*api.Pod{pending("p9", older, initWaiting("CreateContainerError"))}, count: 0},
		{name: "1 pod with init container status CreateContainerError should be evicted with includingInitContainers", line: 493,
			args: PodLifeTimeArgs{MaxPodLifeTimeSeconds: max600, States: []string{"CreateContainerError"}, IncludingInitContainers: true},
			pods: []*api.Pod{pending("p9", older, initWaiting("CreateContainerError"))}, count: 1},
		{name: "1 pod with container status CreateContainerError should be evicted", line: 555, args: states("CreateContainerError"),
			pods: []*api.Pod{pending("p9", older, waiting("CreateContainerError"))}, count: 1},
		{name: "1 pod with container status InvalidImageName should be evicted", line: 575, args: states("InvalidImageName"),
			pods: []*api.Pod{pending("p9", older, waiting("InvalidImageName"))}, count: 1},
		{name: "1 pod with ImagePullBackOff status should be ignored when States filter is ContainerCreating", line: 595, args: states("ContainerCreating"),
			pods: []*api.Pod{pending("p9", older, waiting("ImagePullBackOff"))}, count: 0},
		{name: "1 pod with pod status reason NodeLost should be evicted", line: 627, args: states("NodeLost"),
			pods: []*api.Pod{pending("p9", older, reason("NodeLost"))}, count: 1},
		{name: "1 pod with pod status reason NodeAffinity should be evicted", line: 641, args: states("NodeAffinity"),
			pods: []*api.Pod{pending("p9", older, reason("NodeAffinity"))}, count: 1},
		{name: "1 pod with pod status reason Shutdown should be evicted", line: 655, args: states("Shutdown"),
			pods: []*api.Pod{pending("p9", older, reason("Shutdown"))}, count: 1},
		{name: "1 pod with pod status reason UnexpectedAdmissionError should be evicted", line: 669, args: states("UnexpectedAdmissionError"),
			pods: []*api.Pod{pending("p9", older, reason("UnexpectedAdmissionError"))}, count: 1},
		{name: "Two pods in the default namespace, 1 is new and 1 very is old. 1 should be evicted.", line: 695,
			args: PodLifeTimeArgs{MaxPodLifeTimeSeconds: max600}, pods: []*api.Pod{rs("p1", newer), rs("p2", older)}, want: []string{"p2"}, count: 1},
		{name: "Two pods in the default namespace, 2 are new and 0 are old. 0 should be evicted.", line: 708,
			args: PodLifeTimeArgs{MaxPodLifeTimeSeconds: max600}, pods: []*api.Pod{rs("p3", newer), rs("p4", newer)}, count: 0},
		{name: "Two pods in the default namespace, 1 created 605 seconds ago. 1 should be evicted.", line: 720,
			args: PodLifeTimeArgs{MaxPodLifeTimeSeconds: max600}, pods: []*api.Pod{rs("p5", newer), rs("p6", ago(605))}, want: []string{"p6"}, count: 1},
		{name: "Two pods in the default namespace, 1 created 595 seconds ago. 0 should be evicted.", line: 733,
			args: PodLifeTimeArgs{MaxPodLifeTimeSeconds: max600}, pods: []*api.Pod{bare("p7", newer), bare("p8", ago(595))}, count: 0},
		{name: "Two old pods with different states. 1 should be evicted.", line: 757, args: states("Pending"),
			pods: []*api.Pod{pending("p9", older), rs("p10", older, phase(api.PodRunning))}, want: []string{"p9"}, count: 1},
		{name: "1 pod with pod status phase v1.PodSucceeded should be evicted", line: 773, args: states(api.PodSucceeded),
			pods: []*api.Pod{rs("p16", older, phase(api.PodSucceeded))}, count: 1},
		{name: "1 pod with pod status phase v1.PodFailed should be evicted", line: 787, args: states(api.PodFailed),
			pods: []*api.Pod{rs("p16", older, phase(api.PodFailed))}, count: 1},
		{name: "1 pod with pod status phase v1.PodUnknown should be evicted", line: 801, args: states("Unknown"),
			pods: []*api.Pod{rs("p16", older, phase("Unknown"))}, count: 1},
		{name: "evict pod with matching terminated reason via states", line: 830, args: PodLifeTimeArgs{States: []string{"NodeAffinity"}},
			pods: []*api.Pod{rsNow("p1", phase(api.PodFailed), func(p *api.Pod) {
				p.Status.ContainerStatuses = []api.ContainerStatus{{State: terminated("NodeAffinity")}}
			})}, count: 1},
		{name: "evict pod with matching pod status reason via states", line: 846, args: PodLifeTimeArgs{States: []string{"Shutdown"}},
			pods: []*api.Pod{rsNow("p1", phase(api.PodFailed), reason("Shutdown"))}, count: 1},
		{name: "states matches terminated reason on init container", line: 860, args: PodLifeTimeArgs{States: []string{"CreateContainerConfigError"}, IncludingInitContainers: true},
			pods: []*api.Pod{rsNow("p1", func(p *api.Pod) {
				p.Status.InitContainerStatuses = []api.ContainerStatus{{State: terminated("CreateContainerConfigError")}}
			})}, count: 1},
		{name: "states does not match terminated reason on init container without flag", line: 876, args: PodLifeTimeArgs{States: []string{"CreateContainerConfigError"}},
			pods: []*api.Pod{rsNow("p1", func(p *api.Pod) {
				p.Status.InitContainerStatuses = []api.ContainerStatus{{State: terminated("CreateContainerConfigError")}}
			})}, count: 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pol := oneProfile(PodLifeTimeName, EvictorArgs{}, PluginArgs{PodLifeTime: tc.args})
			pol.MaxNoOfPodsToEvictPerNode, pol.MaxNoOfPodsToEvictPerNamespace, pol.MaxNoOfPodsToEvictTotal = tc.perNode, tc.perNS, tc.tot
			got := runDirect(t, pol, &State{Nodes: []*api.Node{buildNode("node1", 2000, 3000, 10)}, Pods: tc.pods})
			if len(got) != tc.count {
				t.Fatalf("pod_lifetime_test.go:%d: evicted %v, want %d", tc.line, got, tc.count)
			}
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Fatalf("pod_lifetime_test.go:%d: evicted %v, want %v among them", tc.line, got, tc.want)
				}
			}
		})
	}
}

// TestUpstreamPodLifeTimeFilters ports the tables for PodLifeTime's
// newer arguments (pod_lifetime_test.go): TestConditionFiltering (:898),
// TestTransitionTimeFiltering (:966), TestOwnerKindsFiltering (:1055),
// TestExitCodesFiltering (:1161) and TestCombinedFilters (:1206). buildPod
// (:79) is a ReplicaSet-owned 1m/1-byte pod, old; now is three hours in,
// oldTransitionTime two hours ago and newTransitionTime one minute ago (:44).
func TestUpstreamPodLifeTimeFilters(t *testing.T) {
	now := api.Time(3 * 3600e9)
	oldT, newT := now-api.Time(2*3600e9), now-api.Time(60e9)
	pod := func(name string, edit ...func(*api.Pod)) *api.Pod {
		return buildPod(name, 1, 1, "node1", append([]func(*api.Pod){rsOwner}, edit...)...)
	}
	conds := func(c ...api.Condition) func(*api.Pod) { return func(p *api.Pod) { p.Status.Conditions = c } }
	phase := func(ph string) func(*api.Pod) { return func(p *api.Pod) { p.Status.Phase = ph } }
	job := func(p *api.Pod) {
		p.OwnerReferences = []api.OwnerReference{{Kind: "Job", Name: "job1", APIVersion: "batch/v1"}}
	}
	exit := func(code int32, reason string) func(*api.Pod) {
		return func(p *api.Pod) {
			p.Status.ContainerStatuses = []api.ContainerStatus{{State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: code, Reason: reason}}}}
		}
	}
	five, four := ptr(uint(300)), ptr(uint(14400))
	cases := []struct {
		name  string
		line  int
		args  PodLifeTimeArgs
		pods  []*api.Pod
		count int
		want  []string
	}{
		{"evict pod with matching condition reason", 902, PodLifeTimeArgs{Conditions: []PodConditionFilter{{Reason: "PodCompleted", Status: "True"}}},
			[]*api.Pod{pod("p1", conds(api.Condition{Type: "Initialized", Status: "True", Reason: "PodCompleted", LastTransitionTime: oldT})),
				pod("p2", conds(api.Condition{Type: "Initialized", Status: "True", Reason: "OtherReason", LastTransitionTime: oldT}))}, 1, []string{"p1"}},
		{"evict pod matching condition type only", 925, PodLifeTimeArgs{Conditions: []PodConditionFilter{{Type: "Ready"}}},
			[]*api.Pod{pod("p1", conds(api.Condition{Type: "Ready", Status: "False", LastTransitionTime: oldT}))}, 1, nil},
		{"no matching conditions, 0 evictions", 942, PodLifeTimeArgs{Conditions: []PodConditionFilter{{Reason: "PodCompleted"}}},
			[]*api.Pod{pod("p1", conds(api.Condition{Type: "Ready", Status: "True", Reason: "SomethingElse"}))}, 0, nil},
		{"evict pod with old transition time", 973,
			PodLifeTimeArgs{States: []string{api.PodSucceeded}, Conditions: []PodConditionFilter{{Reason: "PodCompleted", Status: "True", MinTimeSinceLastTransitionSeconds: five}}},
			[]*api.Pod{pod("p1", phase(api.PodSucceeded), conds(api.Condition{Type: "Initialized", Status: "True", Reason: "PodCompleted", LastTransitionTime: oldT},
				api.Condition{Type: "Ready", Status: "False", Reason: "PodCompleted", LastTransitionTime: oldT}))}, 1, []string{"p1"}},
		{"do not evict pod with recent transition time", 994,
			PodLifeTimeArgs{States: []string{api.PodSucceeded}, Conditions: []PodConditionFilter{{MinTimeSinceLastTransitionSeconds: four}}},
			[]*api.Pod{pod("p1", phase(api.PodSucceeded), conds(api.Condition{Type: "Ready", Status: "False", LastTransitionTime: newT}))}, 0, nil},
		{"transition time scoped to matching conditions only", 1013,
			PodLifeTimeArgs{Conditions: []PodConditionFilter{{Reason: "PodCompleted", MinTimeSinceLastTransitionSeconds: five}}},
			[]*api.Pod{pod("p1", conds(api.Condition{Type: "Initialized", Reason: "PodCompleted", LastTransitionTime: oldT},
				api.Condition{Type: "Ready", Reason: "OtherReason", LastTransitionTime: newT}))}, 1, []string{"p1"}},
		{"no conditions on pod, transition time filter returns false", 1032,
			PodLifeTimeArgs{States: []string{api.PodRunning}, Conditions: []PodConditionFilter{{MinTimeSinceLastTransitionSeconds: five}}},
			[]*api.Pod{pod("p1", phase(api.PodRunning))}, 0, nil},
		{"exclude Job owner kind: Job-owned pod not evicted", 1059, PodLifeTimeArgs{States: []string{api.PodFailed}, OwnerKinds: &OwnerKinds{Exclude: []string{"Job"}}},
			[]*api.Pod{pod("p1", phase(api.PodFailed), job)}, 0, nil},
		{"exclude Job owner kind: non-Job pod still evicted", 1074, PodLifeTimeArgs{States: []string{api.PodFailed}, OwnerKinds: &OwnerKinds{Exclude: []string{"Job"}}},
			[]*api.Pod{pod("p1", phase(api.PodFailed), job), pod("p2", phase(api.PodFailed))}, 1, []string{"p2"}},
		{"include only Job owner kind", 1093, PodLifeTimeArgs{States: []string{api.PodFailed}, OwnerKinds: &OwnerKinds{Include: []string{"Job"}}},
			[]*api.Pod{pod("p1", phase(api.PodFailed), job), pod("p2", phase(api.PodFailed))}, 1, []string{"p1"}},
		{"evict pod with matching exit code", 1165, PodLifeTimeArgs{States: []string{api.PodFailed}, ExitCodes: []int32{1}},
			[]*api.Pod{pod("p1", phase(api.PodFailed), exit(1, ""))}, 1, nil},
		{"exit code not matched, 0 evictions", 1182, PodLifeTimeArgs{States: []string{api.PodFailed}, ExitCodes: []int32{2}},
			[]*api.Pod{pod("p1", phase(api.PodFailed), exit(1, ""))}, 0, nil},
		{"user scenario: Succeeded + PodCompleted condition + transition time threshold", 1212,
			PodLifeTimeArgs{States: []string{api.PodSucceeded}, Conditions: []PodConditionFilter{{Reason: "PodCompleted", Status: "True", MinTimeSinceLastTransitionSeconds: five}}},
			[]*api.Pod{
				pod("stale-completed", phase(api.PodSucceeded), conds(api.Condition{Type: "Initialized", Status: "True", Reason: "PodCompleted", LastTransitionTime: oldT},
					api.Condition{Type: "Ready", Status: "False", Reason: "PodCompleted", LastTransitionTime: oldT})),
				pod("recent-completed", phase(api.PodSucceeded), conds(api.Condition{Type: "Initialized", Status: "True", Reason: "PodCompleted", LastTransitionTime: newT})),
				pod("running-pod", phase(api.PodRunning)),
			}, 1, []string{"stale-completed"}},
		{"failed pod removal compat: Failed + min age + exclude Job", 1242,
			PodLifeTimeArgs{States: []string{api.PodFailed}, MaxPodLifeTimeSeconds: ptr(uint(0)), OwnerKinds: &OwnerKinds{Exclude: []string{"Job"}}},
			[]*api.Pod{pod("failed-rs", phase(api.PodFailed), exit(0, "Error")), pod("failed-job", phase(api.PodFailed), job)}, 1, []string{"failed-rs"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pol := oneProfile(PodLifeTimeName, EvictorArgs{}, PluginArgs{PodLifeTime: tc.args})
			got := runDirect(t, pol, &State{Now: now, Nodes: []*api.Node{buildNode("node1", 2000, 3000, 10)}, Pods: tc.pods})
			if len(got) != tc.count {
				t.Fatalf("pod_lifetime_test.go:%d: evicted %v, want %d", tc.line, got, tc.count)
			}
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Fatalf("pod_lifetime_test.go:%d: evicted %v, want %v among them", tc.line, got, tc.want)
				}
			}
		})
	}
}

// TestUpstreamPodLifeTimeValidation ports TestValidation
// (pod_lifetime_test.go:1272), all 13 cases, through Policy.Validate
// with PodLifeTime enabled.
func TestUpstreamPodLifeTimeValidation(t *testing.T) {
	cases := []struct {
		name    string
		line    int
		args    PodLifeTimeArgs
		wantErr bool
	}{
		{"valid: states set", 1279, PodLifeTimeArgs{States: []string{"Running"}}, false},
		{"valid: conditions set", 1284, PodLifeTimeArgs{Conditions: []PodConditionFilter{{Reason: "PodCompleted"}}}, false},
		{"valid: maxPodLifeTimeSeconds set", 1289, PodLifeTimeArgs{MaxPodLifeTimeSeconds: ptr(uint(600))}, false},
		{"valid: states with maxPodLifeTimeSeconds", 1294, PodLifeTimeArgs{States: []string{"Running"}, MaxPodLifeTimeSeconds: ptr(uint(600))}, false},
		{"valid: states with conditions", 1299, PodLifeTimeArgs{States: []string{"Succeeded"}, Conditions: []PodConditionFilter{{Reason: "PodCompleted"}}}, false},
		{"valid: exitCodes only", 1304, PodLifeTimeArgs{ExitCodes: []int32{1}}, false},
		{"valid: condition with minTimeSinceLastTransitionSeconds", 1309,
			PodLifeTimeArgs{Conditions: []PodConditionFilter{{Reason: "PodCompleted", MinTimeSinceLastTransitionSeconds: ptr(uint(300))}}}, false},
		{"valid: condition with only minTimeSinceLastTransitionSeconds", 1316,
			PodLifeTimeArgs{Conditions: []PodConditionFilter{{MinTimeSinceLastTransitionSeconds: ptr(uint(300))}}}, false},
		{"invalid: no filter criteria", 1323, PodLifeTimeArgs{}, true},
		{"invalid: both include and exclude namespaces", 1328,
			PodLifeTimeArgs{States: []string{"Running"}, Namespaces: &Namespaces{Include: []string{"a"}, Exclude: []string{"b"}}}, true},
		{"invalid: both include and exclude ownerKinds", 1336,
			PodLifeTimeArgs{States: []string{"Running"}, OwnerKinds: &OwnerKinds{Include: []string{"Job"}, Exclude: []string{"ReplicaSet"}}}, true},
		{"invalid: bad state name", 1344, PodLifeTimeArgs{States: []string{"NotAState"}}, true},
		{"invalid: empty condition filter", 1349, PodLifeTimeArgs{Conditions: []PodConditionFilter{{}}}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			errs := oneProfile(PodLifeTimeName, EvictorArgs{}, PluginArgs{PodLifeTime: tc.args}).Validate()
			if (len(errs) > 0) != tc.wantErr {
				t.Fatalf("pod_lifetime_test.go:%d: errors %v, want error %t", tc.line, errs, tc.wantErr)
			}
		})
	}
	// Not enabled, empty args are fine (the plugin's args are only
	// checked for a criterion when it runs).
	if errs := oneProfile(FailedPodsName, EvictorArgs{}, PluginArgs{}).Validate(); len(errs) > 0 {
		t.Fatalf("errors %v for a policy without PodLifeTime", errs)
	}
}
