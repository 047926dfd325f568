package lab

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"podlab.dev/podlab/lab/manifest"
)

// A file over the input limit is refused from its size, before it is
// read (the file here is sparse: reading it would take 512 MiB), with the
// limit in the message; a file under it is read exactly, as is standard
// input.
func TestReadFileLimit(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "dump.yaml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(manifest.DefaultMaxBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, _, err := ReadFile(big, nil); err == nil || !strings.Contains(err.Error(), "larger than 512 MiB, the input limit") {
		t.Fatalf("over the limit: %v", err)
	}

	small := filepath.Join(dir, "pod.yaml")
	text := []byte("apiVersion: v1\nkind: Pod\n")
	if err := os.WriteFile(small, text, 0o644); err != nil {
		t.Fatal(err)
	}
	data, name, err := ReadFile(small, nil)
	if err != nil || !bytes.Equal(data, text) || name != "pod.yaml" {
		t.Fatalf("read %q as %q: %v", small, data, err)
	}
	data, name, err = ReadFile("-", bytes.NewReader(text))
	if err != nil || !bytes.Equal(data, text) || name != "<stdin>" {
		t.Fatalf("stdin: %q as %q: %v", data, name, err)
	}
}

// Standard input (its size unknown) is read in blocks into one slice of
// exactly its length, whatever the reads return: a kept 465 MB dump must
// not keep a doubling buffer's spare capacity.
func TestReadBlocksExact(t *testing.T) {
	for _, n := range []int{0, 1, 64 << 10, 64<<10 + 1, 3<<20 + 17} {
		want := make([]byte, n)
		for i := range want {
			want[i] = byte(i * 7)
		}
		got, name, err := ReadFile("-", iotest.HalfReader(bytes.NewReader(want)))
		if err != nil || name != "<stdin>" || !bytes.Equal(got, want) || cap(got) != n {
			t.Fatalf("%d bytes: got %d (cap %d), %v", n, len(got), cap(got), err)
		}
	}
	if _, err := readBlocks(iotest.ErrReader(io.ErrClosedPipe)); !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("read error: %v", err)
	}
}
