package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"podlab.dev/podlab/lab"
)

func TestForkCompareAndMetricsInTheLab(t *testing.T) {
	m := newTestModel(t, "spread-basics", 120, 40)
	if strings.Contains(screen(m), "lane a") {
		t.Fatal("a lane shown before any fork")
	}
	press(m, "6")
	if s := screen(m); !strings.Contains(s, "Not forked.") || !strings.Contains(s, "Press F") {
		t.Fatalf("compare before a fork:\n%s", s)
	}
	press(m, "F")
	if m.fork == nil || !strings.Contains(screen(m), "⑂ lane a") {
		t.Fatalf("F did not fork:\n%s", screen(m))
	}
	for _, c := range []string{"@b cordon node1", "@b cordon node2", "scale deployment/web --replicas=3", "advance 10s"} {
		typeCommand(m, c)
	}
	s := screen(m)
	for _, want := range []string{"lane b: cordon node1; cordon node2", "placed differently (1)", "≠ cpu requested %"} {
		if !strings.Contains(s, want) {
			t.Fatalf("compare view lacks %q:\n%s", want, s)
		}
	}
	golden.RequireEqual(t, s)
	press(m, "enter")
	cv, _ := viewIndex[*compareView](m)
	if s := screen(m); cv.diff == nil || cv.diff.Lanes[1].Plugin != "NodeUnschedulable" || !strings.Contains(s, "is filtered out here by") || !strings.Contains(s, "NodeUnschedulable (filter)") || !strings.Contains(s, "rejects ◂") || !strings.Contains(s, "lane a: ") {
		t.Fatalf("enter does not explain the pod in both lanes:\n%s", s)
	}
	// B shows lane b in every view: its nodes are cordoned
	press(m, "B")
	if m.sess != m.fork.Lane(lab.LaneB) || !strings.Contains(screen(m), "⑂ lane b") {
		t.Fatalf("B did not switch to lane b:\n%s", screen(m))
	}
	press(m, "1")
	if !strings.Contains(screen(m), "⊘") {
		t.Fatalf("lane b's cluster view shows no cordoned node:\n%s", screen(m))
	}
	press(m, "7")
	s = screen(m)
	for _, want := range []string{"metrics · lane a · lane b", "pending", "running", "over virtual time", "▴"} {
		if !strings.Contains(s, want) {
			t.Fatalf("metrics view lacks %q:\n%s", want, s)
		}
	}
	// undo acts on the fork: the last command (advance) in both lanes
	press(m, "u")
	if m.fork.Now() != 0 || m.fork.Lane(lab.LaneA).Now() != m.fork.Lane(lab.LaneB).Now() {
		t.Fatalf("undo in a fork: a at %s, b at %s", m.fork.Lane(lab.LaneA).Now(), m.fork.Lane(lab.LaneB).Now())
	}
	press(m, "ctrl+r")
	// saving writes both lanes
	text, err := m.saveText()
	if err != nil || !strings.Contains(text, "fork:") || !strings.Contains(text, "lane: b") {
		t.Fatalf("save of a forked lab: %v\n%s", err, text)
	}
	// F closes the fork keeping the lane on screen (b)
	press(m, "F")
	if m.fork != nil || m.sess.Engine().Node("node1") == nil || !m.sess.Engine().Node("node1").Spec.Unschedulable {
		t.Fatalf("F closed the fork without keeping lane b")
	}
	if strings.Contains(screen(m), "⑂") {
		t.Fatal("the header still shows a lane")
	}
}

func TestMetricsViewGolden(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	for _, c := range []string{"scale deployment/web --replicas=6", "advance 20s", "cordon node3", "cordon node4", "scale deployment/web --replicas=9", "advance 20s"} {
		typeCommand(m, c)
	}
	press(m, "7")
	golden.RequireEqual(t, screen(m))
}

// The compare and metrics views of a forked lab at the smallest and the
// largest supported screens.
func TestForkViewsGolden(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {200, 50}} {
		for _, v := range []struct{ name, key string }{{"Compare", "6"}, {"Metrics", "7"}} {
			t.Run(fmt.Sprintf("%s%dx%d", v.name, size.w, size.h), func(t *testing.T) {
				m := newTestModel(t, "spread-basics", size.w, size.h)
				press(m, "F")
				for _, c := range []string{"@b set spread deployment/web maxSkew=3", "advance 30s", "cordon node3", "cordon node4", "scale deployment/web --replicas=8", "advance 20s"} {
					typeCommand(m, c)
				}
				press(m, v.key)
				golden.RequireEqual(t, screen(m))
			})
		}
	}
}
