package lab

import (
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"
)

func TestZZCheckpointMem(t *testing.T) {
	if os.Getenv("ZZMEM") == "" {
		t.Skip()
	}
	runtime.MemProfileRate = 4096
	f, _ := LoadFile("big.yaml", []byte(bigScenario(1000, 30000)))
	s, _ := NewSession(f, SessionOptions{NoCheckpoints: true})
	for i := 0; i < 100; i++ {
		s.Advance(5 * time.Second)
		s.Apply(benchCommand(i))
	}
	base := heapMB()
	var keep []any
	prof := func(name string) {
		runtime.GC()
		fh, _ := os.Create(name)
		pprof.WriteHeapProfile(fh)
		fh.Close()
	}
	prof("/tmp/zz0.prof")
	for i := 0; i < 5; i++ {
		eng := s.eng.Clone()
		ctl, _ := s.ctl.Clone(eng)
		eng.Freeze()
		keep = append(keep, eng, ctl)
		s.Advance(5 * time.Second)
		s.Apply(benchCommand(100 + i))
	}
	prof("/tmp/zz1.prof")
	t.Logf("session %.1f MB, 5 checkpoints +%.1f MB", base, heapMB()-base)
	runtime.KeepAlive(keep)
}
