package lab

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// BenchmarkMetricsOverhead measures what recording metrics costs against
// BenchmarkDay's workload in a way that survives a loaded machine. The
// difference of two whole runs (BenchmarkMetricsDay, off then tracker)
// swings by ±10 % on a shared 2-core machine: the runs are tens of seconds
// apart and the load moves in between. Here the two runs go in lockstep.
// Two child processes (this test binary) each build the day's engine, one
// without and one with the recorder sampling every virtual second, and the
// day is run in chunks (PODLAB_CHUNK_SECONDS, 600 virtual seconds): one
// child runs a chunk while the other waits, then the other runs the same
// chunk, the order alternating (ABBA) so that neither is always first.
// Each child reports its own process CPU (clock_gettime
// CLOCK_PROCESS_CPUTIME_ID: every thread, its own garbage collector on its
// own heap, the engine's Watch callbacks, the samples), so a chunk pair is
// the same virtual interval of the same workload, measured within a few
// tens of milliseconds of each other.
//
// Collections are paired: left to Go's pacing, the two heaps collect at
// different moments (and the recorder's pointer-free points raise its
// heap goal), and a collection landing in one side's chunk swamps the
// chunk. So both children run with GOGC off and collect (runtime.GC,
// inside the timed chunk) every PODLAB_GC_SECONDS virtual seconds, 2,400
// by default — the bare engine's own count over the day, 36 — the same
// collections at the same instants; the recorder's heap still costs its
// marking. PODLAB_GC_SECONDS=0 leaves the pacing to Go.
//
// Reported per lockstep day (-benchtime Nx runs N days; PODLAB_DAY_SECONDS
// shortens them): overhead-% is the day's CPU with the recorder over
// without (the second side over the first, overheadSide), less 1, the
// days pooled; chunk-median-% and chunk-q1-% /
// chunk-q3-% are the median and quartiles of the per-chunk ratios (every
// chunk of every day); off-cpu-s and on-cpu-s are the day's CPU. Each day
// is also logged. PODLAB_OVERHEAD_PROFILE=file writes each side's CPU
// profile (file.off, file.tracker; go tool pprof -top -cum -focus
// 'Metrics..sample'), which the profiler's own cost then weighs on.
func BenchmarkMetricsOverhead(b *testing.B) {
	if mode := os.Getenv(overheadChildEnv); mode != "" {
		overheadChild(b, mode)
		return
	}
	chunk := 600
	if n, err := strconv.Atoi(os.Getenv("PODLAB_CHUNK_SECONDS")); err == nil && n > 0 {
		chunk = n
	}
	gcEvery := 2400
	if v := os.Getenv("PODLAB_GC_SECONDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			b.Fatalf("PODLAB_GC_SECONDS=%q: want virtual seconds between collections, 0 for Go's own pacing", v)
		}
		gcEvery = n
	}
	var offAll, onAll time.Duration
	var ratios []float64
	days := 0
	for b.Loop() {
		off, on, r := overheadDay(b, chunk, gcEvery)
		offAll += off
		onAll += on
		ratios = append(ratios, r...)
		days++
		b.Logf("day %d: %s %.3f s, %s %.3f s CPU: %+.2f %%; chunk median %+.2f %% (%d chunks, load %s)",
			days, overheadSide(0), off.Seconds(), overheadSide(1), on.Seconds(), 100*(float64(on)/float64(off)-1), 100*(quantile(r, 0.5)-1), len(r), loadAvg())
	}
	b.ReportMetric(100*(float64(onAll)/float64(offAll)-1), "overhead-%")
	b.ReportMetric(100*(quantile(ratios, 0.5)-1), "chunk-median-%")
	b.ReportMetric(100*(quantile(ratios, 0.25)-1), "chunk-q1-%")
	b.ReportMetric(100*(quantile(ratios, 0.75)-1), "chunk-q3-%")
	b.ReportMetric(offAll.Seconds()/float64(days), "off-cpu-s")
	b.ReportMetric(onAll.Seconds()/float64(days), "on-cpu-s")
}

const overheadChildEnv = "PODLAB_OVERHEAD_CHILD"

