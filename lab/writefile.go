package lab

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes a file so that a failure never destroys what was
// there: write streams the content into a new file in the same
// directory, which is flushed to disk (fsync) and only then renamed over
// path — one atomic step on POSIX file systems. A failed write (disk
// full, file-size limit, interrupted) removes the new file and leaves the
// old one as it was; the error says so. An existing file keeps its mode;
// a new one is 0644 less the umask. A symbolic link is followed: its
// target is replaced, the link stays.
func WriteFile(path string, write func(io.Writer) error) error {
	return writeFile(path, 0o644, write)
}

// writeFile is WriteFile creating a new file with perm (less the umask).
func writeFile(path string, perm fs.FileMode, write func(io.Writer) error) (err error) {
	if path == "" {
		return errors.New("give a file name")
	}
	target, mode, existed, err := writeTarget(path)
	if err != nil {
		return err
	}
	unchanged := func(err error) error {
		if existed {
			return fmt.Errorf("could not write %s (it is unchanged): %w", path, err)
		}
		return fmt.Errorf("could not write %s: %w", path, err)
	}
	dir := filepath.Dir(target)
	tmp, err := createSibling(dir, filepath.Base(target), perm)
	if err != nil {
		return unchanged(err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 256<<10)
	if err := write(bw); err != nil {
		return unchanged(err)
	}
	if err := bw.Flush(); err != nil {
		return unchanged(err)
	}
	if existed {
		if err := tmp.Chmod(mode); err != nil {
			return unchanged(err)
		}
	}
	if err := tmp.Sync(); err != nil {
		return unchanged(err)
	}
	if err := tmp.Close(); err != nil {
		return unchanged(err)
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return unchanged(err)
	}
	// the rename itself reaches the disk with the directory (best effort:
	// not every system can sync a directory)
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// FileExists reports whether path names an existing file (what a save
// asks about before replacing it); a path that cannot be examined is an
// error, not "absent".
func FileExists(path string) (bool, error) {
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		// not a file a save could replace: said now, not after asking
		return false, fmt.Errorf("%s is a directory; give a file name", path)
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, err
}

// writeTarget is the file WriteFile replaces (a link's target) and the
// mode it has, if it exists.
func writeTarget(path string) (target string, mode fs.FileMode, existed bool, err error) {
	target = path
	if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return "", 0, false, fmt.Errorf("could not write %s: %w", path, err)
		}
	}
	fi, err := os.Stat(target)
	switch {
	case err == nil:
		if !fi.Mode().IsRegular() {
			return "", 0, false, fmt.Errorf("could not write %s: not a regular file", path)
		}
		return target, fi.Mode().Perm(), true, nil
	case errors.Is(err, fs.ErrNotExist):
		if _, derr := os.Stat(filepath.Dir(target)); derr != nil {
			return "", 0, false, fmt.Errorf("could not write %s: %w", path, derr)
		}
		return target, 0, false, nil
	}
	return "", 0, false, fmt.Errorf("could not write %s: %w", path, err)
}

// createSibling creates a new, empty file next to base in dir, named so
// a person who finds one left by a crash knows what it was.
func createSibling(dir, base string, perm fs.FileMode) (*os.File, error) {
	for range 10 {
		var r [6]byte
		if _, err := rand.Read(r[:]); err != nil {
			return nil, err
		}
		name := filepath.Join(dir, "."+base+".podlab-"+hex.EncodeToString(r[:])+".tmp")
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, errors.New("could not create a temporary file")
}
