package serve

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"podlab.dev/podlab/lab"
	"podlab.dev/podlab/lab/workshop"
)

// BenchmarkWorkshop is the load test of docs/benchmarks.md: N participants
// (PODLAB_LOAD_N, default 100) connect over SSH to one server, then each
// types the lesson's solutions (spread-basics; PODLAB_LOAD_LESSON for
// another preset) at 80 ms a key with 1–3 s of thinking between commands
// (PODLAB_LOAD_THINK=5s-15s for another range), moving to the next step
// after each. It reports
//
//   - first-frame-p99-ms: connect (session started) → the first screen;
//   - key-p50-ms, key-p99-ms: a keystroke written → the client receives the
//     redraw that shows it (the typed character arriving back);
//   - idle-MB/session: heap in use per connected, idle participant (server
//     and in-process client together, so an over-estimate);
//   - cpu-ms/participant-s: CPU time (server and clients) per participant
//     per second while everyone types: 2000 / this is how many participants
//     two dedicated cores carry.
//
// Run it alone: go test ./serve -run '^$' -bench Workshop -benchtime 1x
func BenchmarkWorkshop(b *testing.B) {
	n := 100
	if v, err := strconv.Atoi(os.Getenv("PODLAB_LOAD_N")); err == nil && v > 0 {
		n = v
	}
	for i := 0; i < b.N; i++ {
		runLoad(b, n)
	}
}

// loadClient is a participant driven by the load test: it keeps only the
// bytes received since the last key (a long session's output is large).
type loadClient struct {
	conn *gossh.Client
	sess *gossh.Session
	in   io.WriteCloser

	mu      sync.Mutex
	since   bytes.Buffer // bytes since the last mark
	first   chan struct{}
	gotLab  bool
	changed chan struct{}
}

func (c *loadClient) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.since.Write(p)
	if !c.gotLab && bytes.Contains(c.since.Bytes(), []byte("zone")) {
		c.gotLab = true
		close(c.first)
	}
	if c.since.Len() > 1<<16 {
		c.since.Next(c.since.Len() - 1<<15)
	}
	c.mu.Unlock()
	select {
	case c.changed <- struct{}{}:
	default:
	}
	return len(p), nil
}

// key writes one key and waits for output containing echo (when it is
// not empty) or any output, returning the latency.
func (c *loadClient) key(k, echo string) (time.Duration, error) {
	c.mu.Lock()
	c.since.Reset()
	c.mu.Unlock()
	start := time.Now()
	if _, err := io.WriteString(c.in, k); err != nil {
		return 0, err
	}
	deadline := time.After(5 * time.Second)
	for {
		c.mu.Lock()
		got := c.since.Len() > 0 && (echo == "" || bytes.Contains(c.since.Bytes(), []byte(echo)))
		c.mu.Unlock()
		if got {
			return time.Since(start), nil
		}
		select {
		case <-c.changed:
		case <-deadline:
			return 5 * time.Second, nil
		}
	}
}

