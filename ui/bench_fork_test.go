package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// forkModel is a forked lab of 5,000 pods (bigScenario: 500 nodes in 5
// zones) at 200×50 with metrics on: lane a scaled up and a node drained,
// lane b scaled another deployment. Built fresh (forking changes the
// session: the shared bigSession stays unforked for the other
// benchmarks).
func forkModel(b *testing.B) *Model {
	b.Helper()
	f, err := lab.LoadFile("big.yaml", []byte(bigScenario(5000)))
	if err != nil {
		b.Fatal(err)
	}
	sess, err := lab.NewSession(f, lab.SessionOptions{})
	if err != nil {
		b.Fatal(err)
	}
	if err := sess.Advance(30 * time.Second); err != nil {
		b.Fatal(err)
	}
	m := New(sess, Options{Theme: "dark", Paused: true})
	update(m, tea.WindowSizeMsg{Width: 200, Height: 50})
	node := sess.Engine().Snapshot().Nodes[2].Node.Name
	for _, line := range []string{
		"fork",
		"@a scale deployment app-1 --replicas=900",
		"@a drain " + node,
		"@b scale deployment app-2 --replicas=800",
	} {
		if err := m.apply(line); err != nil {
			b.Fatalf("%s: %v", line, err)
		}
	}
	if m.fork == nil {
		b.Fatal("not forked")
	}
	if err := m.fork.Advance(30 * time.Second); err != nil {
		b.Fatal(err)
	}
	m.refresh()
	return m
}

// BenchmarkViewFork is View() of the compare and metrics views of a forked
// 5,000-pod lab at 200×50 from prepared frame data (goal: 2 ms).
func BenchmarkViewFork(b *testing.B) {
	for _, v := range []struct {
		name string
		keys []string
	}{
		{"compare", []string{"6"}},
		{"metrics", []string{"7"}},
	} {
		b.Run(v.name+"/pods=5000", func(b *testing.B) {
			m := forkModel(b)
			press(m, v.keys...)
			m.refresh()
			_ = m.View()
			loop(b, func() { _ = m.View() })
		})
	}
}

// BenchmarkTick64Fork is a clock tick at ×64 of the forked lab on the
// compare and metrics views: both lanes advance 6.4 s (sampling metrics
// every second), the view's data is refreshed (Compare for the compare
// view) and the frame built (goal: 100 ms).
func BenchmarkTick64Fork(b *testing.B) {
	for _, v := range []struct {
		name string
		keys []string
	}{
		{"compare", []string{"6"}},
		{"metrics", []string{"7"}},
	} {
		b.Run(v.name+"/pods=5000", func(b *testing.B) {
			m := forkModel(b)
			press(m, v.keys...)
			m.paused = false
			m.speedIdx = len(speeds) - 1
			loop(b, func() {
				update(m, tickMsg{id: m.tickID})
				_ = m.View()
			})
		})
	}
}
