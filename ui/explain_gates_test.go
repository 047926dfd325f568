package ui

import (
	"strings"
	"testing"
)

// The explain view of a gated pod names its gate instead of node
// verdicts — the scheduler never ran a cycle for it — and still
// describes the pod (PodScheduled False).
func TestExplainGatedPod(t *testing.T) {
	m := newTestModel(t, "scheduling-gates", 100, 40)
	press(m, "2") // the first pending pod: db-0, gated by its StatefulSet's template
	s := screen(m)
	for _, want := range []string{"pod/default/db-0 · pending · SchedulingGated", "waiting for its scheduling gate: example.com/admitted", "remove it with `ungate pod db-0`", "kubectl describe pod default/db-0", "PodScheduled"} {
		if !strings.Contains(s, want) {
			t.Fatalf("explain lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "TOTAL") {
		t.Errorf("explain shows a node table for a gated pod:\n%s", s)
	}
}

// With SchedulingGates disabled a gated pod is attempted: the view shows
// the node the scheduler picks and that the API server refuses the
// binding (the pod stays pending on it).
func TestExplainGatedPodBindingRefused(t *testing.T) {
	m := newTestModel(t, "scheduling-gates", 120, 40)
	typeCommand(m, "set scheduler disable SchedulingGates")
	press(m, "esc", "2")
	s := screen(m)
	for _, want := range []string{"pod/default/db-0 · pending", "the scheduler picks", "the API server refuses the binding"} {
		if !strings.Contains(s, want) {
			t.Fatalf("explain lacks %q:\n%s", want, s)
		}
	}
}
