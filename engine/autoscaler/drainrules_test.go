package autoscaler

import (
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

// After cluster-autoscaler utils/drain/drain_test.go
// TestGetPodsForDeletionOnNodeDrain and simulator/drainability/rules:
// which pods move, which stay with the node, which block it.
func TestPodDrainability(t *testing.T) {
	now := api.Time(10 * time.Minute)
	owned := func(kind string) *api.Pod {
		p := pod("p", "100m", "0", "owner")
		p.OwnerReferences[0].Kind = kind
		return p
	}
	naked := func() *api.Pod { return pod("p", "100m", "0", "") }
	ann := func(p *api.Pod, v string) *api.Pod {
		p.Annotations = map[string]string{SafeToEvictAnnotation: v}
		return p
	}
	ns := func(p *api.Pod, n string) *api.Pod { p.Namespace = n; return p }
	deleted := func(p *api.Pod, at time.Duration, grace int64) *api.Pod {
		t := api.Time(at)
		p.DeletionTimestamp = &t
		p.Spec.TerminationGracePeriodSeconds = &grace
		return p
	}
	failed := func(p *api.Pod) *api.Pod { p.Status.Phase = "Failed"; return p }
	ksPDB := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "ks", Namespace: "kube-system"}}
	ksPDB.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	for _, tc := range []struct {
		name    string
		pod     *api.Pod
		pdbs    []*api.PodDisruptionBudget
		move    bool
		blocked BlockingReason
	}{
		{"ReplicaSet pod moves", owned("ReplicaSet"), nil, true, ""},
		{"StatefulSet pod moves", owned("StatefulSet"), nil, true, ""},
		{"Job pod moves", owned("Job"), nil, true, ""},
		{"DaemonSet pod stays with the node", owned("DaemonSet"), nil, false, ""},
		{"naked pod blocks", naked(), nil, false, NotReplicated},
		{"naked pod safe-to-evict=true moves", ann(naked(), "true"), nil, true, ""},
		{"replicated pod safe-to-evict=false blocks", ann(owned("ReplicaSet"), "false"), nil, false, NotSafeToEvictAnnotation},
		{"kube-system pod without a PDB blocks", ns(owned("ReplicaSet"), "kube-system"), nil, false, UnmovableKubeSystemPod},
		{"kube-system pod with a PDB moves", ns(owned("ReplicaSet"), "kube-system"), []*api.PodDisruptionBudget{ksPDB}, true, ""},
		{"kube-system pod safe-to-evict=true moves", ann(ns(owned("ReplicaSet"), "kube-system"), "true"), nil, true, ""},
		{"failed naked pod is ignored", failed(naked()), nil, false, ""},
		{"long-terminating pod is ignored", deleted(naked(), time.Minute, 30), nil, false, ""},
		{"pod being deleted is not moved", deleted(owned("ReplicaSet"), 9*time.Minute+50*time.Second, 30), nil, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := podDrainability(tc.pod, true, tc.pdbs, now)
			if v.Move != tc.move || v.Blocked != tc.blocked {
				t.Fatalf("got move=%v blocked=%q (%s), want move=%v blocked=%q", v.Move, v.Blocked, v.Message, tc.move, tc.blocked)
			}
		})
	}
	if v := podDrainability(ns(owned("ReplicaSet"), "kube-system"), false, nil, now); !v.Move {
		t.Error("with --skip-nodes-with-system-pods=false a kube-system pod moves")
	}
}

// The pdb rule (simulator/drainability/rules/pdb): a budget with no
// disruption left blocks; the tracker counts what a loop already took.
func TestPDBTracker(t *testing.T) {
	b := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}}
	b.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	b.Status.DisruptionsAllowed = 1
	tr := newPDBTracker([]*api.PodDisruptionBudget{b})
	p1, p2 := pod("a", "1", "0", "rs"), pod("b", "1", "0", "rs")
	if _, blocked := tr.blocks([]*api.Pod{p1}); blocked {
		t.Fatal("one disruption allowed: one pod may move")
	}
	if v, blocked := tr.blocks([]*api.Pod{p1, p2}); !blocked || v.Message != "not enough pod disruption budget to move default/b" {
		t.Fatalf("two pods of a budget allowing one: %+v", v)
	}
	tr.take([]*api.Pod{p1})
	if _, blocked := tr.blocks([]*api.Pod{p2}); !blocked {
		t.Fatal("the loop already used the budget's disruption")
	}
}
