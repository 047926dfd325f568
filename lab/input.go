package lab

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"podlab.dev/podlab/lab/manifest"
)

// ReadFile reads a scenario or manifest file ("-" is standard input),
// refusing inputs over the loader's size limit before reading them whole.
func ReadFile(path string, stdin io.Reader) ([]byte, string, error) {
	var r io.Reader
	name := path
	var b bytes.Buffer
	sized := false
	if path == "-" {
		r, name = stdin, "<stdin>"
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, "", fmt.Errorf("open scenario: %w", err)
		}
		defer f.Close()
		r, name = f, filepath.Base(path)
		if st, err := f.Stat(); err == nil {
			switch {
			case st.IsDir():
				return nil, "", fmt.Errorf("%s is a directory; give a scenario file", path)
			case st.Mode().IsRegular():
				if st.Size() > manifest.DefaultMaxBytes {
					return nil, "", tooLarge(name)
				}
				// One allocation of the file's size: reading by doubling
				// would hold up to twice a 300 MB dump while reading it.
				b.Grow(int(st.Size()) + bytes.MinRead)
				sized = true
			}
		}
	}
	lr := io.LimitReader(r, manifest.DefaultMaxBytes+1)
	var data []byte
	var err error
	if sized {
		_, err = b.ReadFrom(lr)
		data = b.Bytes()
	} else {
		data, err = readBlocks(lr)
	}
	if err != nil {
		return nil, "", fmt.Errorf("read %s: %w", name, err)
	}
	if len(data) > manifest.DefaultMaxBytes {
		return nil, "", tooLarge(name)
	}
	return data, name, nil
}

// readBlocks reads r (a pipe: its size is unknown) to the end in blocks
// and returns it in one slice of exactly its length. Reading by doubling
// (bytes.Buffer) held 1.5× a piped 465 MB dump while copying, and kept
// the last buffer — 768 MB for it — for the whole load.
func readBlocks(r io.Reader) ([]byte, error) {
	var blocks [][]byte
	total, size := 0, 64<<10
	for {
		b := make([]byte, size)
		n, err := io.ReadFull(r, b)
		blocks, total = append(blocks, b[:n]), total+n
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
		size = min(2*size, 16<<20)
	}
	out := make([]byte, 0, total)
	for _, b := range blocks {
		out = append(out, b...)
	}
	return out, nil
}

func tooLarge(name string) error {
	return fmt.Errorf("%s is larger than %d MiB, the input limit (a 1,000-node, 30,000-pod `kubectl get -o yaml` is about 150–300 MB; import fewer namespaces or kinds)", name, manifest.DefaultMaxBytes>>20)
}

// Open reads and parses a scenario file.
func Open(path string, stdin io.Reader) (*File, error) {
	return openWithProgress(path, stdin, nil)
}

func openWithProgress(path string, stdin io.Reader, progress func(done, total int)) (*File, error) {
	data, name, err := ReadFile(path, stdin)
	if err != nil {
		return nil, err
	}
	f, err := LoadFileWithProgress(name, data, progress)
	if err != nil {
		return nil, err
	}
	if path != "-" {
		f.Dir = filepath.Dir(path)
	}
	if err := f.forgetText(path); err != nil {
		return nil, err
	}
	if err := f.resolveSchedulerConfig(); err != nil {
		return nil, err
	}
	return f, nil
}

// ReadStdinScenario parses a scenario from a reader (tests, pipes).
func ReadStdinScenario(r io.Reader) (*File, error) {
	return Open("-", r)
}
