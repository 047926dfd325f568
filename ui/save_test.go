package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// typeInto types text into the open palette.
func typeInto(m *Model, text string) {
	for _, r := range text {
		update(m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// saveAs saves through the save palette (ctrl+s), replacing the offered
// name with path, and runs the save's command.
func saveAs(t *testing.T, m *Model, path string) {
	t.Helper()
	update(m, tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	if !m.pal.open || m.pal.mode != modeSave {
		t.Fatal("ctrl+s opens the save palette")
	}
	m.pal.in.SetValue("")
	typeInto(m, path)
	run(m, update(m, keyMsg("enter")))
}

// run runs a command and feeds its message back, as the program does.
func run(m *Model, cmd tea.Cmd) {
	for cmd != nil {
		msg := cmd()
		if _, ok := msg.(tea.QuitMsg); ok {
			return
		}
		cmd = update(m, msg)
	}
}

// Saving over an existing file asks first: n goes back to the name, esc
// cancels, y replaces — and the file is untouched until y.
func TestSaveAsksBeforeReplacing(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	typeCommand(m, "cordon node1")
	path := filepath.Join(t.TempDir(), "mine.yaml")
	if err := os.WriteFile(path, []byte("my own notes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	saveAs(t, m, path)
	if c, ok := m.top.(*confirmOverlay); !ok || !strings.Contains(c.question, "exists. Replace it") || !strings.Contains(screen(m), "y replace it") {
		t.Fatalf("saving over a file asks first:\n%s", screen(m))
	}
	if b, _ := os.ReadFile(path); string(b) != "my own notes\n" {
		t.Fatal("the file changed before the answer")
	}
	press(m, "x") // not an answer: ignored
	if _, ok := m.top.(*confirmOverlay); !ok {
		t.Fatal("a key that is not an answer must not answer")
	}
	press(m, "n")
	if !m.pal.open || m.pal.in.Value() != path {
		t.Fatalf("n goes back to the file name: open %v %q", m.pal.open, m.pal.in.Value())
	}
	run(m, update(m, keyMsg("enter")))
	press(m, "esc")
	if m.top != nil || !strings.Contains(m.status, "not saved") {
		t.Fatalf("esc cancels: %q", m.status)
	}
	if b, _ := os.ReadFile(path); string(b) != "my own notes\n" {
		t.Fatal("a cancelled save changed the file")
	}
	saveAs(t, m, path)
	run(m, update(m, keyMsg("y")))
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "cordon node1") {
		t.Fatalf("y replaces the file: %s", b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("the replaced file keeps its mode: %v", fi.Mode().Perm())
	}
	if !strings.Contains(m.status, "saved "+path) || m.unsaved() {
		t.Fatalf("saved: %q unsaved %v", m.status, m.unsaved())
	}
}

// A session saved paused reopens paused, at the speed and on the lesson
// step it was saved with (it reopened playing); one saved playing
// reopens playing.
func TestSavedSessionReopensAsSaved(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30) // paused, ×2
	typeCommand(m, "advance 7s")
	press(m, "]", "]", ">", ">") // ×8, step 3
	path := filepath.Join(t.TempDir(), "paused.yaml")
	saveAs(t, m, path)
	if !strings.Contains(m.status, "saved") {
		t.Fatal(m.status)
	}
	check := func(name string, paused bool, speed float64, step int) {
		t.Helper()
		f, err := lab.Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		sess, err := lab.NewSession(f, lab.SessionOptions{})
		if err != nil {
			t.Fatal(err)
		}
		back := New(sess, Options{Theme: "dark", NoColor: true})
		if back.paused != paused || speeds[back.speedIdx] != speed || back.sess.Step() != step {
			t.Fatalf("%s: reopened paused %v at ×%g on step %d; want paused %v at ×%g on step %d",
				name, back.paused, speeds[back.speedIdx], back.sess.Step()+1, paused, speed, step+1)
		}
		// and through the lab's own open
		o := newTestModel(t, "spread-basics", 100, 30)
		update(o, o.openFileCmd(path)())
		if o.paused != paused || speeds[o.speedIdx] != speed || o.sess.Step() != step || o.sess.Now().Clock() != "0:07" && o.sess.Now() == 0 {
			t.Fatalf("%s: ctrl+o: paused %v at ×%g step %d", name, o.paused, speeds[o.speedIdx], o.sess.Step()+1)
		}
	}
	check("paused", true, 8, 2)
	press(m, "space", "[")
	saveAs(t, m, path)
	run(m, update(m, keyMsg("y")))
	check("playing", false, 4, 2)
}

// A save that ends during a long operation (an undo) is reported once
// the operation is done, not dropped.
func TestSaveEndingDuringUndo(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	typeCommand(m, "cordon node1")
	typeCommand(m, "cordon node2")
	path := filepath.Join(t.TempDir(), "s.yaml")
	save := m.saveCmd(path, false)
	_, undo := m.Update(keyMsg("u"))
	m.Update(save()) // arrives while the undo runs
	m.Update(undo())
	if !strings.Contains(m.status, "saved "+path) {
		t.Fatalf("the save is reported after the undo: %q", m.status)
	}
	// saved with both cordons, now one is undone: unsaved again
	if !m.unsaved() {
		t.Fatal("the lab after the undo differs from the save")
	}
	press(m, "ctrl+r")
	if m.unsaved() {
		t.Fatal("redone: the lab is what was saved")
	}
}

// A fork saved while its other lane is shown (B pressed during the
// save) is recorded as saved: it is the same fork.
func TestForkSaveRecordedAcrossALaneSwitch(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	press(m, "F")
	typeCommand(m, "@b cordon node1")
	save := m.saveCmd(filepath.Join(t.TempDir(), "fork.yaml"), false)
	press(m, "B")
	update(m, save())
	if m.unsaved() {
		t.Fatal("the fork was saved, but the lab says it has unsaved changes")
	}
}
