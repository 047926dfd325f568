package engine

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// propertyScheduler builds the scheduler the property test runs with
// (the default profile when it is linked in, see scheduler_default_test.go).
var propertyScheduler SchedulerFactory = newFitScheduler

// randomActions drives an engine with a seeded sequence of the lab's
// actions and returns a description of each.
type randomActions struct {
	r     *rand.Rand
	e     *Engine
	nodes int
	pods  int
}

func (ra *randomActions) nodeName() string { return fmt.Sprintf("n%d", ra.r.IntN(ra.nodes+1)) }
func (ra *randomActions) podKey() string   { return fmt.Sprintf("default/p%d", ra.r.IntN(ra.pods+1)) }

func (ra *randomActions) step() string {
	e, r := ra.e, ra.r
	switch k := r.IntN(20); {
	case k < 2:
		ra.nodes++
		n := node(fmt.Sprintf("n%d", ra.nodes), []string{"2", "4"}[r.IntN(2)], []string{"2Gi", "4Gi"}[r.IntN(2)])
		_ = e.AddNode(n)
		return "add " + n.Name
	case k < 7:
		ra.pods++
		b := pod(fmt.Sprintf("p%d", ra.pods)).req([]string{"", "500m", "1"}[r.IntN(3)], []string{"", "256Mi", "1Gi"}[r.IntN(3)]).
			label("app", []string{"a", "b"}[r.IntN(2)]).prio(int32(r.IntN(3)*100)).
			ann(kubelet.AnnotationMemoryUsage, []string{"100Mi", "900Mi", "1500Mi"}[r.IntN(3)]).
			ann(kubelet.AnnotationTerminateAfter, []string{"1s", "5s", "never"}[r.IntN(3)]).
			grace(int64(r.IntN(40)))
		if r.IntN(3) == 0 {
			b.preStop(int64(r.IntN(20)))
		}
		if r.IntN(2) == 0 {
			b.owner("ReplicaSet", "rs")
		}
		if r.IntN(3) == 0 {
			b.p.Spec.Containers[0].ReadinessProbe = &api.Probe{Handler: "httpGet", PeriodSeconds: int32(1 + r.IntN(10)), SuccessThreshold: int32(1 + r.IntN(2))}
			b.ann(kubelet.AnnotationReadyAfter, []string{"0s", "5s", "25s"}[r.IntN(3)])
		}
		if r.IntN(4) == 0 {
			b.p.Spec.Containers[0].LivenessProbe = &api.Probe{Handler: "tcpSocket", PeriodSeconds: int32(1 + r.IntN(10)), InitialDelaySeconds: int32(r.IntN(20))}
			b.ann(kubelet.AnnotationLivenessFailsAt, []string{"10s", "40s", "2m"}[r.IntN(3)])
		}
		if r.IntN(6) == 0 {
			b.ann(kubelet.AnnotationExit, []string{"0@5s", "1@20s", "2@3s"}[r.IntN(3)])
			b.p.Spec.RestartPolicy = []string{"Always", "OnFailure", "Never"}[r.IntN(3)]
		}
		if r.IntN(5) == 0 {
			b.on(ra.nodeName())
		}
		_ = e.CreatePod(b.obj())
		return "create " + b.p.Name
	case k < 9:
		key := ra.podKey()
		_ = e.DeletePod(key, KubectlDeleteOptions(int64(r.IntN(4))-1, r.IntN(4) == 0))
		return "delete " + key
	case k < 10:
		key := ra.podKey()
		_, _ = e.Evict(key, DeleteOptions{})
		return "evict " + key
	case k < 11:
		n := ra.nodeName()
		_, _ = e.Drain(n, DrainOptions{IgnoreDaemonSets: true, Force: r.IntN(2) == 0, Timeout: time.Duration(r.IntN(60)) * time.Second, GracePeriodSeconds: -1})
		return "drain " + n
	case k < 12:
		n := ra.nodeName()
		_ = e.SetNodePressure(n, float64(80+r.IntN(60)), r.IntN(3) == 0)
		return "pressure " + n
	case k < 13:
		n := ra.nodeName()
		_ = e.SetNodeCondition(n, []string{NodeConditionReady, NodeConditionNotReady, NodeConditionUnreachable}[r.IntN(3)])
		return "condition " + n
	case k < 14:
		n := ra.nodeName()
		if r.IntN(2) == 0 {
			_ = e.TaintNode(n, api.Taint{Key: "k", Value: "v", Effect: []string{api.TaintEffectNoSchedule, api.TaintEffectNoExecute}[r.IntN(2)]})
		} else {
			_ = e.UntaintNode(n, "k", "")
		}
		return "taint " + n
	case k < 15:
		n := ra.nodeName()
		if r.IntN(2) == 0 {
			_ = e.Cordon(n)
		} else {
			_ = e.Uncordon(n)
		}
		return "cordon " + n
	case k < 16:
		key := ra.podKey()
		_ = e.SetPodUsage(key, []string{"50Mi", "2Gi", "150%"}[r.IntN(3)])
		return "usage " + key
	case k < 17 && r.IntN(2) == 0:
		key := ra.podKey()
		if r.IntN(2) == 0 {
			_ = e.BreakProbe(key, []string{"readiness", "liveness"}[r.IntN(2)])
			return "break " + key
		}
		_ = e.HealProbes(key)
		return "heal " + key
	case k < 17 && ra.nodes > 3:
		n := ra.nodeName()
		_ = e.RemoveNode(n)
		return "remove " + n
	default:
		d := time.Duration(r.IntN(30000)) * time.Millisecond
		_ = e.Step(d)
		return "step " + d.String()
	}
}

