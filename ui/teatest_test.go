package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// TestProgram runs the lab as a real Bubble Tea program (teatest): keys
// and typed commands go through the program's event loop, and the final
// model's screen is compared with a golden file. (The raw terminal output
// is not compared: terminal queries come out in varying order.)
func TestProgram(t *testing.T) {
	for _, c := range []struct {
		name  string
		steps []string // ":cmd" types a command, anything else is a key
	}{
		{"ScaleUp", []string{":advance 10s", "tab", "tab", "+", "+", ":advance 10s"}},
		{"ExplainPending", []string{":cordon node3", ":cordon node4", ":scale deployment/web --replicas=6", ":advance 10s", "tab", "tab", "tab", "e"}},
		{"DrainTimeline", []string{":advance 10s", ":drain node1 --ignore-daemonsets --force --grace-period=20", ":advance 8s", "3"}},
		{"PressureEviction", []string{":advance 10s", ":usage deployment/web memory=200%", ":pressure node node4 memory=99%", ":advance 5s", "4"}},
		{"Events", []string{":advance 10s", "t", "enter", "5"}},
		{"LessonStep2", []string{">", "a", ":advance 20s"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := newTestModel(t, "spread-basics", 100, 30)
			tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30),
				teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
			for _, s := range c.steps {
				if len(s) > 1 && s[0] == ':' {
					tm.Send(keyMsg(":"))
					tm.Type(s[1:])
					tm.Send(keyMsg("enter"))
					continue
				}
				tm.Send(keyMsg(s))
			}
			// every case changed the lab: q asks, y quits without saving
			tm.Send(keyMsg("q"))
			tm.Send(keyMsg("y"))
			fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second))
			golden.RequireEqual(t, ansi.Strip(fm.(*Model).View().Content))
		})
	}
}
