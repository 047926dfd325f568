package ui

import (
	"strings"
	"testing"
)

// The explain view of a gated pod names its gates instead of node
// verdicts: the scheduler never ran a cycle for it.
func TestExplainGatedPod(t *testing.T) {
	m := newTestModel(t, "scheduling-gates", 100, 40)
	press(m, "2")
	s := screen(m)
	for _, want := range []string{"pod/default/test-pod · pending · SchedulingGated", "kubectl describe pod default/test-pod", "PodScheduled", "waiting for its scheduling gates: example.com/foo, example.com/bar", "ungate pod test-pod"} {
		if !strings.Contains(s, want) {
			t.Fatalf("explain lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "TOTAL") {
		t.Errorf("explain shows a node table for a gated pod:\n%s", s)
	}
}
