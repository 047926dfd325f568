package ui

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// keyFixture is a state of the lab in which the keys are checked.
type keyFixture struct {
	name string
	w, h int
	cmds []string // commands applied first
	keys []string // then keys pressed
}

var keyFixtures = []keyFixture{
	{name: "cluster nodes", w: 100, h: 30, cmds: []string{"advance 10s"}, keys: []string{"j", "l"}},
	{name: "cluster pods", w: 100, h: 30, cmds: []string{"scale deployment/web --replicas=8", "advance 10s"}, keys: []string{"tab", "l"}},
	{name: "cluster workloads", w: 100, h: 30, cmds: []string{"advance 10s"}, keys: []string{"tab", "tab"}},
	{name: "cluster pending", w: 100, h: 30, cmds: []string{"cordon node3", "cordon node4", "scale deployment/web --replicas=8", "advance 10s"}, keys: []string{"tab", "tab", "tab", "j"}},
	{name: "lesson step 2", w: 100, h: 30, cmds: []string{"advance 10s", "cordon node1"}, keys: []string{">"}},
	{name: "explain", w: 100, h: 16, cmds: []string{"cordon node3", "cordon node4", "scale deployment/web --replicas=6", "advance 10s"}, keys: []string{"tab", "tab", "tab", "2", "j"}},
	{name: "timeline", w: 100, h: 16, cmds: []string{"advance 10s", "drain node1 --ignore-daemonsets --force --grace-period=20", "drain node2 --ignore-daemonsets --force --grace-period=20", "advance 8s"}, keys: []string{"3", "j"}},
	{name: "eviction", w: 100, h: 16, cmds: []string{"advance 10s", "usage deployment/web memory=200%", "pressure node node1 memory=99%", "pressure node node3 memory=99%", "advance 2s"}, keys: []string{"4", "j"}},
	{name: "events", w: 100, h: 16, cmds: []string{"advance 10s"}, keys: []string{"5", "k"}},
	{name: "controllers", w: 100, h: 16, cmds: []string{"advance 10s"}, keys: []string{"8", "j"}},
	{name: "help", w: 80, h: 24, keys: []string{"?", "j"}},
	{name: "legend", w: 100, h: 30, keys: []string{"i"}},
	{name: "presets", w: 100, h: 30, keys: []string{"ctrl+p", "j"}},
	{name: "palette", w: 100, h: 30, keys: []string{":", "c", "o", "r", "enter", ":", "up", "down"}},
	{name: "quit question", w: 100, h: 30, cmds: []string{"cordon node1"}, keys: []string{"q"}},
	{name: "open question", w: 100, h: 30, cmds: []string{"cordon node1"}, keys: []string{"ctrl+p", "j", "enter"}},
}

func (f keyFixture) build(t *testing.T) *Model {
	t.Helper()
	m := newTestModel(t, "spread-basics", f.w, f.h)
	for _, c := range f.cmds {
		if _, err := m.sess.Apply(c); err != nil {
			t.Fatalf("%s: %s: %v", f.name, c, err)
		}
	}
	m.changed()
	m.refresh()
	for _, k := range f.keys {
		update(m, pressKey(t, k))
	}
	m.setStatus("", false)
	m.setKeys()
	return m
}

// shown is every enabled binding the ? overlay and the footer draw now:
// the open overlay's, else the current view's and the global ones.
func shown(m *Model) []key.Binding {
	var groups [][]key.Binding
	if ov := m.overlay(); ov != nil {
		groups = append(ov.FullHelp(), ov.ShortHelp())
	} else {
		groups = append(m.views[m.view].FullHelp(), m.global.FullHelp()...)
		groups = append(groups, m.views[m.view].ShortHelp(), m.global.ShortHelp())
	}
	var out []key.Binding
	for _, g := range groups {
		for _, b := range g {
			if b.Enabled() {
				out = append(out, b)
			}
		}
	}
	return out
}

// fingerprint is what a key can change: the screen and the session.
func fingerprint(m *Model) string {
	return fmt.Sprintf("%s\n%d %v %d", m.render(), len(m.sess.History()), m.paused, m.speedIdx)
}

// universe is every key the test presses: printable ASCII, the named
// keys and the ctrl letters.
func universe() []string {
	var out []string
	for c := '!'; c <= '~'; c++ {
		out = append(out, string(c))
	}
	out = append(out, "space", "enter", "tab", "esc", "backspace", "up", "down", "left", "right", "pgup", "pgdown", "home", "end")
	for c := 'a'; c <= 'z'; c++ {
		out = append(out, "ctrl+"+string(c))
	}
	return out
}

// TestKeysAndHelpAgree: in every fixture, every key of every binding the
// footer or the ? overlay shows does something (changes the screen or the
// session, or returns a command), and every key that does something is a
// key of a binding shown. The palette's line editor (bubbles/textinput)
// is the exception: typing edits the line.
func TestKeysAndHelpAgree(t *testing.T) {
	for _, f := range keyFixtures {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			base := f.build(t)
			bindings := shown(base)
			isShown := map[string]bool{}
			for _, b := range bindings {
				for _, k := range b.Keys() {
					isShown[k] = true
				}
			}
			before := fingerprint(base)
			for _, k := range universe() {
				m := f.build(t)
				cmd := update(m, pressKey(t, k))
				acts := cmd != nil || fingerprint(m) != before
				switch {
				case isShown[k] && !acts:
					t.Errorf("%q is shown but does nothing", k)
				case !isShown[k] && acts && !(m.pal.open && base.pal.open && lineEditing(base, k)):
					t.Errorf("%q does something but is not shown (shown: %s)", k, bindingList(bindings))
				}
			}
		})
	}
}

// lineEditing reports a key the palette's text input takes.
func lineEditing(m *Model, k string) bool {
	if len([]rune(k)) == 1 || k == "space" {
		return true
	}
	km := m.pal.in.KeyMap
	return key.Matches(pressKeyRaw(k), km.CharacterForward, km.CharacterBackward, km.WordForward, km.WordBackward,
		km.DeleteWordBackward, km.DeleteWordForward, km.DeleteAfterCursor, km.DeleteBeforeCursor,
		km.DeleteCharacterBackward, km.DeleteCharacterForward, km.LineStart, km.LineEnd, km.Paste,
		km.AcceptSuggestion, km.NextSuggestion, km.PrevSuggestion)
}

func bindingList(bs []key.Binding) string {
	var out []string
	for _, b := range bs {
		out = append(out, strings.Join(b.Keys(), "/"))
	}
	return strings.Join(out, " ")
}

// pressKey is the key press whose String() is k, as a terminal sends it.
func pressKey(t *testing.T, k string) tea.KeyPressMsg {
	t.Helper()
	msg := pressKeyRaw(k)
	if msg.String() != k {
		t.Fatalf("pressKey(%q) makes %q", k, msg.String())
	}
	return msg
}

func pressKeyRaw(k string) tea.KeyPressMsg {
	named := map[string]rune{"enter": tea.KeyEnter, "tab": tea.KeyTab, "esc": tea.KeyEscape, "backspace": tea.KeyBackspace,
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd}
	if c, ok := named[k]; ok {
		return tea.KeyPressMsg{Code: c}
	}
	if k == "space" {
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	if l, ok := strings.CutPrefix(k, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: []rune(l)[0], Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}
