package engine

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"podlab.dev/podlab/engine/admission"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
)

// gatedPod is the "Pod Scheduling Readiness" docs page's test-pod: two
// gates, example.com/foo and example.com/bar.
func gatedPod(name string) *api.Pod {
	p := pod(name).req("100m", "64Mi").obj()
	p.Spec.SchedulingGates = []string{"example.com/foo", "example.com/bar"}
	return p
}

// gatesOff is the default profile with SchedulingGates disabled: gated
// pods are attempted, and their bindings refused.
var gatesOff = scheduler.ProfileConfig{Plugins: &scheduler.Plugins{MultiPoint: scheduler.PluginSet{Disabled: []string{"SchedulingGates"}}}}

// A gated pod is never attempted: SchedulingGates' PreEnqueue
// (plugins/schedulinggates/scheduling_gates.go:48) rejects it, so
// moveToActiveQ (backend/queue/scheduling_queue.go:684) keeps it in the
// unschedulable pool — no FailedScheduling event, not even after the
// 5-minute flush (flushUnschedulablePodsLeftover's wildcard event does
// not match the gating plugin's Pod/Update event,
// scheduling_queue.go:1316) or a node joining; its PodScheduled
// condition keeps admission's SchedulingGated reason
// (pkg/registry/core/pod/strategy.go:929).
func TestGatedPodIsNeverAttempted(t *testing.T) {
	e := newDefaultEngine()
	must(t, e.AddNode(node("node-1", "4", "8Gi")))
	must(t, e.CreatePod(gatedPod("test-pod")))
	must(t, e.RunUntil(sec(400)))
	must(t, e.AddNode(node("node-2", "4", "8Gi")))
	must(t, e.RunUntil(sec(700)))
	if st, _ := e.PodState("default/test-pod"); st != StatePending {
		t.Fatalf("test-pod is %s, want Pending", st)
	}
	if n := len(objectEvents(e, ReasonFailedScheduling, "pod/default/test-pod")); n != 0 {
		t.Errorf("%d FailedScheduling events for a gated pod, want none", n)
	}
	c := e.Pod("default/test-pod").Condition(api.PodScheduled)
	if c == nil || c.Status != api.ConditionFalse || c.Reason != admission.ReasonSchedulingGated || c.Message != admission.MessageSchedulingGated {
		t.Errorf("PodScheduled %+v, want False/SchedulingGated", c)
	}
	g := e.SchedulingGate("default/test-pod")
	if g == nil || g.Plugin != "SchedulingGates" || g.Message() != "waiting for scheduling gates: [example.com/foo example.com/bar]" {
		t.Errorf("gate %+v, want SchedulingGates: waiting for scheduling gates: [example.com/foo example.com/bar]", g)
	}
	if snap := e.Snapshot(); len(snap.Pending) != 1 || snap.Pending[0].Message != g.Message() {
		t.Errorf("snapshot pending %+v, want the gate's message", snap.Pending)
	}
	if pi := e.queue.Pop(e.Now()); pi != nil {
		t.Errorf("the queue popped %s: a gated pod is not in activeQ", pi.Pod.Key())
	}
}

// Removing one of two gates is a pod update that leaves the pod gated
// (PreEnqueue runs again and still rejects it, with the gate left);
// removing the last one is UpdatePodSchedulingGatesEliminated
// (framework/events.go:146): PreEnqueue passes, the pod enters activeQ
// and is scheduled at once.
func TestRemovingTheLastGateSchedulesThePod(t *testing.T) {
	e := newDefaultEngine()
	must(t, e.AddNode(node("node-1", "4", "8Gi")))
	must(t, e.CreatePod(gatedPod("test-pod")))
	must(t, e.RunUntil(sec(10)))
	must(t, e.RemoveSchedulingGates("default/test-pod", "example.com/foo"))
	must(t, e.RunUntil(sec(20)))
	if st, _ := e.PodState("default/test-pod"); st != StatePending {
		t.Fatalf("after removing one gate test-pod is %s, want Pending", st)
	}
	if g := e.SchedulingGate("default/test-pod"); g == nil || g.Message() != "waiting for scheduling gates: [example.com/bar]" {
		t.Errorf("gate %+v, want waiting for scheduling gates: [example.com/bar]", g)
	}
	if got := e.Pod("default/test-pod").Spec.SchedulingGates; len(got) != 1 || got[0] != "example.com/bar" {
		t.Errorf("gates %v, want [example.com/bar]", got)
	}
	must(t, e.RemoveSchedulingGates("default/test-pod", "example.com/bar"))
	p := e.Pod("default/test-pod")
	if p.Spec.NodeName != "node-1" {
		t.Fatalf("after removing the last gate test-pod is on %q, want node-1", p.Spec.NodeName)
	}
	if c := p.Condition(api.PodScheduled); c == nil || c.Status != api.ConditionTrue || c.LastTransitionTime != sec(20) {
		t.Errorf("PodScheduled %+v, want True at 20s", c)
	}
	if n := len(objectEvents(e, ReasonFailedScheduling, "pod/default/test-pod")); n != 0 {
		t.Errorf("%d FailedScheduling events, want none", n)
	}
}