func runLoad(b *testing.B, n int) {
	b.Helper()
	lesson := os.Getenv("PODLAB_LOAD_LESSON")
	if lesson == "" {
		lesson = "spread-basics"
	}
	f, err := lab.LoadPreset(lesson)
	if err != nil {
		b.Fatal(err)
	}
	srv := startServer(b, func(c *Config) {
		c.Lesson = f
		c.ReapEvery, c.ObserveEvery = time.Second, time.Second
		c.Limits = workshop.DefaultLimits
		c.MaxSessions = n + 10
	})
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)

	clients := make([]*loadClient, n)
	firsts := make([]time.Duration, n)
	var wg sync.WaitGroup
	var failed sync.Once
	// participants arrive one every 30 ms (a room filling up), so each
	// first frame is measured with the ones before already connected
	for i := range clients {
		time.Sleep(30 * time.Millisecond)
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			conn, err := gossh.Dial("tcp", srv.Addr().String(), &gossh.ClientConfig{User: fmt.Sprintf("p%03d", i), HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 30 * time.Second})
			if err != nil {
				failed.Do(func() { b.Errorf("dial: %v", err) })
				return
			}
			s, _ := conn.NewSession()
			c := &loadClient{conn: conn, sess: s, first: make(chan struct{}), changed: make(chan struct{}, 1)}
			_ = s.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{})
			c.in, _ = s.StdinPipe()
			s.Stdout = c
			start := time.Now()
			if err := s.Shell(); err != nil {
				failed.Do(func() { b.Errorf("shell: %v", err) })
				return
			}
			select {
			case <-c.first:
				firsts[i] = time.Since(start)
			case <-time.After(30 * time.Second):
				firsts[i] = 30 * time.Second
			}
			clients[i] = c
		}(i)
	}
	wg.Wait()
	if b.Failed() {
		return
	}
	idle0 := cpuTime()
	time.Sleep(5 * time.Second) // idle: clocks tick, nobody types
	idleCPU := float64((cpuTime() - idle0).Milliseconds()) / 5 / float64(n)
	var idle runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&idle)
	idleMB := float64(idle.HeapInuse-before.HeapInuse) / float64(n) / (1 << 20)

	if os.Getenv("PODLAB_LOAD_IDLE_ONLY") != "" { // profile the idle room
		b.ReportMetric(idleCPU, "idle-cpu-ms/participant-s")
		return
	}
	// every participant types the lesson's solutions
	var steps [][]string
	for _, st := range srv.cfg.Lesson.Scenario.Lesson.Steps {
		steps = append(steps, st.Solution)
	}
	thinkMin, thinkMax := time.Second, 3*time.Second
	if v := os.Getenv("PODLAB_LOAD_THINK"); v != "" { // e.g. 5s-15s
		lo, hi, _ := strings.Cut(v, "-")
		a, err1 := time.ParseDuration(lo)
		b2, err2 := time.ParseDuration(hi)
		if err1 != nil || err2 != nil || b2 < a {
			b.Fatalf("PODLAB_LOAD_THINK=%q: want MIN-MAX, e.g. 5s-15s", v)
		}
		thinkMin, thinkMax = a, b2
	}
	var mu sync.Mutex
	var lat []time.Duration
	cpu0, wall0 := cpuTime(), time.Now()
	for i, c := range clients {
		wg.Add(1)
		go func(i int, c *loadClient) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(i)))
			var mine []time.Duration
			typeKey := func(k, echo string) {
				d, err := c.key(k, echo)
				if err == nil {
					mine = append(mine, d)
				}
				time.Sleep(80 * time.Millisecond)
			}
			for si, cmds := range steps {
				for _, line := range cmds {
					time.Sleep(thinkMin + time.Duration(rng.Int63n(int64(thinkMax-thinkMin)+1)))
					typeKey(":", "")
					for _, r := range line {
						echo := string(r)
						if r == ' ' || (r >= '0' && r <= '9') {
							echo = "" // a space or digit may be a clock redraw: any output counts
						}
						typeKey(string(r), echo)
					}
					typeKey("\r", "")
				}
				if si < len(steps)-1 {
					typeKey(">", "")
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}(i, c)
	}
	wg.Wait()
	cpuPerSec := float64((cpuTime() - cpu0).Milliseconds()) / time.Since(wall0).Seconds() / float64(n)
	slices.Sort(lat)
	slices.Sort(firsts)
	pct := func(d []time.Duration, p float64) float64 {
		if len(d) == 0 {
			return 0
		}
		return float64(d[min(len(d)-1, int(float64(len(d))*p))].Microseconds()) / 1000
	}
	b.ReportMetric(float64(n), "participants")
	b.ReportMetric(pct(firsts, 0.99), "first-frame-p99-ms")
	b.ReportMetric(pct(lat, 0.50), "key-p50-ms")
	b.ReportMetric(pct(lat, 0.99), "key-p99-ms")
	b.ReportMetric(float64(len(lat)), "keys")
	b.ReportMetric(idleMB, "idle-MB/session")
	b.ReportMetric(cpuPerSec, "cpu-ms/participant-s")
	b.ReportMetric(idleCPU, "idle-cpu-ms/participant-s")
	done := 0
	for _, p := range srv.room.Snapshot() {
		if p.Step == len(steps)-1 {
			done++
		}
	}
	b.ReportMetric(float64(done), "reached-last-step")
	for _, c := range clients {
		_ = c.sess.Close()
		_ = c.conn.Close()
	}
	if strings.TrimSpace(os.Getenv("PODLAB_LOAD_VERBOSE")) != "" {
		b.Logf("first frame p50 %.1f ms", pct(firsts, 0.5))
	}
}

// cpuTime is the process's user+system CPU time (server and in-process
// clients): divided by wall time and participants it says what one
// participant costs, whatever else the machine runs.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
