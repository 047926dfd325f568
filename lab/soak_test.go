package lab

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
)

// TestSoak runs the lab for 100,000 virtual minutes of random commands and
// checks the invariants after every one: no node holds more than its
// allocatable in non-terminated pods, every pod is in exactly one known
// state, virtual time never goes back; at the end, with every disruption
// removed, the Deployment converges to its spec.
func TestSoak(t *testing.T) {
	const horizon = 100_000 * time.Minute
	r := rand.New(rand.NewPCG(2026, 11))
	s := exampleSession(t)
	last := s.Now()
	commands := 0
	for s.Now() < api.Time(horizon) {
		line := randomCommand(r, s)
		if _, err := s.Apply(line); err == nil {
			commands++
		}
		if err := s.Advance(time.Duration(1+r.IntN(30)) * time.Minute); err != nil {
			t.Fatal(err)
		}
		if s.Now() < last {
			t.Fatalf("time went back from %s to %s", last, s.Now())
		}
		last = s.Now()
		if err := checkInvariants(s); err != nil {
			t.Fatalf("after %q at %s: %v", line, s.Now(), err)
		}
	}
	// Remove every disruption, give the controllers room and time.
	for _, n := range s.Engine().Nodes() {
		for _, line := range []string{"uncordon " + n.Name, "recover node " + n.Name, "pressure node " + n.Name + " memory=off", "taint node " + n.Name + " lab-"} {
			_, _ = s.Apply(line)
		}
	}
	for _, line := range []string{"usage deployment/web memory=50%", "set spread deployment/web maxSkew=3", "scale deployment/web --replicas=4"} {
		if _, err := s.Apply(line); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Advance(30 * time.Minute); err != nil {
		t.Fatal(err)
	}
	res, err := s.EvalCheck("running(deployment/web) == 4 && pending(deployment/web) == 0")
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK {
		t.Fatalf("did not converge after %d commands: %s\n%s", commands, res.Detail, stateDigest(s))
	}
	t.Logf("%d commands over %s of virtual time, %d events", commands, s.Now(), len(s.Engine().Events()))
}

func checkInvariants(s *Session) error {
	e := s.Engine()
	used := map[string]api.Resources{}
	for _, p := range e.Pods() {
		st, ok := e.PodState(p.Key())
		if !ok {
			return fmt.Errorf("pod %s has no state", p.Key())
		}
		switch st {
		case engine.StatePending, engine.StateStarting, engine.StateRunning, engine.StateTerminating, engine.StateTerminated:
		default:
			return fmt.Errorf("pod %s in unknown state %v", p.Key(), st)
		}
		if st == engine.StatePending && p.Spec.NodeName != "" {
			return fmt.Errorf("pending pod %s is bound to %s", p.Key(), p.Spec.NodeName)
		}
		if st != engine.StatePending && st != engine.StateTerminated && p.Spec.NodeName == "" {
			return fmt.Errorf("pod %s is %s without a node", p.Key(), st)
		}
		if p.Spec.NodeName == "" || p.IsTerminal() {
			continue
		}
		u := used[p.Spec.NodeName]
		u.Add(api.ResourcesOf(api.PodRequests(p, api.PodRequestsOptions{})))
		u.AllowedPods++
		used[p.Spec.NodeName] = u
	}
	for name, u := range used {
		n := e.Node(name)
		if n == nil {
			return fmt.Errorf("pods bound to missing node %s", name)
		}
		a := api.ResourcesOf(n.Status.Allocatable)
		if u.MilliCPU > a.MilliCPU || u.Memory > a.Memory || u.AllowedPods > a.AllowedPods {
			return fmt.Errorf("node %s over its allocatable: %+v > %+v", name, u, a)
		}
	}
	return nil
}

// The same seed and the same commands give the same event stream.
func TestSameSeedSameEvents(t *testing.T) {
	run := func() string {
		r := rand.New(rand.NewPCG(5, 5))
		s := exampleSession(t)
		for i := 0; i < 60; i++ {
			_, _ = s.Apply(randomCommand(r, s))
			if err := s.Advance(time.Duration(1+r.IntN(120)) * time.Second); err != nil {
				t.Fatal(err)
			}
		}
		return fullDigest(s)
	}
	if a, b := run(), run(); a != b {
		t.Fatalf("two runs differ:\n%s", firstDiff(a, b))
	}
}
