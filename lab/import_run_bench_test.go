package lab

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkImportRunYAML and BenchmarkImportRunJSON are issue 13's import
// goal end to end, as `podlab run -f FILE --for 1s` does it: open the
// kubectllist cluster (1,000 nodes, 2,800 Deployments and ReplicaSets,
// 2 DaemonSets, 30,000 pods, managedFields), restore it into a session,
// run one virtual second and write the report. Goal: < 10 s, < 1.5 GB.
// Besides ns/op: the process CPU time (cpu-s, what a shared machine
// cannot inflate) and, on Linux, the peak resident set from the open to
// the report (peak-rss-MB: VmHWM, reset after the set-up).
func BenchmarkImportRunYAML(b *testing.B) { benchmarkImportRun(b, false) }
func BenchmarkImportRunJSON(b *testing.B) { benchmarkImportRun(b, true) }

func benchmarkImportRun(b *testing.B, asJSON bool) {
	path := kubectlListFile(b, importScale, asJSON)
	for b.Loop() {
		runtime.GC()
		debug.FreeOSMemory() // the generator's garbage is not the import's
		peak := resetPeakRSSForImport()
		cpu := processCPU(b)
		f, err := Open(path, nil)
		if err != nil {
			b.Fatal(err)
		}
		var out countingDiscard
		if err := Run(&out, f, RunOptions{For: time.Second}); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric((processCPU(b) - cpu).Seconds(), "cpu-s")
		if peak != nil {
			b.ReportMetric(float64(peak())/(1<<20), "peak-rss-MB")
		}
		if out.n == 0 {
			b.Fatal("no report")
		}
	}
}

// countingDiscard is io.Discard that counts.
type countingDiscard struct{ n int64 }

func (w *countingDiscard) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

var _ io.Writer = (*countingDiscard)(nil)

// resetPeakRSSForImport resets the process's peak resident set (Linux:
// 5 into /proc/self/clear_refs) and returns what reads it (VmHWM, bytes);
// nil where that is not supported.
func resetPeakRSSForImport() func() int64 {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return nil
	}
	return func() int64 {
		status, err := os.ReadFile("/proc/self/status")
		if err != nil {
			return 0
		}
		sc := bufio.NewScanner(bytes.NewReader(status))
		for sc.Scan() {
			if kb, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
				n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64)
				return n << 10
			}
		}
		return 0
	}
}
