package lab

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// The recovery file lives where PODLAB_STATE_DIR says, else in the XDG
// state directory.
func TestRecoveryPath(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(StateDirEnv, dir)
	if p, err := RecoveryPath(); err != nil || p != filepath.Join(dir, "recovery.yaml") {
		t.Fatalf("with %s: %q %v", StateDirEnv, p, err)
	}
	t.Setenv(StateDirEnv, "")
	t.Setenv("XDG_STATE_HOME", "/xdg/state")
	if p, err := RecoveryPath(); err != nil || (p != "/xdg/state/podlab/recovery.yaml" && !isDarwinOrWindows()) {
		t.Fatalf("with XDG_STATE_HOME: %q %v", p, err)
	}
}

// A recovery file written, found (with the file it came from), reloaded
// as the same session, discarded aside and removed.
func TestRecoveryRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "recovery.yaml")
	if r, err := FindRecovery(path); r != nil || err != nil {
		t.Fatalf("no file: %v %v", r, err)
	}
	s := presetSession(t, "spread-basics")
	if _, err := s.Apply("cordon node1"); err != nil {
		t.Fatal(err)
	}
	sv, err := s.Saver(SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteRecovery(path, "lessons/my\nlesson.yaml", sv); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("state directory: %v %v", fi, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("recovery file: %v %v", fi, err)
	}
	r, err := FindRecovery(path)
	if err != nil || r == nil || r.From != "lessons/my\nlesson.yaml" {
		t.Fatalf("found %+v %v", r, err)
	}
	g, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	back, err := NewSession(g, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := back.Advance(0); err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	s.Save(&a)
	back.Save(&b)
	if a.String() != b.String() {
		t.Fatalf("the restored session saves differently:\n%s\n---\n%s", a.String(), b.String())
	}
	if err := r.Discard(); err != nil {
		t.Fatal(err)
	}
	if r, _ := FindRecovery(path); r != nil {
		t.Fatal("discarded, yet still found")
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), "recovery-discarded.yaml")); err != nil {
		t.Fatal("the discarded file is kept aside")
	}
	if err := RemoveRecovery(path); err != nil {
		t.Fatal("removing no file is not an error")
	}
}

func isDarwinOrWindows() bool { return runtime.GOOS == "darwin" || runtime.GOOS == "windows" }

// spreadRecovery writes the recovery file of a new spread-basics session
// at path, checks that it names this process, and returns a function
// that rewrites the file as though process pid had written it.
func spreadRecovery(t *testing.T, path string) (writtenBy func(pid int)) {
	t.Helper()
	sv, err := presetSession(t, "spread-basics").Saver(SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteRecovery(path, "spread-basics", sv); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	own := recoveryPIDMark + strconv.Itoa(os.Getpid()) + "\n"
	if !strings.Contains(string(data), own) {
		t.Fatalf("no pid line in\n%.200s", data)
	}
	return func(pid int) {
		t.Helper()
		other := strings.Replace(string(data), own, recoveryPIDMark+strconv.Itoa(pid)+"\n", 1)
		if err := os.WriteFile(path, []byte(other), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// Two labs share one recovery file: the second one started offered the
// first one's running lab as "not saved", and n moved it aside. The file
// names its writer's process, and a running writer is reported.
func TestRecoveryNamesItsLiveWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "recovery.yaml")
	writtenBy := spreadRecovery(t, path)
	// written by this process: not another lab
	if r, err := FindRecovery(path); err != nil || r == nil || r.LivePID != 0 {
		t.Fatalf("own file: %+v %v", r, err)
	}
	// by a process that runs (the test's parent)
	writtenBy(os.Getppid())
	if r, err := FindRecovery(path); err != nil || r == nil || r.LivePID != os.Getppid() || r.From != "spread-basics" {
		t.Fatalf("live writer: %+v %v", r, err)
	}
	// by one that is gone (pid beyond any pid_max): offered as before
	writtenBy(2147483647)
	if r, err := FindRecovery(path); err != nil || r == nil || r.LivePID != 0 {
		t.Fatalf("gone writer: %+v %v", r, err)
	}
}

// A clean quit or a save removes the recovery file only when no other
// running lab wrote it last: two labs share the file, and one quitting
// removed the other's unsaved work.
func TestRemoveRecoveryLeavesAnotherLiveLabsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "recovery.yaml")
	writtenBy := spreadRecovery(t, path)
	writtenBy(os.Getppid())
	if err := RemoveRecovery(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("another running lab's recovery file was removed: %v", err)
	}
	writtenBy(2147483647)
	if err := RemoveRecovery(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("a file of a lab that is gone (restored here) stays after a clean quit")
	}
}
