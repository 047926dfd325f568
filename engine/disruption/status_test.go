package disruption

import (
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

func readyPod(name string, ready bool, owner string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "web"}}}
	st := api.ConditionFalse
	if ready {
		st = api.ConditionTrue
	}
	p.Status.Phase = api.PodRunning
	p.Status.Conditions = []api.Condition{{Type: api.PodReady, Status: st}}
	if owner != "" {
		p.OwnerReferences = []api.OwnerReference{{Kind: "ReplicaSet", Name: owner, UID: owner, Controller: true}}
	}
	return p
}

func intStr(s string) *api.IntOrString { return &api.IntOrString{IsString: true, StrVal: s} }
func intVal(v int32) *api.IntOrString  { return &api.IntOrString{IntVal: v} }

func scaleOf(scales map[string]int32) ScaleFunc {
	return func(ns string, ref api.OwnerReference) (string, int32, bool) {
		s, ok := scales[ref.UID]
		return ref.UID, s, ok
	}
}

func TestComputeStatusAsTheDisruptionController(t *testing.T) {
	three := []*api.Pod{readyPod("a", true, "rs"), readyPod("b", true, "rs"), readyPod("c", false, "rs")}
	cases := []struct {
		name                                string
		min, max                            *api.IntOrString
		pods                                []*api.Pod
		scales                              map[string]int32
		expected, desired, healthy, allowed int32
		err                                 bool
	}{
		// an integer minAvailable expects the matching pods, whatever the scale
		{"minAvailable int", intVal(2), nil, three, map[string]int32{"rs": 5}, 3, 2, 2, 0, false},
		// a percentage uses the controller's scale (5), rounding up
		{"minAvailable 50%", intStr("50%"), nil, three, map[string]int32{"rs": 5}, 5, 3, 2, 0, false},
		{"minAvailable 30%", intStr("30%"), nil, three, map[string]int32{"rs": 5}, 5, 2, 2, 0, false},
		// maxUnavailable 1 of scale 3: desired 2
		{"maxUnavailable 1", nil, intVal(1), three, map[string]int32{"rs": 3}, 3, 2, 2, 0, false},
		{"maxUnavailable 50% of 4", nil, intStr("50%"), three, map[string]int32{"rs": 4}, 4, 2, 2, 0, false},
		{"maxUnavailable allows", nil, intVal(1), []*api.Pod{readyPod("a", true, "rs"), readyPod("b", true, "rs"), readyPod("c", true, "rs")}, map[string]int32{"rs": 3}, 3, 2, 3, 1, false},
		// a percentage over a pod whose controller has no scale fails safe
		{"no controller found", intStr("50%"), nil, three, map[string]int32{}, 0, 0, 0, 0, true},
		// unmanaged pods do not count towards a scaled expectation
		{"unmanaged pod", nil, intVal(0), []*api.Pod{readyPod("a", true, "rs"), readyPod("bare", true, "")}, map[string]int32{"rs": 1}, 1, 1, 2, 1, false},
		// no pods at all: nothing allowed
		{"no pods", intVal(0), nil, nil, nil, 0, 0, 0, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pdb := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"},
				Spec: api.PDBSpec{MinAvailable: tc.min, MaxUnavailable: tc.max}}
			r := ComputeStatus(pdb, tc.pods, scaleOf(tc.scales), 0)
			if (r.Err != nil) != tc.err {
				t.Fatalf("err %v", r.Err)
			}
			if tc.err {
				if r.Status.DisruptionsAllowed != 0 {
					t.Fatal("failSafe must allow nothing")
				}
				return
			}
			s := r.Status
			if s.ExpectedPods != tc.expected || s.DesiredHealthy != tc.desired || s.CurrentHealthy != tc.healthy || s.DisruptionsAllowed != tc.allowed {
				t.Fatalf("got expected=%d desired=%d healthy=%d allowed=%d", s.ExpectedPods, s.DesiredHealthy, s.CurrentHealthy, s.DisruptionsAllowed)
			}
		})
	}
}

