package engine

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"weak"

	"podlab.dev/podlab/engine/api"
)

// mirror keeps a copy of the engine's pod and node objects, updated only
// for the keys its watcher was told about: if a change ever escaped
// PodChanged or NodeChanged, the mirror would hold a stale object.
type mirror struct {
	e                     *Engine
	pods                  map[string]*api.Pod
	states                map[string]PodState
	nodes                 map[string]*api.Node
	dirtyPods, dirtyNodes map[string]bool
	podCalls, nodeCalls   int
}

func (m *mirror) PodChanged(key string)   { m.dirtyPods[key] = true; m.podCalls++ }
func (m *mirror) NodeChanged(name string) { m.dirtyNodes[name] = true; m.nodeCalls++ }

func (m *mirror) refresh() {
	for k := range m.dirtyPods {
		if p := m.e.Pod(k); p != nil {
			m.pods[k] = p
			m.states[k], _ = m.e.PodState(k)
		} else {
			delete(m.pods, k)
			delete(m.states, k)
		}
	}
	for n := range m.dirtyNodes {
		if o := m.e.Node(n); o != nil {
			m.nodes[n] = o
		} else {
			delete(m.nodes, n)
		}
	}
	clear(m.dirtyPods)
	clear(m.dirtyNodes)
}

func (m *mirror) check(t *testing.T, step string) {
	t.Helper()
	m.refresh()
	if len(m.pods) != m.e.pods.Len() {
		t.Fatalf("after %s: mirror has %d pods, engine %d", step, len(m.pods), m.e.pods.Len())
	}
	for k, ps := range m.e.pods.All() {
		if m.pods[k] != ps.pod {
			t.Fatalf("after %s: pod %s changed without PodChanged", step, k)
		}
		if m.states[k] != ps.state {
			t.Fatalf("after %s: pod %s went %s → %s without PodChanged", step, k, m.states[k], ps.state)
		}
	}
	if len(m.nodes) != len(m.e.nodes) {
		t.Fatalf("after %s: mirror has %d nodes, engine %d", step, len(m.nodes), len(m.e.nodes))
	}
	for n, ns := range m.e.nodes {
		if m.nodes[n] != ns.node {
			t.Fatalf("after %s: node %s changed without NodeChanged", step, n)
		}
	}
}

// TestWatchersSeeEveryChange runs the property test's random actions
// (creations, deletions, evictions, drains, taints, pressure, NotReady,
// probes, restarts, time) and requires that a watcher-fed mirror always
// equals the engine's own store, pod states included.
func TestWatchersSeeEveryChange(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		e := New(Config{Seed: int64(seed), NewScheduler: propertyScheduler})
		addPrioClasses(t, e, 0, 100, 200)
		m := &mirror{e: e, pods: map[string]*api.Pod{}, states: map[string]PodState{}, nodes: map[string]*api.Node{}, dirtyPods: map[string]bool{}, dirtyNodes: map[string]bool{}}
		cancel := e.Watch(m)
		ra := &randomActions{r: rand.New(rand.NewPCG(seed, 7)), e: e}
		for i := 0; i < 3; i++ {
			ra.nodes++
			_ = e.AddNode(node(fmt.Sprintf("n%d", ra.nodes), "4", "4Gi"))
		}
		for i := 0; i < 80; i++ {
			s := ra.step()
			m.check(t, fmt.Sprintf("seed %d step %d (%s)", seed, i, s))
		}
		if m.podCalls == 0 || m.nodeCalls == 0 {
			t.Fatalf("seed %d: watcher never called (%d pod, %d node calls)", seed, m.podCalls, m.nodeCalls)
		}
		cancel()
		calls := m.podCalls
		ra.step()
		ra.step()
		if m.podCalls != calls || len(e.watchers) != 0 {
			t.Fatalf("seed %d: watcher still called after cancel", seed)
		}
		if c := e.Clone(); len(c.watchers) != 0 {
			t.Fatalf("a clone inherited watchers")
		}
	}
}

// A cancelled watcher is no longer reachable from the engine: a watcher
// holds its owner's state (the lab's metrics tracker holds counters for
// every pod), and an engine kept as a checkpoint must not keep it alive.
func TestCancelledWatcherIsCollectable(t *testing.T) {
	e := New(Config{Seed: 1})
	other := &mirror{e: e, pods: map[string]*api.Pod{}, states: map[string]PodState{}, nodes: map[string]*api.Node{}, dirtyPods: map[string]bool{}, dirtyNodes: map[string]bool{}}
	e.Watch(other)
	m := &mirror{e: e, pods: map[string]*api.Pod{}, states: map[string]PodState{}, nodes: map[string]*api.Node{}, dirtyPods: map[string]bool{}, dirtyNodes: map[string]bool{}}
	wp := weak.Make(m)
	cancel := e.Watch(m)
	cancel()
	m = nil
	runtime.GC()
	if wp.Value() != nil {
		t.Fatal("a cancelled watcher is still reachable from the engine")
	}
	if len(e.watchers) != 1 || e.watchers[0] != Watcher(other) {
		t.Fatalf("cancel removed the wrong watchers: %v", e.watchers)
	}
}
