package lab

import (
	"testing"
	"time"
)

// BenchmarkCheckpointParts times the steps of a checkpoint and of a
// restore on BenchmarkUndo's session (1,000 nodes, 30,000 pods, 100
// commands), in process CPU: cloning the engine, cloning its controllers,
// packing (Freeze) and unpacking (Thaw) the clone, and the first settle of
// a restored clone (its controllers' first pass).
//
//	go test ./lab -run '^$' -bench BenchmarkCheckpointParts -benchtime 10x
func BenchmarkCheckpointParts(b *testing.B) {
	f, err := LoadFile("big.yaml", []byte(bigScenario(1000, 30000)))
	if err != nil {
		b.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{NoCheckpoints: true})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		if err := s.Advance(5 * time.Second); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Apply(benchCommand(i)); err != nil {
			b.Fatal(err)
		}
	}
	var clone, ctl, freeze, thaw, first, cmd time.Duration
	i := 0
	for b.Loop() {
		c0 := processCPU(b)
		eng := s.eng.Clone()
		c1 := processCPU(b)
		ctlc, err := s.ctl.Clone(eng)
		if err != nil {
			b.Fatal(err)
		}
		c2 := processCPU(b)
		eng.Freeze()
		c3 := processCPU(b)
		eng.Thaw()
		c4 := processCPU(b)
		s.use(eng, ctlc)
		if err := s.eng.RunUntil(s.eng.Now().Add(time.Second)); err != nil {
			b.Fatal(err)
		}
		c5 := processCPU(b)
		if _, err := s.Apply(benchCommand(i)); err != nil {
			b.Fatal(err)
		}
		if err := s.eng.RunUntil(s.eng.Now().Add(time.Second)); err != nil {
			b.Fatal(err)
		}
		c6 := processCPU(b)
		clone, ctl, freeze, thaw, first, cmd = clone+c1-c0, ctl+c2-c1, freeze+c3-c2, thaw+c4-c3, first+c5-c4, cmd+c6-c5
		i++
	}
	n := float64(i) * 1e6
	b.ReportMetric(float64(clone)/n, "clone-cpu-ms")
	b.ReportMetric(float64(ctl)/n, "ctlclone-cpu-ms")
	b.ReportMetric(float64(freeze)/n, "freeze-cpu-ms")
	b.ReportMetric(float64(thaw)/n, "thaw-cpu-ms")
	b.ReportMetric(float64(first)/n, "first-second-cpu-ms")
	b.ReportMetric(float64(cmd)/n, "command-cpu-ms")
}
