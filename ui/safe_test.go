package ui

import (
	"os"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// A scenario's title, lesson text and a pod's name are drawn with their
// escape sequences made visible: the raw bytes would clear the screen
// (CSI 2J), write the clipboard (OSC 52) or retitle the window (OSC 0).
func TestInputEscapesAreDrawnVisibly(t *testing.T) {
	data, err := os.ReadFile("../presets/spread-basics.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// the title line replaced by one whose YAML escapes decode to ESC and BEL
	hostile := regexp.MustCompile(`(?m)^title: .*$`).ReplaceAllLiteralString(string(data),
		`title: "\e[2J\e]52;c;cG9kbGFi\a\e]0;pwned\a Spread basics"`)
	f, err := lab.LoadFile("hostile.yaml", []byte(hostile))
	if err != nil {
		t.Fatal(err)
	}
	if f.Scenario == nil || !strings.Contains(f.Scenario.Title, "\x1b[2J") {
		t.Fatalf("the test scenario must carry the escape in its title: %+v", f.Scenario)
	}
	sess, err := lab.NewSession(f, lab.SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		m := New(sess, Options{Theme: "dark", NoColor: true, Paused: true})
		update(m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		raw := m.render()
		for _, bad := range []string{"\x1b[2J", "\x1b]52", "\x1b]0;", "\a"} {
			if strings.Contains(raw, bad) {
				t.Errorf("%dx%d: the frame carries %q raw", size[0], size[1], bad)
			}
		}
		if !strings.Contains(screen(m), "^[[2J") {
			t.Errorf("%dx%d: the title's CSI 2J is not shown as ^[[2J:\n%s", size[0], size[1], screen(m))
		}
	}
}
