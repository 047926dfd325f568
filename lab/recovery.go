package lab

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The recovery file: the TUI keeps the session with unsaved changes in a
// file in the user's state directory, rewritten after every command
// (atomically, off the UI loop) and removed on a clean quit or a save.
// After a crash, a closed terminal or a killed process, the next start
// offers to restore it. It is a saved session (Save) after two comment
// lines naming the file the session came from and the writer's pid.

// StateDirEnv overrides the directory of the recovery file (tests point
// it at a temporary directory).
const StateDirEnv = "PODLAB_STATE_DIR"

// recoveryName is the recovery file's name in the state directory;
// discardedName keeps the last one declined at start (one step back).
const (
	recoveryName  = "recovery.yaml"
	discardedName = "recovery-discarded.yaml"
	recoveryMark  = "# podlab recovery of "
	// recoveryPIDMark starts the second line: the writer's process id.
	recoveryPIDMark = "# podlab recovery kept by pid "
)

// RecoveryPath is where the recovery file lives: $PODLAB_STATE_DIR, else
// the XDG state directory ($XDG_STATE_HOME, else ~/.local/state) on Linux
// and the BSDs, else the user configuration directory (macOS: Library/
// Application Support; Windows: %AppData%), in a podlab directory.
func RecoveryPath() (string, error) {
	if d := os.Getenv(StateDirEnv); d != "" {
		return filepath.Join(d, recoveryName), nil
	}
	var base string
	switch runtime.GOOS {
	case "darwin", "windows", "ios", "plan9":
		d, err := os.UserConfigDir()
		if err != nil {
			return "", err
		}
		base = d
	default:
		if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
			base = d
		} else {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", err
			}
			base = filepath.Join(home, ".local", "state")
		}
	}
	return filepath.Join(base, "podlab", recoveryName), nil
}

// WriteRecovery writes a rendered save as the recovery file at path (it
// and its directory private to the user: an imported cluster is in it),
// noting from, the file the session came from.
func WriteRecovery(path, from string, sv *Saved) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("recovery file: %w", err)
	}
	return writeFile(path, 0o600, func(w io.Writer) error {
		if _, err := io.WriteString(w, recoveryMark+strconv.Quote(from)+"\n"+recoveryPIDMark+strconv.Itoa(os.Getpid())+"\n"); err != nil {
			return err
		}
		_, err := sv.WriteTo(w)
		return err
	})
}

// Recovery is a recovery file found at start.
type Recovery struct {
	Path string
	// From is the file or preset the session came from ("" unknown).
	From string
	// Written is when it was last written.
	Written time.Time
	// LivePID is the process id of another podlab that wrote it and is
	// still running (0: none, or unknown): its lab is not lost, and
	// offering to restore or set it aside would be wrong.
	LivePID int
}

// FindRecovery returns the recovery file at path, or nil when there is
// none.
func FindRecovery(path string) (*Recovery, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("recovery file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("recovery file: %w", err)
	}
	r := &Recovery{Path: path, Written: fi.ModTime()}
	br := bufio.NewReaderSize(f, 4096)
	line, _ := br.ReadString('\n')
	if q, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), recoveryMark); ok {
		if from, err := strconv.Unquote(q); err == nil {
			r.From = from
		}
	}
	line, _ = br.ReadString('\n')
	if p, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), recoveryPIDMark); ok {
		if pid, err := strconv.Atoi(p); err == nil && pid != os.Getpid() && processAlive(pid) {
			r.LivePID = pid
		}
	}
	return r, nil
}

// Discard moves the recovery file aside (declined at start): the last
// one declined stays next to it, as recovery-discarded.yaml, until the
// next is declined.
func (r *Recovery) Discard() error {
	return os.Rename(r.Path, filepath.Join(filepath.Dir(r.Path), discardedName))
}

// RemoveRecovery removes the recovery file (a clean quit, a save); none
// there is not an error. A file another running lab wrote last is left:
// two labs share it, and this one's quit must not drop the other's
// unsaved work.
func RemoveRecovery(path string) error {
	if r, err := FindRecovery(path); err == nil && r != nil && r.LivePID != 0 {
		return nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("recovery file: %w", err)
	}
	return nil
}

// processAlive reports whether a process with this id runs (signal 0:
// checked, not sent). Where that cannot be asked (Windows), or the
// process is another user's, it answers false: the lab offers the file as
// before.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return p.Signal(syscall.Signal(0)) == nil
}
