package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// quits reports a command that quits the program.
func quits(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// q quits a lab with nothing unsaved at once; with unsaved commands it
// asks (it quit at once: an hour's teaching gone on one key).
func TestQuitAsksWithUnsavedChanges(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	update(m, tickMsg{id: m.tickID}) // time alone is not a change
	if !quits(update(m, keyMsg("q"))) {
		t.Fatal("nothing unsaved: q quits at once")
	}
	m = newTestModel(t, "spread-basics", 100, 30)
	typeCommand(m, "cordon node1")
	if quits(update(m, keyMsg("q"))) {
		t.Fatal("q quit with an unsaved command")
	}
	c, ok := m.top.(*confirmOverlay)
	if !ok || !strings.Contains(c.question, "Quit without saving?") || !strings.Contains(c.question, "1 command ") {
		t.Fatalf("q asks:\n%s", screen(m))
	}
	for _, want := range []string{"y quit without saving", "s save, then quit", "n keep working"} {
		if !strings.Contains(screen(m), want) {
			t.Errorf("the question shows %q:\n%s", want, screen(m))
		}
	}
	for _, k := range []string{"q", "x", "enter", "space"} {
		if quits(update(m, keyMsg(k))) || m.top != c {
			t.Fatalf("%q is not an answer: it must neither quit nor close the question", k)
		}
	}
	press(m, "n")
	if m.top != nil || len(m.sess.History()) != 1 {
		t.Fatal("n keeps working")
	}
	// undo back to what was opened: nothing unsaved
	press(m, "u")
	if m.unsaved() || !quits(update(m, keyMsg("q"))) {
		t.Fatal("undone back to the file: q quits at once")
	}
	press(m, "ctrl+r")
	update(m, keyMsg("q"))
	if !quits(update(m, pressKey(t, "ctrl+c"))) {
		t.Fatal("ctrl+c in the question quits")
	}
	// ctrl+c asks too, from an overlay as well
	for _, open := range []string{"?", "i", "ctrl+p"} {
		m := newTestModel(t, "spread-basics", 100, 30)
		typeCommand(m, "cordon node1")
		update(m, pressKey(t, open))
		if quits(update(m, pressKey(t, "ctrl+c"))) {
			t.Fatalf("ctrl+c over %s quit with unsaved changes", open)
		}
		if _, ok := m.top.(*confirmOverlay); !ok {
			t.Fatalf("ctrl+c over %s asks", open)
		}
	}
}

// s in the quit question saves, then quits; a failed save stays.
func TestQuitSaveThenQuit(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	typeCommand(m, "cordon node1")
	update(m, keyMsg("q"))
	update(m, keyMsg("s"))
	if !m.pal.open || m.pal.mode != modeSave {
		t.Fatal("s opens the save palette")
	}
	m.pal.in.SetValue(filepath.Join(t.TempDir(), "no", "such", "dir.yaml"))
	cmd := update(m, keyMsg("enter"))
	msg := cmd()
	if quits(update(m, msg)) || !m.statusErr {
		t.Fatalf("a failed save does not quit: %q", m.status)
	}
	path := filepath.Join(t.TempDir(), "kept.yaml")
	update(m, keyMsg("q"))
	update(m, keyMsg("s"))
	m.pal.in.SetValue(path)
	cmd = update(m, keyMsg("enter"))
	if !quits(update(m, cmd())) {
		t.Fatalf("saved, then quit: %q", m.status)
	}
	if b, err := os.ReadFile(path); err != nil || !strings.Contains(string(b), "cordon node1") {
		t.Fatalf("the session was saved before quitting: %v", err)
	}
	// over an existing file: the replace question, then the quit
	m = newTestModel(t, "spread-basics", 100, 30)
	typeCommand(m, "cordon node2")
	press(m, "q", "s")
	m.pal.in.SetValue(path)
	update(m, update(m, keyMsg("enter"))())
	if c, ok := m.top.(*confirmOverlay); !ok || !strings.Contains(c.question, "Replace") {
		t.Fatal("saving over a file from the quit question asks to replace it")
	}
	cmd = update(m, keyMsg("y"))
	if !quits(update(m, cmd())) {
		t.Fatalf("replaced, then quit: %q", m.status)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "cordon node2") {
		t.Fatal("the replaced file holds the session")
	}
	// esc out of the save palette forgets the quit
	m = newTestModel(t, "spread-basics", 100, 30)
	typeCommand(m, "cordon node1")
	press(m, "q", "s", "esc")
	if m.quitAfterSave {
		t.Fatal("esc out of the save gives up the quit too")
	}
}

// A served workshop session quits at once: the server keeps its progress.
func TestServedSessionQuitsAtOnce(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	m.opts.NoFiles = true
	typeCommand(m, "cordon node1")
	if !quits(update(m, keyMsg("q"))) {
		t.Fatal("a workshop session quits at once")
	}
}

// Opening a preset or a file over unsaved changes asks first (it dropped
// them, and the recovery file with them).
func TestOpenAsksWithUnsavedChanges(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	typeCommand(m, "cordon node1")
	before := m.sess
	press(m, "ctrl+p", "down", "enter")
	if _, ok := m.top.(*confirmOverlay); !ok || m.sess != before {
		t.Fatal("the preset picker asks before replacing unsaved changes")
	}
	press(m, "n")
	if m.top != nil || m.sess != before {
		t.Fatal("n keeps the lab")
	}
	press(m, "ctrl+p", "down", "enter", "y")
	if m.sess == before || m.unsaved() {
		t.Fatal("y opens the preset")
	}
	// nothing unsaved: opens at once
	before = m.sess
	press(m, "ctrl+p", "enter")
	if m.top != nil || m.sess == before {
		t.Fatal("without unsaved changes the picker opens at once")
	}
}

// After a save, the question does not count the saved commands as
// unsaved: it said "2 commands since it was opened or saved" for one.
func TestQuitQuestionAfterSaveCountsTruly(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	typeCommand(m, "cordon node1")
	m.markSaved(m.mark())
	typeCommand(m, "uncordon node1")
	update(m, keyMsg("q"))
	c, ok := m.top.(*confirmOverlay)
	if !ok {
		t.Fatalf("q asks:\n%s", screen(m))
	}
	if strings.Contains(c.question, "2 commands") || !strings.Contains(c.question, "since it was last saved") {
		t.Fatalf("the question miscounts what is unsaved: %s", c.question)
	}
}
