package lab

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// A save that fails part-way leaves the file it would replace as it was,
// and no temporary file behind; the error says the file is unchanged.
func TestWriteFileFailureKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lesson.yaml")
	if err := os.WriteFile(path, []byte("the good scenario\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(path, func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("x", 300<<10)) // past the buffer: on disk
		return errors.New("disk full")
	})
	if err == nil || !strings.Contains(err.Error(), "disk full") || !strings.Contains(err.Error(), "unchanged") {
		t.Fatalf("error %v: want the cause and that the file is unchanged", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "the good scenario\n" {
		t.Fatalf("the old file changed: %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("a temporary file was left behind: %v", ents)
	}
}

// A replaced file keeps its mode; a symbolic link keeps pointing at the
// (replaced) target; a new file is created.
func TestWriteFileReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.yaml")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, writeString("new")); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if b, _ := os.ReadFile(path); string(b) != "new" || fi.Mode().Perm() != 0o600 {
		t.Fatalf("replaced file: %q mode %v, want \"new\" 0600", b, fi.Mode().Perm())
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink("a.yaml", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, writeString("via link")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a file")
	}
	if b, _ := os.ReadFile(path); string(b) != "via link" {
		t.Fatalf("the link's target: %q", b)
	}
	fresh := filepath.Join(dir, "fresh.yaml")
	if err := WriteFile(fresh, writeString("x")); err != nil {
		t.Fatal(err)
	}
	if ok, err := FileExists(fresh); !ok || err != nil {
		t.Fatalf("FileExists(new file) = %v, %v", ok, err)
	}
	if err := WriteFile(filepath.Join(dir, "no", "such", "dir.yaml"), writeString("x")); err == nil {
		t.Fatal("a missing directory must be an error")
	}
	if err := WriteFile(dir, writeString("x")); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("saving over a directory: %v", err)
	}
}

// FuzzWriteFile: whatever is written and wherever the write fails, the
// file holds either the old content or all of the new, and nothing else
// is left in the directory.
func FuzzWriteFile(f *testing.F) {
	f.Add([]byte("new"), 1)
	f.Add(make([]byte, 300<<10), 200<<10)
	f.Add([]byte{}, 0)
	f.Fuzz(func(t *testing.T, content []byte, failAt int) {
		dir := t.TempDir()
		path := filepath.Join(dir, "f.yaml")
		if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		fail := failAt >= 0 && failAt < len(content)
		err := WriteFile(path, func(w io.Writer) error {
			if fail {
				w.Write(content[:failAt])
				return errors.New("failed")
			}
			_, err := w.Write(content)
			return err
		})
		got, _ := os.ReadFile(path)
		switch {
		case fail && (err == nil || string(got) != "old"):
			t.Fatalf("a failed write: err %v, file %d bytes", err, len(got))
		case !fail && (err != nil || string(got) != string(content)):
			t.Fatalf("a write: err %v, file %d of %d bytes", err, len(got), len(content))
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Fatalf("left behind: %v", ents)
		}
	})
}

// Saving onto a directory asked "dir exists. Replace it with this
// session?" and then failed; it is refused at once.
func TestFileExistsRefusesADirectory(t *testing.T) {
	dir := t.TempDir()
	ok, err := FileExists(dir)
	if err == nil || ok || !strings.Contains(err.Error(), dir+" is a directory; give a file name") {
		t.Fatalf("FileExists(dir) = %v, %v", ok, err)
	}
}
