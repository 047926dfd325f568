package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"podlab.dev/podlab/lab"
)

// controllersModel opens a preset, runs commands and shows the
// controllers view.
func controllersModel(t *testing.T, preset string, w, h int, cmds ...string) *Model {
	t.Helper()
	m := newTestModel(t, preset, w, h)
	for _, c := range cmds {
		if _, err := m.sess.Apply(c); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
	}
	m.changed()
	m.refresh()
	_, i := viewIndex[*controllersView](m)
	press(m, string(rune('1'+i)))
	return m
}

var rebalance = []string{"scale deployment/web --replicas=6", "advance 20s", "scale deployment/web --replicas=3", "advance 2m"}

// noScaleUp grows web until pool-c is at its max and a pod is left
// Pending: the autoscaler's NotTriggerScaleUp reasons per group.
var noScaleUp = []string{"advance 30s", "scale deployment/web --replicas=5", "advance 2m", "scale deployment/web --replicas=6", "advance 1m"}

func TestControllersViewGolden(t *testing.T) {
	for _, c := range []struct {
		name, preset string
		w, h         int
		cmds         []string
	}{
		{"Descheduler80x24", "descheduler-rebalance", 80, 24, rebalance},
		{"Descheduler160x48", "descheduler-rebalance", 160, 48, rebalance},
		{"Autoscaler80x24", "autoscaler-zone-spread", 80, 24, []string{"advance 2m"}},
		{"Autoscaler160x48", "autoscaler-zone-spread", 160, 48, []string{"advance 2m"}},
		{"AutoscalerNoScaleUp80x24", "autoscaler-zone-spread", 80, 24, noScaleUp},
		{"AutoscalerNoScaleUp160x48", "autoscaler-zone-spread", 160, 48, noScaleUp},
		{"HPA160x48", "hpa-topology-spread", 160, 48, []string{"advance 2m"}},
		// at 80×24 the HPA section is below the fold: end scrolls to it
		{"HPA80x24", "hpa-topology-spread", 80, 24, []string{"usage deployment/web cpu=6 at 1m", "advance 2m"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := controllersModel(t, c.preset, c.w, c.h, c.cmds...)
			if c.w == 80 && c.preset == "hpa-topology-spread" {
				update(m, pressKeyRaw("end"))
			}
			golden.RequireEqual(t, screen(m))
		})
	}
}

func TestControllersViewDeschedules(t *testing.T) {
	m := controllersModel(t, "descheduler-rebalance", 160, 48, rebalance...)
	s := screen(m)
	for _, want := range []string{"a pass would evict 1 pod(s)", "RemovePodsViolatingTopologySpreadConstraint", "skew 2 > maxSkew 1", "profiles rebalance"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the controllers view lacks %q:\n%s", want, s)
		}
	}
	n := len(m.sess.History())
	press(m, "d")
	if len(m.sess.History()) != n+1 || m.sess.History()[n].Line != "deschedule" {
		t.Fatalf("d did not run deschedule through the command language")
	}
	if _, err := m.sess.Apply("advance 10s"); err != nil {
		t.Fatal(err)
	}
	m.changed()
	m.refresh()
	if s := screen(m); !strings.Contains(s, "nothing to evict") || !strings.Contains(s, "latest evictions") ||
		!strings.Contains(s, "RemovePodsViolatingTopologySpreadConstraint pod/default/web-") {
		t.Fatalf("after the pass the skew is fixed, yet:\n%s", s)
	}
}

func TestWorkloadPanelShowsTheHPA(t *testing.T) {
	m := newTestModel(t, "hpa-topology-spread", 160, 48)
	if _, err := m.sess.Apply("advance 2m"); err != nil {
		t.Fatal(err)
	}
	m.changed()
	m.refresh()
	if s := screen(m); !strings.Contains(s, "hpa/web: 3 of 3–12 · cpu: 30%/50%") {
		t.Fatalf("the workload panel lacks the HPA line:\n%s", s)
	}
	// a workload without an HPA has no such line
	m = newTestModel(t, "descheduler-rebalance", 160, 48)
	if s := screen(m); strings.Contains(s, "hpa/") {
		t.Fatalf("an HPA line without an HPA:\n%s", s)
	}
}