// RemoveSchedulingGates with no name removes every gate; a name the pod
// does not have is refused (only deletion of existing gates is an update
// the API server takes), as is a pod without gates.
func TestRemoveSchedulingGatesErrors(t *testing.T) {
	e := newDefaultEngine()
	must(t, e.AddNode(node("node-1", "4", "8Gi")))
	must(t, e.CreatePod(gatedPod("a")))
	must(t, e.CreatePod(pod("plain").obj()))
	var ge *GateError
	if err := e.RemoveSchedulingGates("default/a", "example.com/baz"); !errors.As(err, &ge) || ge.Gate != "example.com/baz" || len(ge.Gates) != 2 {
		t.Errorf("unknown gate: %v, want a GateError naming it and the pod's two gates", err)
	}
	if err := e.RemoveSchedulingGates("default/plain"); !errors.As(err, &ge) || len(ge.Gates) != 0 {
		t.Errorf("pod without gates: %v, want a GateError", err)
	}
	if err := e.RemoveSchedulingGates("default/nope"); err == nil {
		t.Errorf("missing pod: no error")
	}
	must(t, e.RemoveSchedulingGates("default/a"))
	if n := e.Pod("default/a").Spec.NodeName; n != "node-1" {
		t.Errorf("after removing all gates a is on %q, want node-1", n)
	}
}

// A profile that disables SchedulingGates does not gate: the pod is
// attempted, a node is found, and the API server refuses the binding
// (pkg/registry/core/pod/storage/storage.go:242 "has non-empty
// .spec.schedulingGates"); handleBindingCycleError hands the error to
// handleSchedulingFailure (schedule_one.go:535): FailedScheduling,
// PodScheduled=False reason SchedulerError, and the pod retries after
// its error backoff, again and again. Re-enabling the plugin (a
// restarted scheduler) gates it again.
func TestDisabledSchedulingGatesBindingIsRefused(t *testing.T) {
	e := New(Config{Seed: 1, NewScheduler: profilesFactory(gatesOff)})
	must(t, e.AddNode(node("node-1", "4", "8Gi")))
	must(t, e.CreatePod(gatedPod("test-pod")))
	must(t, e.RunUntil(sec(30)))
	p := e.Pod("default/test-pod")
	if p.Spec.NodeName != "" {
		t.Fatalf("a gated pod was bound to %s", p.Spec.NodeName)
	}
	want := `running Bind plugin "DefaultBinder": pod test-pod has non-empty .spec.schedulingGates`
	if msg := lastFailedScheduling(e, "pod/default/test-pod"); msg != want {
		t.Errorf("FailedScheduling %q, want %q", msg, want)
	}
	// the error backoff's retries (see TestNoNodesRetriesFollowTheErrorBackoff)
	s := time.Second
	if got, want := failedSchedulingTimes(t, e, "pod/default/test-pod", want), []time.Duration{0, 2 * s, 5 * s, 10 * s, 19 * s, 30 * s}; !reflect.DeepEqual(got, want) {
		t.Errorf("attempts at %v, want %v", got, want)
	}
	if c := p.Condition(api.PodScheduled); c == nil || c.Reason != api.PodReasonSchedulerError || c.Message != want {
		t.Errorf("PodScheduled %+v, want False/SchedulerError", c)
	}
	if e.SchedulingGate("default/test-pod") != nil {
		t.Errorf("gated although the profile disables SchedulingGates")
	}

	e.SetScheduler(profilesFactory(scheduler.ProfileConfig{}))
	before := len(objectEvents(e, ReasonFailedScheduling, "pod/default/test-pod"))
	must(t, e.RunUntil(sec(120)))
	if g := e.SchedulingGate("default/test-pod"); g == nil {
		t.Errorf("not gated after the default profile came back")
	}
	if n := len(objectEvents(e, ReasonFailedScheduling, "pod/default/test-pod")); n != before {
		t.Errorf("%d more attempts after re-enabling SchedulingGates, want none", n-before)
	}
	must(t, e.RemoveSchedulingGates("default/test-pod"))
	if n := e.Pod("default/test-pod").Spec.NodeName; n != "node-1" {
		t.Errorf("ungated pod on %q, want node-1", n)
	}
}

// A clone carries the gated state: the clone's pod stays gated in its
// own queue, and ungating it there leaves the original gated.
func TestCloneKeepsThePodGated(t *testing.T) {
	e := newDefaultEngine()
	must(t, e.AddNode(node("node-1", "4", "8Gi")))
	must(t, e.CreatePod(gatedPod("test-pod")))
	c := e.Clone()
	must(t, c.RunUntil(sec(400)))
	if g := c.SchedulingGate("default/test-pod"); g == nil {
		t.Fatalf("the clone's pod is not gated")
	}
	if n := len(objectEvents(c, ReasonFailedScheduling, "pod/default/test-pod")); n != 0 {
		t.Errorf("the clone attempted the gated pod %d times", n)
	}
	must(t, c.RemoveSchedulingGates("default/test-pod"))
	if n := c.Pod("default/test-pod").Spec.NodeName; n != "node-1" {
		t.Errorf("clone: ungated pod on %q, want node-1", n)
	}
	if g := e.SchedulingGate("default/test-pod"); g == nil || len(e.Pod("default/test-pod").Spec.SchedulingGates) != 2 {
		t.Errorf("ungating in the clone reached the original")
	}
}

// The SchedulingGated condition admission adds is stamped with the
// creation time (applySchedulingGatedCondition's
// podutil.UpdatePodCondition, pkg/registry/core/pod/strategy.go:941).
func TestSchedulingGatedConditionTime(t *testing.T) {
	e := newDefaultEngine()
	must(t, e.RunUntil(sec(60)))
	must(t, e.CreatePod(gatedPod("g")))
	c := e.Pod("default/g").Condition(api.PodScheduled)
	if c == nil || c.Reason != admission.ReasonSchedulingGated || c.LastTransitionTime != sec(60) {
		t.Errorf("PodScheduled %+v, want SchedulingGated at 60s", c)
	}
}