// checkInvariants verifies what must hold after every action.
func checkInvariants(t *testing.T, e *Engine, lastNow api.Time, step string) {
	t.Helper()
	if e.Now() < lastNow {
		t.Fatalf("after %s: time went back from %s to %s", step, lastNow, e.Now())
	}
	for i := 1; i < len(e.events); i++ {
		if e.events[i].Time < e.events[i-1].Time {
			t.Fatalf("after %s: event %d at %s before event %d at %s", step, i, e.events[i].Time, i-1, e.events[i-1].Time)
		}
	}
	// No node is over its allocatable by the pods holding resources on it.
	used := map[string]api.Resources{}
	for key, ps := range e.pods.All() {
		inSnap := e.snap.NodeOfPod(key) != nil
		switch ps.state {
		case StatePending:
			if ps.pod.Spec.NodeName != "" || inSnap || ps.kill != nil {
				t.Fatalf("after %s: pending pod %s is bound (%q) or in the snapshot", step, key, ps.pod.Spec.NodeName)
			}
		case StateStarting, StateRunning:
			if !inSnap || ps.kill != nil || ps.pod.IsTerminal() {
				t.Fatalf("after %s: %s pod %s: inSnap=%v kill=%v phase=%s", step, ps.state, key, inSnap, ps.kill != nil, ps.pod.Status.Phase)
			}
			if c := ps.pod.Condition(api.PodReady); ps.rt != nil && c != nil && c.Status == api.ConditionTrue && ps.unready {
				t.Fatalf("after %s: pod %s is Ready while its containers are not", step, key)
			}
			if ps.rt != nil && ps.rt.scheduled && ps.rt.nextAt < e.Now() {
				t.Fatalf("after %s: pod %s has a container change due at %s, in the past (now %s)", step, key, ps.rt.nextAt, e.Now())
			}
		case StateTerminating:
			if !inSnap || ps.kill == nil {
				t.Fatalf("after %s: terminating pod %s: inSnap=%v kill=%v", step, key, inSnap, ps.kill != nil)
			}
		case StateTerminated:
			if inSnap || !ps.pod.IsTerminal() {
				t.Fatalf("after %s: terminated pod %s in snapshot or not terminal", step, key)
			}
		}
		if inSnap {
			r := used[ps.pod.Spec.NodeName]
			r.Add(framework.NewPodInfo(ps.pod).Requests)
			used[ps.pod.Spec.NodeName] = r
		}
	}
	for name, r := range used {
		ni := e.snap.Get(name)
		if ni == nil {
			t.Fatalf("after %s: pods on missing node %s", step, name)
		}
		if r.MilliCPU > ni.Allocatable.MilliCPU || r.Memory > ni.Allocatable.Memory {
			t.Fatalf("after %s: node %s over allocatable: cpu %d/%d memory %d/%d", step, name, r.MilliCPU, ni.Allocatable.MilliCPU, r.Memory, ni.Allocatable.Memory)
		}
		if r.MilliCPU != ni.Requested.MilliCPU || r.Memory != ni.Requested.Memory {
			t.Fatalf("after %s: node %s snapshot requested %d/%d, pods say %d/%d", step, name, ni.Requested.MilliCPU, ni.Requested.Memory, r.MilliCPU, r.Memory)
		}
	}
	// The kubelet's memory signal matches the pods whose containers run.
	mem := map[string]int64{}
	for _, ps := range e.pods.All() {
		if ps.memCounted {
			mem[ps.pod.Spec.NodeName] += ps.usage
			if ps.state != StateRunning && ps.state != StateTerminating {
				t.Fatalf("after %s: %s pod %s counted for memory", step, ps.state, ps.pod.Key())
			}
		}
	}
	for name, ns := range e.nodes {
		if ns.podUsage != mem[name] {
			t.Fatalf("after %s: node %s podUsage %d, pods say %d", step, name, ns.podUsage, mem[name])
		}
	}
	// Every pending pod waits in the scheduling queue, and only they do.
	queued := map[string]bool{}
	for _, qp := range e.queue.Pending() {
		queued[qp.Info.Pod.Key()] = true
	}
	for key, ps := range e.pods.All() {
		if (ps.state == StatePending) != queued[key] {
			t.Fatalf("after %s: pod %s state %s, queued %v", step, key, ps.state, queued[key])
		}
	}
}

