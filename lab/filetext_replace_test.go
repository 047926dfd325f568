package lab

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// A large file replaced on disk by a rename — a restored recovery file
// the lab rewrites after every command, or a save over the file the lab
// was opened from — still saves: the lab reads the file it loaded, not
// whatever now has its name. Before, the second recovery write after a
// restore (and every save after it) failed with "changed on disk".
func TestLargeFileReplacedByRenameStillSaves(t *testing.T) {
	data := mustRead(t, "testdata/example.yaml")
	path := filepath.Join(t.TempDir(), "recovery.yaml")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	defer func(n int) { keepTextMax = n }(keepTextMax)
	keepTextMax = len(data) - 1
	f, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.source == nil {
		t.Fatal("the file is kept in memory; the test needs it read again")
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var first []byte
	for i, line := range []string{"advance 20s", "scale deployment/web --replicas=4", "advance 10s"} {
		if _, err := s.Apply(line); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		sv, err := s.Saver(SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteRecovery(path, "example.yaml", sv); err != nil {
			t.Fatalf("recovery write %d over the file the session came from: %v", i+1, err)
		}
		if i == 0 {
			first, _ = os.ReadFile(path)
		}
	}
	var b bytes.Buffer
	if err := s.Save(&b); err != nil {
		t.Fatalf("save after the file was replaced: %v", err)
	}
	if bytes.Equal(first, b.Bytes()) || !bytes.Contains(b.Bytes(), []byte("kind: Deployment")) {
		t.Fatalf("the save lost the manifests or the commands:\n%s", b.Bytes())
	}
}
