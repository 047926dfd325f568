package lab

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// randomCommand picks a command that makes sense for the current cluster.
func randomCommand(r *rand.Rand, s *Session) string {
	nodes := s.Engine().Nodes()
	node := nodes[r.IntN(len(nodes))].Name
	var pods []string
	for _, p := range s.Engine().Pods() {
		if !p.IsTerminal() {
			pods = append(pods, p.Name)
		}
	}
	switch r.IntN(19) {
	case 0:
		return "cordon " + node
	case 1:
		return "uncordon " + node
	case 2:
		return fmt.Sprintf("label node %s tier=t%d", node, r.IntN(3))
	case 3:
		return fmt.Sprintf("taint node %s lab=x:%s", node, []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}[r.IntN(3)])
	case 4:
		return fmt.Sprintf("taint node %s lab-", node)
	case 5:
		return fmt.Sprintf("scale deployment/web --replicas=%d", r.IntN(10))
	case 6:
		if len(pods) > 0 {
			return fmt.Sprintf("delete pod %s --grace-period=%d", pods[r.IntN(len(pods))], r.IntN(40))
		}
	case 7:
		return fmt.Sprintf("pressure node %s memory=%d%%", node, 50+r.IntN(50))
	case 8:
		return fmt.Sprintf("pressure node %s memory=off", node)
	case 9:
		return fmt.Sprintf("usage deployment/web memory=%d%%", 50+r.IntN(150))
	case 10:
		return fmt.Sprintf("drain %s --ignore-daemonsets --timeout=%ds", node, 10+r.IntN(60))
	case 11:
		return fmt.Sprintf("add node extra-%d --zone zone-%c", r.IntN(1000), 'a'+rune(r.IntN(4)))
	case 12:
		return fmt.Sprintf("set spread deployment/web maxSkew=%d", 1+r.IntN(3))
	case 13:
		return "rollout restart deployment/web"
	case 14:
		if r.IntN(2) == 0 {
			return "fail node " + node
		}
		return "recover node " + node
	case 16:
		return fmt.Sprintf("autoscale deployment/web --min=1 --max=%d --cpu-percent=%d", 2+r.IntN(8), 30+r.IntN(60))
	case 17:
		return fmt.Sprintf("usage deployment/web cpu=%d%% at %ds", 20+r.IntN(300), int(s.Now().Seconds())+r.IntN(120))
	case 18:
		return "delete hpa web"
	}
	return fmt.Sprintf("advance %ds", 1+r.IntN(90))
}

func fullDigest(s *Session) string {
	var b strings.Builder
	b.WriteString(stateDigest(s))
	for _, n := range s.Engine().Nodes() {
		fmt.Fprintf(&b, "%s %v %v\n", n.Name, n.Labels, n.Spec.Taints)
	}
	for _, e := range s.Engine().Events() {
		b.WriteString(e.Time.String() + " " + e.Reason + " " + e.Object + " " + e.Message + "\n")
	}
	fmt.Fprintf(&b, "%+v\n", s.HPARows())
	return b.String()
}

// replayedDigest loads a saved session, replays it to the time it was
// saved at, and returns its fullDigest.
func replayedDigest(t *testing.T, saved []byte) string {
	t.Helper()
	f, err := LoadFile("saved.yaml", saved)
	if err != nil {
		t.Fatalf("saved file does not load: %v\n%s", err, saved)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.advanceTo(api.Time(f.Scenario.Clock.ResumeAt)); err != nil {
		t.Fatal(err)
	}
	return fullDigest(s)
}

func TestSaveAndReplayRoundTrip(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 99))
			s := exampleSession(t)
			applied := 0
			for applied < 50 {
				line := randomCommand(r, s)
				if _, err := s.Apply(line); err != nil {
					continue // e.g. a node name that exists already
				}
				applied++
			}
			want := fullDigest(s)
			var buf bytes.Buffer
			if err := s.Save(&buf); err != nil {
				t.Fatal(err)
			}
			if got := replayedDigest(t, buf.Bytes()); got != want {
				t.Fatalf("replayed state differs:\n%s", firstDiff(got, want))
			}
		})
	}
}

func TestUndoEachCommandRestoresState(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	s := exampleSession(t)
	for i := 0; i < 25; i++ {
		before := fullDigest(s)
		line := randomCommand(r, s)
		if _, err := s.Apply(line); err != nil {
			continue
		}
		if _, err := s.Undo(); err != nil {
			t.Fatal(err)
		}
		if got := fullDigest(s); got != before {
			t.Fatalf("undo of %q:\n%s", line, firstDiff(got, before))
		}
		if _, err := s.Redo(); err != nil {
			t.Fatal(err)
		}
	}
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) && i < len(w); i++ {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got  %s\n want %s", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("lengths differ: got %d lines, want %d", len(g), len(w))
}
