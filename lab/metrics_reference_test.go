package lab

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
)

// referencePass is the sample as it was before the tracker: one pass over
// every pod and node. It stays as the definition the tracker must match.
// The one deliberate change: a workload's topology keys are those of all
// its pods (the pass used to take the first pod met per controller, in
// map order — not deterministic when a controller's pods differ).
func referencePass(m *Metrics, src *metricsSource, now api.Time) {
	evictions, preempts := 0, 0
	for _, e := range src.eng.Events() {
		switch e.Reason {
		case engine.ReasonEvicted, engine.ReasonTaintManagerEviction:
			evictions++
		case engine.ReasonPreempted:
			preempts++
		}
	}
	put := func(name string, l labelPair, v float64) { m.putCached(seriesID{name, l}, now, v) }
	put("evictions", labelPair{}, float64(evictions))
	put("preemptions", labelPair{}, float64(preempts))
	nodes := src.eng.Nodes()
	for _, n := range nodes {
		req, ok := src.requested(n.Name)
		if !ok {
			continue
		}
		alloc := api.ResourcesOf(n.Status.Allocatable)
		node := labelPair{k1: "node", v1: n.Name}
		put("node_cpu_requested_percent", node, percent(req.MilliCPU, alloc.MilliCPU))
		put("node_memory_requested_percent", node, percent(req.Memory, alloc.Memory))
	}
	zoneKey := src.zoneKey
	nodeIdx := make(map[string]int, len(nodes))
	for i, n := range nodes {
		nodeIdx[n.Name] = i
	}
	type wl struct {
		name             string
		keys             []string
		perNode          []int
		pending, running int
	}
	byName := map[string]*wl{}
	var pending, running int
	src.eng.EachPod(func(p *api.Pod, st engine.PodState) {
		switch st {
		case engine.StatePending:
			pending++
		case engine.StateRunning:
			running++
		}
		ref := p.ControllerRef()
		if ref == nil {
			return
		}
		kind, name := src.owner(p.Namespace, ref.Kind, ref.Name)
		if kind == "" {
			return
		}
		n := Workload{Kind: kind, Namespace: p.Namespace, Name: name}.Ref()
		w := byName[n]
		if w == nil {
			w = &wl{name: n, keys: []string{zoneKey}, perNode: make([]int, len(nodes))}
			byName[n] = w
		}
		for _, c := range p.Spec.TopologySpreadConstraints {
			if !slices.Contains(w.keys, c.TopologyKey) {
				w.keys = append(w.keys, c.TopologyKey)
			}
		}
		switch st {
		case engine.StatePending:
			w.pending++
		case engine.StateRunning:
			w.running++
		}
		if p.Spec.NodeName != "" && p.DeletionTimestamp == nil && !p.IsTerminal() {
			if i, ok := nodeIdx[p.Spec.NodeName]; ok {
				w.perNode[i]++
			}
		}
	})
	put("pending", labelPair{}, float64(pending))
	put("running", labelPair{}, float64(running))
	for _, w := range byName {
		put("pending", labelPair{k1: "workload", v1: w.name}, float64(w.pending))
		put("running", labelPair{k1: "workload", v1: w.name}, float64(w.running))
		for _, key := range w.keys {
			idx := map[string]int{}
			var names []string
			var counts []int
			for j, n := range nodes {
				v, ok := n.Labels[key]
				if !ok {
					continue
				}
				i, ok := idx[v]
				if !ok {
					i = len(names)
					idx[v] = i
					names = append(names, v)
					counts = append(counts, 0)
				}
				counts[i] += w.perNode[j]
			}
			if len(names) == 0 {
				continue
			}
			lo, hi := counts[0], counts[0]
			for i, c := range counts {
				lo, hi = min(lo, c), max(hi, c)
				if key == zoneKey {
					put("pods", labelPair{k1: "workload", v1: w.name, k2: "zone", v2: names[i]}, float64(c))
				}
			}
			put("skew", labelPair{k1: "key", v1: key, k2: "workload", v2: w.name}, float64(hi-lo))
		}
	}
	m.flush() // the stamps
	for k, sr := range m.series {
		if sr.stamp != m.stamp && sr.Len() > 0 && sr.tail.V != 0 {
			m.put(k, sr.Name, sr.Labels, now, 0)
		}
	}
}