// overheadChild is one side of BenchmarkMetricsOverhead: it builds the
// day's engine (and the recorder, mode "tracker"), then, for each line
// "seconds gc" read from fd 3, runs the seconds (and collects when gc is
// 1) and writes "cpu-ns collections" to fd 4 — its process CPU and
// collections since the start of the day; 0 seconds ends the day,
// answered with "events points bytes-allocated" (the two sides must agree
// on the events).
func overheadChild(b *testing.B, mode string) {
	in := bufio.NewScanner(os.NewFile(3, "commands"))
	out := os.NewFile(4, "replies")
	e, live := dayEngine(b)
	var m *Metrics
	source := func() metricsSource { return engineMetricsSource(e) }
	if mode == "tracker" {
		m = newMetrics(DefaultMetricsPoints)
		m.sample(e, source)
	}
	tick := func() {}
	if m != nil {
		tick = func() { m.sample(e, source) }
	}
	d := newDayDriver(e, live)
	if path := os.Getenv("PODLAB_OVERHEAD_PROFILE"); path != "" {
		f, err := os.Create(path + "." + mode)
		if err != nil {
			b.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			b.Fatal(err)
		}
		defer func() {
			pprof.StopCPUProfile()
			_ = f.Close()
		}()
	}
	gcs := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	runtime.GC()
	c0 := processCPUNow()
	allocs0 := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(allocs0)
	alloc0 := allocs0[0].Value.Uint64()
	if os.Getenv("PODLAB_GC_SECONDS") != "0" {
		debug.SetGCPercent(-1) // the parent says when (gc)
	}
	for in.Scan() {
		var n, gc int
		if _, err := fmt.Sscanf(in.Text(), "%d %d", &n, &gc); err != nil {
			b.Fatal(err)
		}
		if n == 0 {
			points := 0
			if m != nil {
				points, _ = m.size()
			}
			allocs := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
			metrics.Read(allocs)
			fmt.Fprintf(out, "%d %d %d\n", len(e.Events()), points, allocs[0].Value.Uint64()-alloc0)
			return
		}
		d.run(b, n, tick)
		if gc == 1 {
			runtime.GC()
		}
		metrics.Read(gcs)
		fmt.Fprintf(out, "%d %d\n", processCPUNow()-c0, gcs[0].Value.Uint64())
	}
}

