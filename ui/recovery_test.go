package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// newRecoveringModel is newTestModel keeping its recovery file at path.
func newRecoveringModel(t *testing.T, path string) *Model {
	t.Helper()
	f, err := lab.LoadPreset("spread-basics")
	if err != nil {
		t.Fatal(err)
	}
	seed := int64(1)
	sess, err := lab.NewSession(f, lab.SessionOptions{Seed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	m := New(sess, Options{Theme: "dark", NoColor: true, Paused: true, Recovery: path})
	update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	return m
}

// The recovery file follows the session: written after a command (the
// session as a save would write it), removed by a save, written again by
// the next command, removed by a clean quit; a crash leaves it.
func TestRecoveryFileFollowsTheSession(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "recovery.yaml")
	m := newRecoveringModel(t, path)
	if m.top != nil {
		t.Fatal("no recovery file: the lab opens straight to the scenario")
	}
	typeCommand(m, "advance 3s")
	typeCommand(m, "cordon node1")
	m.recov.wait()
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), "cordon node1") || !strings.Contains(string(b), `# podlab recovery of "spread-basics.yaml"`) {
		t.Fatalf("after a command the recovery file holds the session: %v\n%s", err, b)
	}
	saveAs(t, m, filepath.Join(t.TempDir(), "saved.yaml"))
	m.recov.wait()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("a save removes the recovery file")
	}
	typeCommand(m, "cordon node2")
	m.recov.wait()
	if _, err := os.Stat(path); err != nil {
		t.Fatal("the next command writes it again")
	}
	press(m, "u") // back to what was saved: nothing to recover
	m.recov.wait()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("undone back to the save: the recovery file goes")
	}
	typeCommand(m, "cordon node3")
	m.recov.wait()
	if err := m.recov.finish(false); err != nil { // a crash, a kill: kept
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal("an unclean end keeps the recovery file")
	}
	m = newRecoveringModel(t, path)
	press(m, "y")
	typeCommand(m, "cordon node4")
	update(m, keyMsg("q"))
	if !quits(update(m, keyMsg("y"))) || !m.quitClean {
		t.Fatal("y quits cleanly")
	}
	if err := m.recov.finish(m.quitClean); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("a clean quit removes the recovery file")
	}
}

// The next start offers the recovery file: y restores the session (its
// commands, its time, unsaved, saved under its own name), n sets it aside.
func TestRecoveryIsOfferedAtStart(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "recovery.yaml")
	m := newRecoveringModel(t, path)
	typeCommand(m, "advance 4s")
	typeCommand(m, "cordon node1")
	m.recov.wait()
	m.recov.finish(false) // the terminal closed

	m = newRecoveringModel(t, path)
	c, ok := m.top.(*confirmOverlay)
	if !ok || !strings.Contains(c.question, "of spread-basics.yaml that was not saved") {
		t.Fatalf("the start offers the recovery file:\n%s", screen(m))
	}
	press(m, "x", "q") // not answers
	if m.top != c {
		t.Fatal("only y, n and ctrl+c answer")
	}
	press(m, "y")
	// the commands come back as the scenario's timeline, run to where
	// the lab was (as a saved session reopens)
	if !strings.Contains(screen(m), "node1 ⊘") || m.sess.Now() < 4e9 {
		t.Fatalf("restored at %s (%s):\n%s", m.sess.Now(), m.status, screen(m))
	}
	if !m.unsaved() || !strings.Contains(m.status, "restored") || m.defaultSaveName() != "spread-basics-session.yaml" {
		t.Fatalf("restored is unsaved and saves under its own name: %v %q %q", m.unsaved(), m.status, m.defaultSaveName())
	}
	if quits(update(m, keyMsg("q"))) || !strings.Contains(m.top.(*confirmOverlay).question, "restored") {
		t.Fatal("a restored session asks before quitting")
	}
	press(m, "n")
	m.recov.finish(false)

	m = newRecoveringModel(t, path)
	m.paused = false // a scenario that plays
	m.startRecovery(path)
	update(m, tickMsg{id: m.tickID})
	if m.sess.Now() != 0 {
		t.Fatal("the clock waits for the answer")
	}
	press(m, "n")
	if m.top != nil || len(m.sess.History()) != 0 || m.paused {
		t.Fatal("n starts fresh, playing as the scenario says")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("n sets the recovery file aside")
	}
	if _, err := os.Stat(filepath.Join(dir, "recovery-discarded.yaml")); err != nil {
		t.Fatal("… as recovery-discarded.yaml")
	}
}

