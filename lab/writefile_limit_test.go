//go:build linux || darwin || freebsd

package lab

import (
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// childSaveUnderLimit lowers the file-size limit to 2 KiB (ulimit -f 2)
// and saves; SIGXFSZ is ignored, so the write fails with EFBIG as it
// does in a shell that ignores it.
func childSaveUnderLimit(t *testing.T, path string, save func() error) {
	signal.Ignore(syscall.SIGXFSZ)
	lim := syscall.Rlimit{Cur: 2048, Max: 2048}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	t.Logf("save: %v", save())
}

// The repro: with the file-size limit lowered (ulimit -f 2), a
// save over a good 5,774-byte scenario truncated it to 2,048 bytes. The
// child process (this test binary again) lowers its limit and saves.
func TestWriteFileOverSizeLimit(t *testing.T) {
	if path := os.Getenv("PODLAB_TEST_FSIZE_PATH"); path != "" {
		childSaveUnderLimit(t, path, func() error {
			return WriteFile(path, writeString(strings.Repeat("new scenario\n", 1000)))
		})
		return
	}
	path := filepath.Join(t.TempDir(), "scenario.yaml")
	good := strings.Repeat("a good scenario line\n", 275) // 5,775 bytes
	if err := os.WriteFile(path, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runUnderLimit(t, "TestWriteFileOverSizeLimit", path)
	if b, _ := os.ReadFile(path); string(b) != good {
		t.Fatalf("the save over the size limit changed the file to %d bytes (child said %s)", len(b), out)
	}
	if !strings.Contains(out, "unchanged") || !strings.Contains(out, "file too large") {
		t.Fatalf("the error must say why and that the file is unchanged: %s", out)
	}
}

// runUnderLimit runs test name in a child process that saves to path
// with a 2 KiB file-size limit, and returns what it printed.
func runUnderLimit(t *testing.T, name, path string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+name+"$", "-test.v")
	cmd.Env = append(os.Environ(), "PODLAB_TEST_FSIZE_PATH="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	return string(out)
}
