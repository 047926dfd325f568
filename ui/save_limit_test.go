//go:build linux || darwin || freebsd

package ui

import (
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// limitFileSize lowers this process's file-size limit to 2 KiB (ulimit
// -f 2), SIGXFSZ ignored: a write past it fails with EFBIG.
func limitFileSize(t *testing.T) {
	signal.Ignore(syscall.SIGXFSZ)
	lim := syscall.Rlimit{Cur: 2048, Max: 2048}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
}

// childUnderLimit runs test name in a child process with env set.
func childUnderLimit(t *testing.T, name, env string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+name+"$", "-test.v")
	cmd.Env = append(os.Environ(), env)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	return string(out)
}

// The repro: with the file-size limit at 2 KiB (ulimit -f 2), a
// failed save truncated a good 5,774-byte scenario to 2,048 bytes. Now
// the old file stays whole and the status line says why. The save runs
// in a child process (this test binary) with the limit lowered.
func TestFailedSaveKeepsTheFile(t *testing.T) {
	if path := os.Getenv("PODLAB_TEST_UI_FSIZE"); path != "" {
		m := newTestModel(t, "spread-basics", 100, 30)
		typeCommand(m, "advance 7s")
		limitFileSize(t)
		run(m, m.saveCmd(path, true))
		t.Logf("status: %s (error %v)", m.status, m.statusErr)
		return
	}
	path := filepath.Join(t.TempDir(), "scenario.yaml")
	good := strings.Repeat("# a good scenario line\n", 251) // 5,773 bytes
	if err := os.WriteFile(path, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	out := childUnderLimit(t, "TestFailedSaveKeepsTheFile", "PODLAB_TEST_UI_FSIZE="+path)
	if b, _ := os.ReadFile(path); string(b) != good {
		t.Fatalf("the failed save changed the file to %d bytes (child: %s)", len(b), out)
	}
	if !strings.Contains(out, "unchanged") || !strings.Contains(out, "file too large") || !strings.Contains(out, "error true") {
		t.Fatalf("the status line must say the save failed, why, and that the file is unchanged: %s", out)
	}
}