// overheadDay runs one lockstep day and returns each side's CPU and the
// per-chunk ratios (tracker / off).
func overheadDay(b *testing.B, chunk, gcEvery int) (off, on time.Duration, ratios []float64) {
	kids := [2]*overheadKid{startOverheadKid(b, 0), startOverheadKid(b, 1)}
	var last [2]time.Duration
	var gcs [2]int
	var trace []string
	seconds := daySeconds()
	for i, done := 0, 0; done < seconds; i++ {
		n := min(chunk, seconds-done)
		gc := gcEvery > 0 && (done+n)/gcEvery > done/gcEvery
		done += n
		var used [2]time.Duration
		for j := range 2 {
			k := j ^ (i & 1) // ABBA: off first on even chunks, tracker first on odd
			cum, g := kids[k].run(b, n, gc)
			used[k], last[k], gcs[k] = cum-last[k], cum, g
		}
		trace = append(trace, fmt.Sprintf("%d,%d,%d,%d,%d", done, used[0], used[1], gcs[0], gcs[1]))
		if used[0] > 0 {
			ratios = append(ratios, float64(used[1])/float64(used[0]))
		}
	}
	var events [2]string
	for k, kid := range kids {
		// events, points, bytes allocated
		f := strings.Fields(kid.finish(b))
		if len(f) != 3 {
			b.Fatalf("child %s: %q", kid.cmd.Args, f)
		}
		events[k] = f[0]
		b.Logf("%s side: %s events, %s points, %s bytes allocated", overheadSide(k), f[0], f[1], f[2])
	}
	if events[0] != events[1] {
		b.Fatalf("the two sides ran different days: %s vs %s events", events[0], events[1])
	}
	b.ReportMetric(float64(len(ratios)), "chunks")
	b.ReportMetric(float64(gcs[0]), "off-gcs")
	b.ReportMetric(float64(gcs[1]), "on-gcs")
	if path := os.Getenv("PODLAB_OVERHEAD_CHUNKS"); path != "" {
		// one line a chunk: virtual seconds done, each side's CPU (ns) and
		// garbage collections so far
		csv := "seconds,off_ns,on_ns,off_gcs,on_gcs\n" + strings.Join(trace, "\n") + "\n"
		if err := os.WriteFile(path, []byte(csv), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return last[0], last[1], ratios
}

// overheadSide is side k's mode, "off" (0) and "tracker" (1) unless
// PODLAB_OVERHEAD_SIDES says otherwise: "off,off" is an A/A run (what the
// method reads when there is nothing to find); a side may name the test
// binary that runs it, "tracker@/tmp/old.test", to compare two versions of
// the recorder in lockstep (that binary must have this benchmark).
func overheadSide(k int) string {
	sides := []string{"off", "tracker"}
	if v := os.Getenv("PODLAB_OVERHEAD_SIDES"); v != "" {
		sides = strings.Split(v, ",")
	}
	if k < len(sides) {
		return sides[k]
	}
	return "off"
}

// overheadKid is a running child and its pipes.
type overheadKid struct {
	cmd     *exec.Cmd
	cmds    *os.File
	replies *bufio.Scanner
}

func startOverheadKid(b *testing.B, side int) *overheadKid {
	mode, bin, ok := strings.Cut(overheadSide(side), "@")
	if !ok {
		bin = os.Args[0]
	}
	if mode != "off" && mode != "tracker" {
		b.Fatalf("PODLAB_OVERHEAD_SIDES: side %q: want off or tracker, optionally @binary", mode)
	}
	cr, cw, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	rr, rw, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run", "^$", "-test.bench", "^BenchmarkMetricsOverhead$", "-test.benchtime", "1x")
	cmd.Env = append(os.Environ(), overheadChildEnv+"="+mode)
	cmd.ExtraFiles = []*os.File{cr, rw}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	_ = cr.Close()
	_ = rw.Close()
	return &overheadKid{cmd: cmd, cmds: cw, replies: bufio.NewScanner(rr)}
}

// run asks the child for n more seconds and returns its CPU and its
// garbage collections so far.
func (k *overheadKid) run(b *testing.B, n int, gc bool) (time.Duration, int) {
	g := 0
	if gc {
		g = 1
	}
	if _, err := fmt.Fprintf(k.cmds, "%d %d\n", n, g); err != nil {
		b.Fatal(err)
	}
	if !k.replies.Scan() {
		b.Fatalf("child %v stopped: %v", k.cmd.Args, k.replies.Err())
	}
	var cpu time.Duration
	var gcs int
	if _, err := fmt.Sscanf(k.replies.Text(), "%d %d", &cpu, &gcs); err != nil {
		b.Fatal(err)
	}
	return cpu, gcs
}

// finish ends the child's day and returns its "events points" line.
func (k *overheadKid) finish(b *testing.B) string {
	if _, err := fmt.Fprintf(k.cmds, "0 0\n"); err != nil {
		b.Fatal(err)
	}
	if !k.replies.Scan() {
		b.Fatalf("child %v stopped: %v", k.cmd.Args, k.replies.Err())
	}
	line := k.replies.Text()
	_ = k.cmds.Close()
	if err := k.cmd.Wait(); err != nil {
		b.Fatal(err)
	}
	return line
}

// processCPUNow is the process's CPU time, every thread
// (CLOCK_PROCESS_CPUTIME_ID, nanoseconds).
func processCPUNow() time.Duration {
	var ts syscall.Timespec
	const clockProcessCPUTime = 2
	syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

// quantile is the q-quantile of xs (nearest rank; 0 for none).
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1)+0.5)]
}

// loadAvg is the machine's 1-minute load average ("?" when unknown).
func loadAvg() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	for i, c := range raw {
		if c == ' ' {
			return string(raw[:i])
		}
	}
	return "?"
}
