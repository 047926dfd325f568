package engine

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers"
)

// Tests run with the ownership check on (a pod state shared with a clone
// that reaches a modifying function without podW/mut panics) and small
// event chunks, so that the event log's sealing is exercised.
func init() { cowStrict, eventChunk = true, 7 }

// stateOf is everything observable about a cluster, for comparing an
// engine with an independent replay: pods with their state, usage and
// timeline, nodes with their memory, the scheduler's view of each node,
// and the events.
func stateOf(t *testing.T, e *Engine) string {
	t.Helper()
	type podRow struct {
		Pod      any
		State    PodState
		Usage    int64
		Timeline any
	}
	type nodeRow struct {
		Node      any
		Memory    any
		Pods      []string
		Requested any
	}
	var out struct {
		Pods   []podRow
		Nodes  []nodeRow
		Events []Event
		Now    any
	}
	for _, p := range e.Pods() {
		st, _ := e.PodState(p.Key())
		tl, _ := e.Timeline(p.Key())
		out.Pods = append(out.Pods, podRow{p, st, e.PodUsage(p.Key()), tl})
	}
	for _, n := range e.Nodes() {
		m, _ := e.NodeMemory(n.Name)
		row := nodeRow{Node: n, Memory: m, Pods: e.podKeysOnNode(n.Name)}
		if ni := e.snap.Get(n.Name); ni != nil {
			for _, pi := range ni.Pods {
				row.Pods = append(row.Pods, "snap:"+pi.Pod.Key()+":"+string(pi.Pod.Status.Phase))
			}
			row.Requested = ni.Requested
		}
		out.Nodes = append(out.Nodes, row)
	}
	out.Events, out.Now = e.Events(), e.Now()
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A clone and its origin share pod states, timelines and per-node pod
// sets until one changes them (cow.go). Both are driven on, alternately
// and differently (the clone first frozen while the origin runs ahead,
// freeze.go), and each must end exactly where an independent replay of
// its own actions ends: nothing one does leaks into the other.
func TestCloneAndOriginDoNotShareChanges(t *testing.T) {
	saved := propertyScheduler
	defer func() { propertyScheduler = saved }()
	propertyScheduler = DefaultScheduler
	drive := func(e *Engine, stream uint64) *randomActions {
		return &randomActions{r: rand.New(rand.NewPCG(stream, 3)), e: e, nodes: 10, pods: 40}
	}
	for seed := uint64(1); seed <= 40; seed++ {
		e, _ := runRandom(t, seed, 50, false)
		c := e.Clone()
		var grand *Engine
		a, b := drive(e, 100+seed), drive(c, 200+seed)
		var g *randomActions
		var logA, logB, logG []string
		// the clone packed (a checkpoint) while its origin runs on
		c.Freeze()
		for range 5 {
			a.step()
		}
		c.Thaw()
		for i := 0; i < 40; i++ {
			logA = append(logA, a.step())
			logB = append(logB, b.step())
			if i == 20 {
				// a clone of the clone, taken half-way, driven a third way
				grand = c.Clone()
				g = drive(grand, 300+seed)
			}
			if g != nil {
				logG = append(logG, g.step())
			}
			checkInvariants(t, e, 0, fmt.Sprintf("seed %d origin step %d (%s)", seed, i, logA[i]))
			checkInvariants(t, c, 0, fmt.Sprintf("seed %d clone step %d (%s)", seed, i, logB[i]))
		}
		replay := func(stream uint64, steps int, mid func(*Engine) *Engine) *Engine {
			r, _ := runRandom(t, seed, 50, false)
			r = r.Clone() // the same tie-break generator state as a clone
			ra := drive(r, stream)
			for i := 0; i < steps; i++ {
				ra.step()
			}
			return r
		}
		refA := replay(100+seed, 45, nil)
		refB := replay(200+seed, 40, nil)
		if got, want := stateOf(t, e), stateOf(t, refA); got != want {
			t.Fatalf("seed %d: the origin differs from a replay of its own actions after its clone was driven on\n%s", seed, firstDiff(got, want))
		}
		if got, want := stateOf(t, c), stateOf(t, refB); got != want {
			t.Fatalf("seed %d: the clone differs from a replay of its own actions after its origin was driven on\n%s", seed, firstDiff(got, want))
		}
		// the grand-clone: the clone's first 21 actions, then its own
		r, _ := runRandom(t, seed, 50, false)
		r = r.Clone()
		rb := drive(r, 200+seed)
		for i := 0; i <= 20; i++ {
			rb.step()
		}
		r = r.Clone()
		rg := drive(r, 300+seed)
		for range logG {
			rg.step()
		}
		if got, want := stateOf(t, grand), stateOf(t, r); got != want {
			t.Fatalf("seed %d: a clone of a clone differs from its replay\n%s", seed, firstDiff(got, want))
		}
	}
}

func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-300)
	return fmt.Sprintf("got  …%s\nwant …%s", a[from:min(len(a), i+200)], b[from:min(len(b), i+200)])
}

// A Job's pod that completes in a clone (the controllers' FinishPod)
// leaves the origin's timeline of it open: Clone shares the timelines and
// FinishPod copies before it writes (timelineW), like every other write.
func TestFinishPodInACloneLeavesTheOriginsTimeline(t *testing.T) {
	e := New(Config{Seed: 1, NewScheduler: DefaultScheduler})
	must(t, e.AddNode(node("node-1", "8", "32Gi")))
	w := e.NewWorkloads(1)
	one := int32(1)
	_, err := w.Manager.AddJob(&api.Job{ObjectMeta: api.ObjectMeta{Name: "report", Namespace: "default"},
		Spec: api.JobSpec{Completions: &one, Parallelism: &one, Template: api.PodTemplateSpec{
			ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "report"}, Annotations: map[string]string{controllers.AnnotationRunFor: "10s"}},
			Spec:       api.PodSpec{RestartPolicy: "Never", Containers: []api.Container{{Name: "c", Image: "report:1"}}}}}})
	must(t, err)
	w.Manager.Start()
	e.Settle()
	must(t, e.RunUntil(sec(5)))
	pods := e.Pods()
	if len(pods) != 1 {
		t.Fatalf("%d pods, want the Job's one; events %+v", len(pods), e.Events())
	}
	key := pods[0].Key()
	before, _ := e.Timeline(key)
	c := e.Clone()
	must(t, c.RunUntil(sec(60)))
	if tl, _ := c.Timeline(key); len(tl.Pod) == 0 || tl.Pod[len(tl.Pod)-1].Open {
		t.Fatalf("the clone's pod has not finished: %+v", tl.Pod)
	}
	if got, _ := e.Timeline(key); !reflect.DeepEqual(got, before) {
		t.Fatalf("the origin's timeline changed with its clone's:\n got  %+v\n want %+v", got.Pod, before.Pod)
	}
}
