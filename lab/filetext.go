package lab

import (
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"path/filepath"
	"runtime"
)

// keepTextMax is the largest file whose text a File keeps in memory for
// Save and Export. A bigger one — an imported cluster: a 1,000-node,
// 30,000-pod `kubectl get -o json` is 465 MB — is read again from disk
// when it is saved or exported, instead of holding its bytes for the
// whole session (they were a third of the JSON import's 1.77 GB peak).
// Scenario files people write are far below it.
var keepTextMax = 8 << 20

// fileSource is where a File's text is read again: the file's absolute
// path, its length and a hash of the bytes that were loaded, so an edit
// made on disk since is noticed instead of saved as if it were the
// scenario that ran. Size and content are compared, not the modification
// time: a file touched but unchanged still saves.
//
// The file stays open and is read through that descriptor: a file
// replaced by a rename — the recovery file a restored lab rewrites after
// every command, or a save over the file the lab came from — is not the
// one loaded, and reading it by name would refuse every later save. The
// old text stays readable (its disk space held) until the File goes (the
// descriptor is closed when collected). Windows cannot rename over an
// open file, so there it is read by name as before.
type fileSource struct {
	path string
	fd   *os.File // nil: read by name
	size int
	seed maphash.Seed
	sum  uint64
}

func newFileSource(path string, data []byte) (*fileSource, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	seed := maphash.MakeSeed()
	src := &fileSource{path: abs, size: len(data), seed: seed, sum: maphash.Bytes(seed, data)}
	if runtime.GOOS != "windows" {
		// replaced between the read and here: the hash says so on save
		if fd, err := os.Open(abs); err == nil {
			src.fd = fd
		}
	}
	return src, nil
}

// read reads the file again and checks it is the one that was loaded.
func (s *fileSource) read() ([]byte, error) {
	data, err := s.readAll()
	if err != nil {
		return nil, fmt.Errorf("read %s again to save its manifests: %w", s.path, err)
	}
	if len(data) != s.size || maphash.Bytes(s.seed, data) != s.sum {
		return nil, fmt.Errorf("%s changed on disk since it was loaded; podlab reads a large import again to save or export its manifests — restore the file, or open it again", s.path)
	}
	return data, nil
}

// readAll reads the loaded file (one byte more than it had: growth is a
// change); ReadAt is safe while another save reads it too.
func (s *fileSource) readAll() ([]byte, error) {
	if s.fd == nil {
		return os.ReadFile(s.path)
	}
	buf := make([]byte, s.size+1)
	n, err := s.fd.ReadAt(buf, 0)
	if err != nil && err != io.EOF {
		return nil, err
	}
	return buf[:n], nil
}

// forgetText drops a large file's bytes once it is loaded, remembering
// where to read them again (see keepTextMax). Standard input and small
// files keep theirs.
func (f *File) forgetText(path string) error {
	if len(f.Data) <= keepTextMax {
		return nil
	}
	if path != "-" {
		src, err := newFileSource(path, f.Data)
		if err != nil {
			return err
		}
		f.source, f.Data = src, nil
	}
	// Collect now: the collector sets its next goal at twice the heap
	// found live, and its last count, taken during the load, included the
	// parse trees (and these bytes) — the session built next would let
	// the heap grow to 1.5 GB before the first collection freed them.
	// Standard input's bytes stay, but the goal is then twice what is
	// really live.
	runtime.GC()
	return nil
}

// text is the file as it was read: kept in memory, or read again.
func (f *File) text() ([]byte, error) {
	if f.Data != nil || f.source == nil {
		return f.Data, nil
	}
	return f.source.read()
}

// manifestText is the file's manifests without its lab header (whose
// lines are blank, so positions still match).
func (f *File) manifestText() ([]byte, error) {
	data, err := f.text()
	if err != nil {
		return nil, err
	}
	_, manifests, _ := splitScenario(data)
	return manifests, nil
}

// ReadAgain reports whether a save reads the file again from disk (a
// large import, keepTextMax): each save or recovery write then costs a
// read of the whole file, so the TUI refreshes the recovery file only
// after commands, not as the clock runs.
func (f *File) ReadAgain() bool { return f.source != nil }