// A start that quits at the question (ctrl+c) keeps the file for next
// time, untouched.
func TestRecoveryQuestionCtrlC(t *testing.T) {
	path := filepath.Join(t.TempDir(), "recovery.yaml")
	m := newRecoveringModel(t, path)
	typeCommand(m, "cordon node1")
	m.recov.wait()
	m.recov.finish(false)
	before, _ := os.ReadFile(path)
	m = newRecoveringModel(t, path)
	if !quits(update(m, pressKey(t, "ctrl+c"))) {
		t.Fatal("ctrl+c at the question quits")
	}
	m.recov.finish(m.quitClean)
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("the recovery file must stay as it was")
	}
}

// While the clock runs with unsaved changes the file is refreshed (every
// 30 s of real time; at once here), so a restore resumes near the end.
func TestRecoveryFollowsTheRunningClock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "recovery.yaml")
	m := newRecoveringModel(t, path)
	m.recov.every = 0
	update(m, tickMsg{id: m.tickID}) // nothing unsaved: nothing written
	m.recov.wait()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("the clock alone, nothing unsaved: no recovery file")
	}
	typeCommand(m, "cordon node1")
	press(m, "space")
	for range 20 {
		update(m, tickMsg{id: m.tickID})
	}
	m.recov.wait()
	f, err := lab.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Scenario.Clock.ResumeAt; got < 2e9 || lab.Time(got) != m.sess.Now() {
		t.Fatalf("the recovery file resumes at %v, the lab is at %v", got, m.sess.Now())
	}
}

// A recovery file that cannot be written says so in the status line,
// once, and the lab goes on.
func TestRecoveryWriteFailureIsReported(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	m := newRecoveringModel(t, filepath.Join(blocker, "recovery.yaml")) // its directory is a file
	typeCommand(m, "cordon node1")
	m.recov.wait()
	update(m, tickMsg{id: m.tickID})
	if !m.statusErr || !strings.Contains(m.status, "could not keep the recovery file") {
		t.Fatalf("status: %q", m.status)
	}
	typeCommand(m, "cordon node2")
	m.recov.wait()
	update(m, tickMsg{id: m.tickID})
	if strings.Contains(m.status, "recovery") {
		t.Fatalf("the same failure is reported once: %q", m.status)
	}
}

// A second lab started while the first runs with unsaved commands was
// offered the first one's recovery file as "not saved", and n set it
// aside. It is not offered while its writer runs; the status line says
// whose it is.
func TestRecoveryOfALiveLabIsNotOffered(t *testing.T) {
	path := filepath.Join(t.TempDir(), "recovery.yaml")
	m := newRecoveringModel(t, path)
	typeCommand(m, "cordon node1")
	m.recov.wait()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// as if another process (the test's parent, which runs) wrote it
	live := strings.Replace(string(b), fmt.Sprintf("pid %d\n", os.Getpid()), fmt.Sprintf("pid %d\n", os.Getppid()), 1)
	if live == string(b) {
		t.Fatalf("no pid line:\n%.200s", b)
	}
	if err := os.WriteFile(path, []byte(live), 0o600); err != nil {
		t.Fatal(err)
	}
	m2 := newRecoveringModel(t, path)
	if m2.top != nil {
		t.Fatalf("a running lab's recovery file is not offered:\n%s", screen(m2))
	}
	if want := fmt.Sprintf("another podlab (pid %d) is running", os.Getppid()); !strings.Contains(m2.status, want) {
		t.Fatalf("status %q, want %q", m2.status, want)
	}
	if got, _ := os.ReadFile(path); string(got) != live {
		t.Fatal("the other lab's file is left as it is")
	}
}

// A command run while a save was writing (a large import's takes
// seconds) is not in the saved file: the recovery file keeps it. The
// save's end removed the file and marked the newer command as recorded.
func TestRecoveryKeepsACommandRunDuringASave(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "recovery.yaml")
	m := newRecoveringModel(t, path)
	typeCommand(m, "cordon node1")
	m.recov.wait()
	save := m.saveCmd(filepath.Join(t.TempDir(), "saved.yaml"), false)
	typeCommand(m, "cordon node2")
	m.recov.wait()
	update(m, save())
	m.recov.wait()
	if !m.unsaved() {
		t.Fatal("cordon node2 is not in the saved file: the lab has unsaved changes")
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), "cordon node2") {
		t.Fatalf("the recovery file keeps the command run during the save: %v", err)
	}
}