func runRandom(t *testing.T, seed uint64, steps int, check bool) (*Engine, []string) {
	e := New(Config{Seed: int64(seed), NewScheduler: propertyScheduler})
	addPrioClasses(t, e, 0, 100, 200)
	ra := &randomActions{r: rand.New(rand.NewPCG(seed, 7)), e: e}
	for i := 0; i < 3; i++ {
		ra.nodes++
		_ = e.AddNode(node(fmt.Sprintf("n%d", ra.nodes), "4", "4Gi"))
	}
	var log []string
	last := e.Now()
	for i := 0; i < steps; i++ {
		s := ra.step()
		log = append(log, s)
		if check {
			checkInvariants(t, e, last, fmt.Sprintf("step %d (%s)", i, s))
		}
		last = e.Now()
	}
	return e, log
}

func eventsJSON(t *testing.T, evs []Event) string {
	b, err := json.Marshal(evs)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPropertyRandomActionSequences(t *testing.T) {
	runs := 300
	if testing.Short() {
		runs = 40
	}
	for seed := uint64(1); seed <= uint64(runs); seed++ {
		e, _ := runRandom(t, seed, 60, true)
		if seed%10 == 0 {
			again, _ := runRandom(t, seed, 60, false)
			if eventsJSON(t, e.Events()) != eventsJSON(t, again.Events()) {
				t.Fatalf("seed %d: two runs gave different event streams", seed)
			}
		}
	}
}

func TestCloneReplaysIdentically(t *testing.T) {
	saved := propertyScheduler
	defer func() { propertyScheduler = saved }()
	propertyScheduler = DefaultScheduler // random tie-breaks must replay too
	for seed := uint64(1); seed <= 30; seed++ {
		e, _ := runRandom(t, seed, 40, false)
		c := e.Clone()
		n := len(e.Events())
		// both run the same further actions
		ra1 := &randomActions{r: rand.New(rand.NewPCG(seed, 99)), e: e, nodes: 10, pods: 30}
		ra2 := &randomActions{r: rand.New(rand.NewPCG(seed, 99)), e: c, nodes: 10, pods: 30}
		for i := 0; i < 30; i++ {
			a, b := ra1.step(), ra2.step()
			if a != b {
				t.Fatal("action streams diverged")
			}
		}
		if eventsJSON(t, e.EventsSince(n)) != eventsJSON(t, c.EventsSince(n)) {
			t.Fatalf("seed %d: clone diverged:\n%s\n---\n%s", seed, eventLines(e.EventsSince(n)), eventLines(c.EventsSince(n)))
		}
		keysE, keysC := e.sortedPodKeys(), c.sortedPodKeys()
		sort.Strings(keysE)
		if fmt.Sprint(keysE) != fmt.Sprint(keysC) {
			t.Fatalf("seed %d: pods differ", seed)
		}
	}
}