// storeDiff is the first difference between two stores ("" when equal).
func storeDiff(got, want *Metrics) string {
	gs, ws := got.Series(), want.Series()
	if len(gs) != len(ws) {
		var gk, wk []string
		for _, s := range gs {
			gk = append(gk, s.Key())
		}
		for _, s := range ws {
			wk = append(wk, s.Key())
		}
		return fmt.Sprintf("%d series, want %d\n got %v\nwant %v", len(gs), len(ws), gk, wk)
	}
	for i := range gs {
		if gs[i].Key() != ws[i].Key() {
			return fmt.Sprintf("series %d is %s, want %s", i, gs[i].Key(), ws[i].Key())
		}
		if !slices.Equal(gs[i].Points(), ws[i].Points()) {
			return fmt.Sprintf("%s: %v, want %v", gs[i].Key(), gs[i].Points(), ws[i].Points())
		}
	}
	return ""
}

// withReference records the session's metrics with the tracker and, at
// the same instants, with the reference pass into a shadow store.
func withReference(s *Session) *Session {
	s.EnableMetrics(0)
	ref := newMetrics(DefaultMetricsPoints)
	ref.fullPass = referencePass
	ref.sample(s.eng, s.metricsSource)
	s.metrics.shadow = ref
	return s
}

func requireSameStore(t *testing.T, s *Session, step string) {
	t.Helper()
	m := s.Metrics()
	if d := storeDiff(m, m.shadow); d != "" {
		t.Fatalf("after %s: the tracker's store differs from the reference pass's:\n%s", step, d)
	}
	if m.Bytes() != m.shadow.Bytes() {
		t.Fatalf("after %s: store sizes differ: %d vs %d", step, m.Bytes(), m.shadow.Bytes())
	}
}

// TestMetricsTrackerMatchesReferenceOnPresets runs random commands (with
// zones, nodes, constraints and workloads coming and going) on every
// preset: the tracker's store must equal the reference pass's after every
// command.
func TestMetricsTrackerMatchesReferenceOnPresets(t *testing.T) {
	for _, name := range presetNames(t) {
		t.Run(name, func(t *testing.T) {
			s := withReference(presetSession(t, name))
			r := rand.New(rand.NewPCG(uint64(len(name)), 3))
			for i := range 15 {
				line := metricsCommand(r, s)
				_, _ = s.Apply(line)
				requireSameStore(t, s, fmt.Sprintf("command %d %q", i, line))
			}
			if err := s.Advance(90 * time.Second); err != nil {
				t.Fatal(err)
			}
			requireSameStore(t, s, "90 s")
		})
	}
}

// TestMetricsTrackerMatchesReferenceRandom: random command sequences with
// undo and redo (checkpoints restored, history replayed) on the example
// scenario, stores compared after each.
func TestMetricsTrackerMatchesReferenceRandom(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			s := withReference(exampleSession(t))
			r := rand.New(rand.NewPCG(seed, 99))
			for i := range 40 {
				line := metricsCommand(r, s)
				if r.IntN(7) == 0 && s.CanUndo() {
					line = "undo"
				} else if r.IntN(9) == 0 && s.CanRedo() {
					line = "redo"
				}
				_, _ = s.Apply(line)
				requireSameStore(t, s, fmt.Sprintf("command %d %q", i, line))
			}
		})
	}
}

