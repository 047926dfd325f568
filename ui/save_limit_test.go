//go:build linux || darwin || freebsd

package ui

import (
	"os"
	"os/exec"
	"os/signal"
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
