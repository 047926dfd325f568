package lab

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// BenchmarkSaver is the cost of keeping the recovery file: Saver (the
// session's header and history taken, on the UI goroutine after each
// command) and WriteTo (rendered and written, on the writer goroutine), for a session of 1,000 commands and
// for a 10 MB file (20,000 objects) with 10 commands.
func BenchmarkSaver(b *testing.B) {
	cases := []struct {
		name string
		s    func(b *testing.B) *Session
	}{
		{"commands=1000", func(b *testing.B) *Session {
			f, err := LoadPreset("spread-basics")
			if err != nil {
				b.Fatal(err)
			}
			s, err := NewSession(f, SessionOptions{})
			if err != nil {
				b.Fatal(err)
			}
			for i := range 1000 {
				line := fmt.Sprintf("label node node%d lab=v%d", 1+i%4, i)
				if i%10 == 9 {
					line = "advance 1s"
				}
				if _, err := s.Apply(line); err != nil {
					b.Fatal(err)
				}
			}
			return s
		}},
		{"objects=20000", func(b *testing.B) *Session {
			var sb strings.Builder
			sb.WriteString("apiVersion: podlab/v1\nkind: Scenario\nmetadata: {name: big}\ncluster: {zones: [{name: a, nodes: 2}]}\n")
			for i := range 20000 {
				fmt.Fprintf(&sb, "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns-%05d\n  labels: {team: platform-%d, tier: backend, owner: someone-with-a-long-name-%d, env: production}\n  annotations: {note: \"%s\"}\n", i, i%50, i, strings.Repeat("x", 300))
			}
			f, err := LoadFile("big.yaml", []byte(sb.String()))
			if err != nil {
				b.Fatal(err)
			}
			s, err := NewSession(f, SessionOptions{})
			if err != nil {
				b.Fatal(err)
			}
			for i := range 10 {
				if _, err := s.Apply(fmt.Sprintf("advance %ds", i+1)); err != nil {
					b.Fatal(err)
				}
			}
			return s
		}},
	}
	for _, c := range cases {
		s := c.s(b)
		b.Run(c.name+"/Saver", func(b *testing.B) {
			cpuLoop(b, func() {
				if _, err := s.Saver(SaveOptions{}); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(c.name+"/WriteTo", func(b *testing.B) {
			sv, err := s.Saver(SaveOptions{})
			if err != nil {
				b.Fatal(err)
			}
			var n int64
			cpuLoop(b, func() {
				if n, err = sv.WriteTo(io.Discard); err != nil {
					b.Fatal(err)
				}
			})
			b.ReportMetric(float64(n), "bytes")
		})
	}
}
