package lab

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"podlab.dev/podlab/lab/internal/kubectllist"
)

// importScale is the goal's cluster: `kubectl get … -A -o yaml|json` of
// 1,000 nodes and 30,000 pods with managedFields (issue 13 point 6).
var importScale = kubectllist.Spec{Nodes: 1000, Pods: 30000}

var generated sync.Map // file name -> path

// kubectlListFile writes the generated List once per process into a
// temporary directory and returns its path.
func kubectlListFile(b testing.TB, s kubectllist.Spec, asJSON bool) string {
	ext := "yaml"
	if asJSON {
		ext = "json"
	}
	name := fmt.Sprintf("podlab-import-%d-%d.%s", s.Nodes, s.Pods, ext)
	if p, ok := generated.Load(name); ok {
		return p.(string)
	}
	dir, err := os.MkdirTemp("", "podlab-import")
	if err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	if err := kubectllist.Write(f, s, asJSON); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	generated.Store(name, p)
	return p
}

// peakMemory samples the heap while a benchmark runs: the peak of
// HeapInuse (live and not yet collected objects) and of the memory the
// runtime holds from the OS (Sys - HeapReleased, close to the resident
// size).
type peakMemory struct {
	stop       chan struct{}
	done       sync.WaitGroup
	heap, held uint64
}

func samplePeakMemory() *peakMemory {
	m := &peakMemory{stop: make(chan struct{})}
	m.done.Add(1)
	go func() {
		defer m.done.Done()
		t := time.NewTicker(25 * time.Millisecond)
		defer t.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			m.heap = max(m.heap, ms.HeapInuse)
			m.held = max(m.held, ms.Sys-ms.HeapReleased)
			select {
			case <-m.stop:
				return
			case <-t.C:
			}
		}
	}()
	return m
}

func (m *peakMemory) report(b *testing.B) {
	close(m.stop)
	m.done.Wait()
	b.ReportMetric(float64(m.heap)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(m.held)/(1<<20), "peak-held-MB")
}

func benchmarkImport(b *testing.B, s kubectllist.Spec, asJSON bool) {
	path := kubectlListFile(b, s, asJSON)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.Logf("%s: %.1f MB", filepath.Base(path), float64(st.Size())/(1<<20))
	runtime.GC()
	mem := samplePeakMemory()
	for b.Loop() {
		f, err := Open(path, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(f.Objects.Pods) != s.Pods || len(f.Objects.Nodes) != s.Nodes {
			b.Fatalf("%d pods, %d nodes", len(f.Objects.Pods), len(f.Objects.Nodes))
		}
	}
	mem.report(b)
}

func BenchmarkImportYAML(b *testing.B) { benchmarkImport(b, importScale, false) }
func BenchmarkImportJSON(b *testing.B) { benchmarkImport(b, importScale, true) }

// BenchmarkImportSmall is the same shape at a tenth of the size.
func BenchmarkImportSmall(b *testing.B) {
	s := kubectllist.Spec{Nodes: 100, Pods: 3000}
	b.Run("yaml", func(b *testing.B) { benchmarkImport(b, s, false) })
	b.Run("json", func(b *testing.B) { benchmarkImport(b, s, true) })
}
