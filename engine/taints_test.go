package engine

import (
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

func TestUnreachableNodeEvictsAfterDefaultTolerationSeconds(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.AddNode(node("n1", "4", "8Gi")))
	must(t, e.AddNode(node("n2", "4", "8Gi")))
	short := int64(60)
	p := pod("patient").on("n1").obj()
	p.Spec.Tolerations = []api.Toleration{{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &short}}
	must(t, e.CreatePod(p))
	must(t, e.CreatePod(pod("default-tol").on("n1").obj()))
	forever := pod("forever").on("n1").obj()
	forever.Spec.Tolerations = []api.Toleration{{Operator: api.TolerationOpExists}}
	must(t, e.CreatePod(forever))
	if got := len(e.Pod("default/default-tol").Spec.Tolerations); got != 2 {
		t.Fatalf("DefaultTolerationSeconds added %d tolerations, want 2", got)
	}
	must(t, e.Step(10*time.Second))
	must(t, e.SetNodeCondition("n1", NodeConditionUnreachable))
	must(t, e.Step(400*time.Second))
	wantLines(t, eventLines(e.Events(), ReasonTaintManagerEviction, ReasonNodeNotReady), []string{
		"10s NodeNotReady node/n1: Node n1 status is now: NodeNotReady",
		"10s NodeNotReady pod/default/default-tol: Node is not ready",
		"10s NodeNotReady pod/default/forever: Node is not ready",
		"10s NodeNotReady pod/default/patient: Node is not ready",
		"70s TaintManagerEviction pod/default/patient: Marking for deletion Pod default/patient",
		"310s TaintManagerEviction pod/default/default-tol: Marking for deletion Pod default/default-tol",
	})
	// the unreachable kubelet never confirms: the pods stay Terminating
	for _, k := range []string{"default/patient", "default/default-tol"} {
		if st, _ := e.PodState(k); st != StateTerminating {
			t.Fatalf("%s is %s, want Terminating on an unreachable node", k, st)
		}
		if c := e.Pod(k).Condition(api.DisruptionTarget); c == nil || c.Reason != ReasonDeletionByTaintManager {
			t.Fatalf("%s DisruptionTarget %+v", k, c)
		}
	}
	// the node comes back: the kubelet finishes the kills
	must(t, e.SetNodeCondition("n1", NodeConditionReady))
	must(t, e.Step(5*time.Second))
	if e.Pod("default/patient") != nil || e.Pod("default/default-tol") != nil {
		t.Fatal("pods not removed after the node came back")
	}
	if st, _ := e.PodState("default/forever"); st != StateRunning {
		t.Fatalf("forever-tolerating pod %s", st)
	}
}

func TestNoExecuteTaintCancelledWhenRemoved(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.AddNode(node("n1", "4", "8Gi")))
	must(t, e.CreatePod(pod("a").on("n1").obj()))
	must(t, e.SetNodeCondition("n1", NodeConditionNotReady))
	must(t, e.Step(100*time.Second))
	must(t, e.SetNodeCondition("n1", NodeConditionReady))
	must(t, e.Step(400*time.Second))
	wantLines(t, eventLines(e.Events(), ReasonTaintManagerEviction), []string{
		"100s TaintManagerEviction pod/default/a: Cancelling deletion of Pod default/a",
	})
	if c := e.Pod("default/a").Condition(api.PodReady); c == nil || c.Status != api.ConditionTrue {
		t.Fatalf("pod not Ready again: %+v", c)
	}
	// an untolerated NoExecute taint evicts at once
	must(t, e.TaintNode("n1", api.Taint{Key: "dedicated", Value: "gpu", Effect: api.TaintEffectNoExecute}))
	wantLines(t, eventLines(e.EventsSince(0), ReasonTaintManagerEviction)[1:], []string{
		"500s TaintManagerEviction pod/default/a: Marking for deletion Pod default/a",
	})
}
