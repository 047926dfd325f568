package lab

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// saveAndExport saves a session of f after a few commands, and exports f.
func saveAndExport(t *testing.T, f *File) (saved, exported []byte, err error) {
	t.Helper()
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"advance 20s", "scale deployment/web --replicas=4", "advance 10s"} {
		if _, err := s.Apply(line); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	var sb, eb bytes.Buffer
	if err := s.Save(&sb); err != nil {
		return nil, nil, err
	}
	if err := Export(&eb, f); err != nil {
		return nil, nil, err
	}
	return sb.Bytes(), eb.Bytes(), nil
}

// A file over keepTextMax is not kept in memory: Save and Export read it
// again and write exactly what they write from the kept bytes; a file
// changed on disk since is refused with a message that says so (a touch
// alone is not a change); standard input is always kept.
func TestLargeFileTextIsReadAgain(t *testing.T) {
	data := mustRead(t, "testdata/example.yaml")
	path := filepath.Join(t.TempDir(), "example.yaml")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	kept, err := LoadFile("example.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	wantSaved, wantExported, err := saveAndExport(t, kept)
	if err != nil {
		t.Fatal(err)
	}

	defer func(n int) { keepTextMax = n }(keepTextMax)
	keepTextMax = len(data) - 1
	f, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Data != nil || f.source == nil {
		t.Fatalf("a file over keepTextMax keeps its %d bytes", len(f.Data))
	}
	saved, exported, err := saveAndExport(t, f)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(saved, wantSaved) || !bytes.Equal(exported, wantExported) {
		t.Fatalf("read again, the save or export differs:\n%s\n---- want\n%s", saved, wantSaved)
	}

	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if _, _, err := saveAndExport(t, f); err != nil {
		t.Fatalf("touched, not changed: %v", err)
	}

	// same length, one byte changed
	changed := bytes.Replace(data, []byte("replicas: "), []byte("replicas:\t"), 1)
	if len(changed) != len(data) || bytes.Equal(changed, data) {
		t.Fatal("testdata/example.yaml has no `replicas: ` to change")
	}
	for _, edit := range [][]byte{changed, append(data, "\n"...)} {
		if err := os.WriteFile(path, edit, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := NewSession(f, SessionOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := s.Save(&b); err == nil || !strings.Contains(err.Error(), "changed on disk since it was loaded") {
			t.Fatalf("save of a changed file: %v", err)
		}
		if b.Len() != 0 {
			t.Fatalf("a refused save wrote %d bytes", b.Len())
		}
		if err := Export(&b, f); err == nil || !strings.Contains(err.Error(), "changed on disk since it was loaded") || b.Len() != 0 {
			t.Fatalf("export of a changed file: %v (%d bytes written)", err, b.Len())
		}
	}

	in, err := Open("-", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(in.Data, data) || in.source != nil {
		t.Fatal("standard input cannot be read again, and must be kept")
	}
}