func TestDisruptedPodsDoNotCountUntilTimeout(t *testing.T) {
	pods := []*api.Pod{readyPod("a", true, "rs"), readyPod("b", true, "rs")}
	pdb := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"},
		Spec: api.PDBSpec{MinAvailable: intVal(1)}}
	pdb.Status.DisruptedPods = map[string]api.Time{"a": 0}
	r := ComputeStatus(pdb, pods, nil, api.Time(time.Minute))
	if r.Status.CurrentHealthy != 1 || len(r.Status.DisruptedPods) != 1 {
		t.Fatalf("within the timeout: %+v", r.Status)
	}
	r = ComputeStatus(pdb, pods, nil, api.Time(3*time.Minute))
	if r.Status.CurrentHealthy != 2 || len(r.Status.DisruptedPods) != 0 {
		t.Fatalf("after the timeout: %+v", r.Status)
	}
}

func TestDecideEviction(t *testing.T) {
	budget := func(allowed, healthy, desired int32, policy string) *api.PodDisruptionBudget {
		b := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
			Spec:   api.PDBSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
			Status: api.PDBStatus{DisruptionsAllowed: allowed, CurrentHealthy: healthy, DesiredHealthy: desired}}
		if policy != "" {
			b.Spec.UnhealthyPodEvictionPolicy = &policy
		}
		return b
	}
	pending := readyPod("p", false, "rs")
	pending.Status.Phase = api.PodPending
	cases := []struct {
		name      string
		pod       *api.Pod
		budgets   []*api.PodDisruptionBudget
		allowed   bool
		code      int
		decrement bool
		cause     string
	}{
		{"no budget", readyPod("a", true, "rs"), nil, true, 201, false, ""},
		{"budget allows", readyPod("a", true, "rs"), []*api.PodDisruptionBudget{budget(1, 3, 2, "")}, true, 201, true, ""},
		{"budget exhausted", readyPod("a", true, "rs"), []*api.PodDisruptionBudget{budget(0, 2, 2, "")}, false, 429, false,
			"The disruption budget web needs 2 healthy pods and has 2 currently"},
		{"pending pods ignore budgets", pending, []*api.PodDisruptionBudget{budget(0, 2, 2, "")}, true, 201, false, ""},
		{"unready pod, healthy budget", readyPod("a", false, "rs"), []*api.PodDisruptionBudget{budget(0, 2, 2, "")}, true, 201, false, ""},
		{"unready pod, unhealthy budget", readyPod("a", false, "rs"), []*api.PodDisruptionBudget{budget(0, 1, 2, "")}, false, 429, false,
			"The disruption budget web needs 2 healthy pods and has 1 currently"},
		{"unready pod, AlwaysAllow", readyPod("a", false, "rs"), []*api.PodDisruptionBudget{budget(0, 1, 2, "AlwaysAllow")}, true, 201, false, ""},
		{"two budgets", readyPod("a", true, "rs"), []*api.PodDisruptionBudget{budget(1, 3, 2, ""), budget(1, 3, 2, "")}, false, 500, false, ""},
	}
	for _, tc := range cases {
		d := DecideEviction(tc.pod, tc.budgets)
		if d.Allowed != tc.allowed || d.Code != tc.code || d.Decrement != tc.decrement || d.Cause != tc.cause {
			t.Errorf("%s: got %+v", tc.name, d)
		}
		if d.Code == 429 && d.Message != MessageViolatesBudget {
			t.Errorf("%s: message %q", tc.name, d.Message)
		}
	}
}

func TestBudgetsForIgnoresEmptySelectors(t *testing.T) {
	p := readyPod("a", true, "rs")
	empty := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "all", Namespace: "default"}, Spec: api.PDBSpec{Selector: &api.LabelSelector{}}}
	other := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "other"}, Spec: api.PDBSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	match := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}, Spec: api.PDBSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	got := BudgetsFor(p, []*api.PodDisruptionBudget{empty, other, match})
	if len(got) != 1 || got[0] != match {
		t.Fatalf("got %v", got)
	}
}
