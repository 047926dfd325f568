package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLoad: no input panics the loader (Load turns a panic into an
// "internal error" diagnostic, which the fuzzer treats as a failure), and
// every error and warning carries a position.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.yaml")
	docs, _ := filepath.Glob("testdata/docs/*.yaml")
	for _, name := range append(files, docs...) {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	for _, c := range errorCases {
		f.Add([]byte(c.input))
	}
	for _, c := range validationCases {
		f.Add([]byte(c.input))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, err := Load("f.yaml", data, Options{MaxBytes: 1 << 20})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || len(e.Diagnostics) == 0 {
				t.Fatalf("error is not a *Error with diagnostics: %v", err)
			}
			for _, d := range e.Diagnostics {
				checkDiagnostic(t, d)
				if strings.Contains(d.Message, "internal error") {
					t.Fatalf("loader panicked: %s", d)
				}
			}
			return
		}
		for _, w := range objs.Warnings {
			checkDiagnostic(t, w)
		}
		for _, o := range objs.Order {
			if p := objs.PosOf(o); p.Line < 1 || p.Col < 1 {
				t.Fatalf("object without a position: %+v", p)
			}
		}
	})
}

func checkDiagnostic(t *testing.T, d Diagnostic) {
	t.Helper()
	if d.File != "f.yaml" || d.Line < 1 || d.Col < 1 || d.Message == "" {
		t.Fatalf("diagnostic without a position: %+v", d)
	}
}
