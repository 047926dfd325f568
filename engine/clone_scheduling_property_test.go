package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
	"podlab.dev/podlab/engine/scheduler"
)

// Random scheduling histories exercise the queue's newer parts together:
// gated pods and their ungating, error pods in podErrorBackoffQ (no nodes,
// bindings refused while a profile switches SchedulingGates off),
// preemption with slow-terminating victims and nominations, nodes coming
// and going, and scheduler restarts. Each history is checked for clone
// isolation and for the nominator agreeing with the pods' status.

// schedOp is one step of a random history: an action, then time passing.
type schedOp struct {
	kind, a, b int
	dt         time.Duration
}

func schedOps(seed uint64, n int) []schedOp {
	r := rand.New(rand.NewPCG(seed, 7))
	out := make([]schedOp, n)
	for i := range out {
		// a quarter of the steps take no time: several actions at one instant
		out[i] = schedOp{kind: r.IntN(8), a: r.IntN(12), b: r.IntN(4), dt: time.Duration(max(0, r.IntN(16000)-4000)) * time.Millisecond}
	}
	return out
}

func newSchedPropEngine(t *testing.T) *Engine {
	e := New(Config{Seed: 3, NewScheduler: profilesFactory(scheduler.ProfileConfig{})})
	addPrioClasses(t, e, 0, 1, 2)
	return e
}

func applySchedOp(t *testing.T, e *Engine, o schedOp) {
	t.Helper()
	name := fmt.Sprintf("p%d", o.a)
	key := "default/" + name
	switch o.kind {
	case 0, 1: // create, gated for kind 1; even pods stop slowly
		if e.Pod(key) != nil {
			break
		}
		p := pod(name).req(fmt.Sprintf("%dm", 500+o.b*700), "64Mi").prio(int32(o.b % 3)).obj()
		if o.kind == 1 {
			p.Spec.SchedulingGates = []string{"a", "b"}
		}
		if o.a%2 == 0 {
			p.Annotations[kubelet.AnnotationTerminateAfter] = fmt.Sprintf("%ds", 3+o.b*4)
			p.Spec.TerminationGracePeriodSeconds = i64(20)
		}
		_ = e.CreatePod(p)
	case 2: // ungate: all gates or the first
		if p := e.Pod(key); p != nil && len(p.Spec.SchedulingGates) > 0 {
			if o.b%2 == 0 {
				_ = e.RemoveSchedulingGates(key)
			} else {
				_ = e.RemoveSchedulingGates(key, p.Spec.SchedulingGates[0])
			}
		}
	case 3: // a node joins, or leaves
		n := fmt.Sprintf("n%d", o.b)
		if e.Node(n) == nil {
			_ = e.AddNode(node(n, "2", "4Gi"))
		} else if o.a%3 == 0 {
			_ = e.RemoveNode(n)
		}
	case 4:
		if e.Pod(key) != nil {
			_ = e.DeletePod(key, DeleteOptions{GracePeriodSeconds: i64(int64(o.b))})
		}
	case 5: // restart the scheduler, SchedulingGates off or on
		if o.b%2 == 0 {
			e.SetScheduler(profilesFactory(gatesOff))
		} else {
			e.SetScheduler(profilesFactory(scheduler.ProfileConfig{}))
		}
	}
	must(t, e.RunUntil(e.Now().Add(o.dt)))
}

// schedState is everything observable the histories change: events, each
// pod's state, condition, gates, gate and nomination, and the queue.
func schedState(e *Engine) string {
	var b strings.Builder
	for _, ev := range e.Events() {
		fmt.Fprintf(&b, "%v %s %s %s\n", time.Duration(ev.Time), ev.Reason, ev.Object, ev.Message)
	}
	for _, p := range e.Pods() {
		st, _ := e.PodState(p.Key())
		fmt.Fprintf(&b, "%s %s %s %v %+v gate=%v nominated=%s/%s\n", p.Key(), st, p.Spec.NodeName, p.Spec.SchedulingGates,
			p.Condition(api.PodScheduled), e.SchedulingGate(p.Key()), p.Status.NominatedNodeName, e.sched.Nominator().NominatedNodeOf(p.Key()))
	}
	for _, qp := range e.queue.Pending() {
		fmt.Fprintf(&b, "queued %s %s %d %d %v\n", qp.Info.Pod.Key(), qp.Where, qp.UnschedulableCount, qp.ErrorCount, qp.Timestamp)
	}
	return b.String()
}

// A clone taken anywhere in a history and driven through another history
// leaves the original ending exactly as a twin never cloned; a clone
// driven through the same history (while the original goes elsewhere)
// ends as that twin too.
func TestCloneIsolationOverRandomSchedulingHistories(t *testing.T) {
	const steps = 60
	for seed := uint64(1); seed <= 60; seed++ {
		ops, other := schedOps(seed, steps), schedOps(seed+1000, steps)
		ref := newSchedPropEngine(t)
		for _, o := range ops {
			applySchedOp(t, ref, o)
		}
		want := schedState(ref)
		cut := int(seed*7) % steps

		e := newSchedPropEngine(t)
		for _, o := range ops[:cut] {
			applySchedOp(t, e, o)
		}
		c := e.Clone()
		for i, o := range ops[cut:] {
			applySchedOp(t, e, o)
			applySchedOp(t, c, other[i])
		}
		if got := schedState(e); got != want {
			t.Fatalf("seed %d: the original, its clone driven apart at step %d\n%s", seed, cut, firstDiff(got, want))
		}

		e = newSchedPropEngine(t)
		for _, o := range ops[:cut] {
			applySchedOp(t, e, o)
		}
		c = e.Clone()
		for i, o := range ops[cut:] {
			applySchedOp(t, c, o)
			applySchedOp(t, e, other[i])
		}
		if got := schedState(c); got != want {
			t.Fatalf("seed %d: a clone taken at step %d\n%s", seed, cut, firstDiff(got, want))
		}
	}
}

// After every step of a random history, a pod's status.nominatedNodeName
// is what the nominator holds for it, and only pending pods are
// nominated (bind clears both); a pod whose last attempt was an error or
// found no preemption candidate is nominated nowhere (clearNominatedNode).
func TestNominationsAgreeOverRandomSchedulingHistories(t *testing.T) {
	for seed := uint64(1); seed <= 150; seed++ {
		e := newSchedPropEngine(t)
		for i, o := range schedOps(seed, 80) {
			applySchedOp(t, e, o)
			for _, p := range e.Pods() {
				st, _ := e.PodState(p.Key())
				held := e.sched.Nominator().NominatedNodeOf(p.Key())
				if p.Status.NominatedNodeName != held || (st != StatePending && held != "") {
					t.Fatalf("seed %d step %d: %s (%s) nominatedNodeName %q, the nominator holds %q", seed, i, p.Key(), st, p.Status.NominatedNodeName, held)
				}
				// the last attempt failed with an error, or its preemption
				// found no candidate: the nomination is gone
				if c := p.Condition(api.PodScheduled); held != "" && c != nil && c.Status == api.ConditionFalse &&
					(c.Reason == api.PodReasonSchedulerError || strings.Contains(c.Message, "preemption: 0/")) {
					t.Fatalf("seed %d step %d: %s still nominated to %s after %s %q", seed, i, p.Key(), held, c.Reason, c.Message)
				}
			}
		}
	}
}