// TestMetricsTrackerMatchesReferenceForked: after a fork each lane's
// tracker is rebuilt on its own engine; lane commands, shared commands,
// undo and redo keep both lanes' stores equal to their reference stores.
func TestMetricsTrackerMatchesReferenceForked(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			s := withReference(exampleSession(t))
			r := rand.New(rand.NewPCG(seed, 5))
			for range 6 {
				_, _ = s.Apply(metricsCommand(r, s))
			}
			f, err := s.Fork()
			if err != nil {
				t.Fatal(err)
			}
			if f.Lane(LaneB).Metrics().shadow == nil {
				t.Fatal("lane b lost its reference store")
			}
			for i := range 25 {
				lane := []string{"", "@a ", "@b "}[r.IntN(3)]
				target := f.Lane(LaneA)
				if lane == "@b " {
					target = f.Lane(LaneB)
				}
				line := lane + metricsCommand(r, target)
				if lane != "" && strings.HasPrefix(line[3:], "advance") {
					line = line[3:]
				}
				if r.IntN(8) == 0 && f.CanUndo() {
					line = "undo"
				} else if r.IntN(10) == 0 && f.CanRedo() {
					line = "redo"
				}
				_, _ = f.Apply(line)
				for _, l := range []string{LaneA, LaneB} {
					requireSameStore(t, f.Lane(l), fmt.Sprintf("command %d %q, lane %s", i, line, l))
				}
			}
			if storeDiff(f.Lane(LaneA).Metrics(), f.Lane(LaneB).Metrics()) == "" {
				t.Fatal("the lanes' stores never diverged: the test compares little")
			}
		})
	}
}

// TestMetricsTrackerMatchesReferenceUnderBudget: with a budget small
// enough to thin the store many times, the tracker's and the reference's
// stores are still identical (thinning happens after a sample, in an
// order that depends only on the store) and within the budget, unless
// nothing is left to thin.
func TestMetricsTrackerMatchesReferenceUnderBudget(t *testing.T) {
	s := withReference(presetSession(t, "spread-basics"))
	unbounded := presetSession(t, "spread-basics")
	unbounded.EnableMetrics(0)
	// room for the series and about 30 points
	budget := s.Metrics().Bytes() + 480
	for _, m := range []*Metrics{s.metrics, s.metrics.shadow} {
		m.maxBytes, m.maxPoints = budget, 64
	}
	r := rand.New(rand.NewPCG(7, 7))
	for i := range 60 {
		line := metricsCommand(r, s)
		// and churn: a pod deleted (its ReplicaSet replaces it)
		var pods []string
		for _, p := range s.Engine().Pods() {
			if p.DeletionTimestamp == nil && !p.IsTerminal() {
				pods = append(pods, p.Name)
			}
		}
		victim := ""
		if len(pods) > 0 {
			victim = "delete pod " + pods[r.IntN(len(pods))] + " --grace-period=0"
		}
		for _, x := range []*Session{s, unbounded} {
			_, _ = x.Apply(line)
			if victim != "" {
				_, _ = x.Apply(victim)
			}
			if err := x.Advance(20 * time.Second); err != nil {
				t.Fatal(err)
			}
		}
		requireSameStore(t, s, fmt.Sprintf("command %d %q", i, line))
		m := s.Metrics()
		if m.Bytes() > m.maxBytes {
			for _, sr := range m.Series() {
				if sr.Len() >= 4 {
					t.Fatalf("after command %d: store %d bytes, budget %d, and %s still has %d points", i, m.Bytes(), m.maxBytes, sr.Key(), sr.Len())
				}
			}
		}
	}
	kept, _ := s.Metrics().size()
	all, _ := unbounded.Metrics().size()
	if kept >= all*3/4 {
		t.Fatalf("the budget kept %d of %d points: the test thins too little", kept, all)
	}
}