// The pass's multi-line report reaches the status line as one line (no
// ^J where its line breaks were).
func TestDescheduleKeyReportsOneLine(t *testing.T) {
	m := controllersModel(t, "descheduler-rebalance", 160, 48, rebalance...)
	press(m, "d")
	s := screen(m)
	if !strings.Contains(s, "› deschedule  ·  descheduler evicted 1 pod(s): pod/default/web-") || strings.Contains(s, "^J") {
		t.Fatalf("status line after d:\n%s", s)
	}
}

// BenchmarkControllersRefresh is the controllers view's Refresh (a
// dry-run descheduling pass, the autoscaler's status, the HPA rows) on
// the benchmark clusters: it runs after every change while the view is
// on screen (unchanged, it is memoised: BenchmarkView/controllers).
func BenchmarkControllersRefresh(b *testing.B) {
	for _, pods := range benchSizes {
		b.Run(fmt.Sprintf("pods=%d", pods), func(b *testing.B) {
			m := benchModel(b, pods)
			v, i := viewIndex[*controllersView](m)
			press(m, fmt.Sprint(i+1))
			loop(b, func() {
				v.fresh = false // the cluster changed: recompute
				v.Refresh()
			})
		})
	}
}

func TestHoldsBack(t *testing.T) {
	for _, c := range []struct {
		typ, status string
		want        bool
	}{
		{"ScalingLimited", "True", true},
		{"ScalingLimited", "False", false},
		{"AbleToScale", "False", true},
		{"AbleToScale", "True", false},
		{"ScalingActive", "False", true},
		{"ScalingActive", "True", false},
	} {
		if got := holdsBack(lab.HPACondition{Type: c.typ, Status: c.status}); got != c.want {
			t.Errorf("holdsBack(%s=%s) = %v, want %v", c.typ, c.status, got, c.want)
		}
	}
}

func TestRecentEvents(t *testing.T) {
	ev := func(reason, obj, msg string) lab.Event { return lab.Event{Reason: reason, Object: obj, Message: msg} }
	evs := []lab.Event{
		ev("TriggeredScaleUp", "pod/default/a", "pod triggered scale-up: [{pool-a 1->2 (max: 3)}]"),
		ev("Scheduled", "pod/default/a", "Successfully assigned"),
		ev("NotTriggerScaleUp", "pod/default/b", "pod didn't trigger scale-up"),
		ev("NotTriggerScaleUp", "pod/default/b", "pod didn't trigger scale-up"), // the next loop: once
		ev("RemovePodsViolatingTopologySpreadConstraint", "pod/default/c", "pod eviction from node-4 node by sigs.k8s.io/descheduler"),
		ev("SuccessfulRescale", "horizontalpodautoscaler/default/web", "New size: 6; reason: cpu above target"),
		ev("ScaleDown", "node/pool-a-2", "node removed by cluster autoscaler"),
	}
	got := recentEvents(evs, 2)
	reasons := func(k string) string {
		var r []string
		for _, e := range got[k] {
			r = append(r, e.Reason)
		}
		return strings.Join(r, " ")
	}
	for k, want := range map[string]string{
		"autoscaler":  "NotTriggerScaleUp ScaleDown", // the latest 2, oldest first
		"descheduler": "RemovePodsViolatingTopologySpreadConstraint",
		"hpa":         "SuccessfulRescale",
	} {
		if reasons(k) != want {
			t.Errorf("%s: %q, want %q", k, reasons(k), want)
		}
	}
}

// A multi-line report typed in the palette (deschedule --dry-run) reaches
// the status line as one line too.
func TestPaletteReportIsOneLine(t *testing.T) {
	m := controllersModel(t, "descheduler-rebalance", 160, 48, rebalance...)
	m.apply("deschedule --dry-run")
	s := screen(m)
	if !strings.Contains(s, "› deschedule --dry-run  ·  descheduler would evict 1 pod(s): pod/default/web-") || strings.Contains(s, "^J") {
		t.Fatalf("status line after deschedule --dry-run:\n%s", s)
	}
}

// TestOneLine pins how the status line joins a multi-line text.
func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain  text":                         "plain  text",
		"evict 1 pod(s):\n  pod/a on n1\n":    "evict 1 pod(s): pod/a on n1",
		"f.yaml:3:1: bad\r\n\r\n  fix it\n\n": "f.yaml:3:1: bad fix it",
	} {
		if got := oneLine(in); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", in, got, want)
		}
	}
}