// metricsCommand is randomCommand plus what moves the metrics' structure:
// zones added and removed, nodes relabelled into other zones or removed,
// spread constraints on other keys, workloads scaled or deleted (orphaning
// their ReplicaSets too).
func metricsCommand(r *rand.Rand, s *Session) string {
	nodes := s.Engine().Nodes()
	node := nodes[r.IntN(len(nodes))].Name
	var wls []Workload
	for _, w := range s.Workloads() {
		if w.Kind != "pods" {
			wls = append(wls, w)
		}
	}
	zone := s.zoneLabel()
	switch r.IntN(14) {
	case 0:
		return fmt.Sprintf("label node %s %s=zone-%c", node, zone, 'a'+rune(r.IntN(5)))
	case 1:
		return fmt.Sprintf("label node %s %s-", node, zone)
	case 2:
		if len(nodes) > 2 {
			return "remove node " + node
		}
	case 3:
		return fmt.Sprintf("add zone zone-%c --nodes %d", 'p'+rune(r.IntN(3)), 1+r.IntN(2))
	case 4:
		return fmt.Sprintf("remove zone zone-%c", 'p'+rune(r.IntN(3)))
	case 5, 6:
		if len(wls) > 0 {
			w := wls[r.IntN(len(wls))]
			switch r.IntN(4) {
			case 0:
				return fmt.Sprintf("set spread %s --add maxSkew=1 topologyKey=kubernetes.io/hostname", w.Ref())
			case 1:
				return fmt.Sprintf("set spread %s --remove 0", w.Ref())
			case 2:
				return fmt.Sprintf("set spread %s topologyKey=tier", w.Ref())
			}
			if w.Kind == "deployment" || w.Kind == "statefulset" {
				return fmt.Sprintf("scale %s --replicas=%d", w.Ref(), r.IntN(8))
			}
		}
	case 7:
		if len(wls) > 0 && r.IntN(3) == 0 {
			w := wls[r.IntN(len(wls))]
			return fmt.Sprintf("delete %s %s --cascade=%s", w.Kind, w.Name, []string{"orphan", "background", "foreground"}[r.IntN(3)])
		}
	case 8:
		return fmt.Sprintf("label node %s tier=t%d", node, r.IntN(3))
	}
	return randomCommand(r, s)
}

func presetNames(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, p := range Presets() {
		out = append(out, p.Name)
	}
	if len(out) == 0 {
		t.Fatal("no presets")
	}
	return out
}

// TestMetricsTrackerMatchesReferenceOnDay: ten minutes of BenchmarkMetricsDay's
// bare engine (churn, memory pressure, a NotReady flap), sampled every
// second by the tracker and by the reference pass.
func TestMetricsTrackerMatchesReferenceOnDay(t *testing.T) {
	e, live := dayEngine(t)
	source := func() metricsSource { return engineMetricsSource(e) }
	m := newMetrics(DefaultMetricsPoints)
	m.shadow = newMetrics(DefaultMetricsPoints)
	m.shadow.fullPass = referencePass
	m.sample(e, source)
	engineDay(t, e, live, 660, func() { m.sample(e, source) })
	if d := storeDiff(m, m.shadow); d != "" {
		t.Fatal(d)
	}
	if ev := m.Get("evictions", nil); ev == nil || ev.At(e.Now()) == 0 {
		t.Fatalf("no evictions recorded: the day's pressure episode was not exercised (%v)", ev)
	}
}

// TestMetricsRestoreMatchesReplay: undo and redo restore a checkpoint and
// replay the history from it; the metric store afterwards must not depend
// on which checkpoint was used — a session without checkpoints (every
// restore replays from t=0) records exactly the same store.
func TestMetricsRestoreMatchesReplay(t *testing.T) {
	for seed := uint64(1); seed <= 24; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			open := func(noCheckpoints bool) *Session {
				f, err := LoadFile("example.yaml", mustRead(t, "testdata/example.yaml"))
				if err != nil {
					t.Fatal(err)
				}
				s, err := NewSession(f, SessionOptions{NoCheckpoints: noCheckpoints})
				if err != nil {
					t.Fatal(err)
				}
				if !noCheckpoints {
					// a checkpoint wherever the session may take one
					s.costOverride = new(time.Duration)
				}
				s.EnableMetrics(0)
				return s
			}
			a, b := open(false), open(true)
			r := rand.New(rand.NewPCG(seed, 17))
			undos := 0
			for i := range 40 {
				line := metricsCommand(r, a)
				if r.IntN(5) == 0 && a.CanUndo() {
					line, undos = "undo", undos+1
				} else if r.IntN(8) == 0 && a.CanRedo() {
					line = "redo"
				}
				_, errA := a.Apply(line)
				_, errB := b.Apply(line)
				if (errA == nil) != (errB == nil) {
					t.Fatalf("%q: %v vs %v", line, errA, errB)
				}
				if d := storeDiff(a.Metrics(), b.Metrics()); d != "" {
					t.Fatalf("after command %d %q: with checkpoints vs replaying from t=0:\n%s", i, line, d)
				}
			}
			if undos == 0 {
				t.Fatal("no undo: the test restores nothing")
			}
		})
	}
}
