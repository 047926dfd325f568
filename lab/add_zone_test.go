package lab

import (
	"strings"
	"testing"
)

// `add zone` registers its nodes at the same instant and settles once:
// every RegisteredNode event comes before the DaemonSet's pods for them,
// each new node gets exactly one daemon pod, and the names are the ones
// the lab gave one node at a time (node-4…, after the three existing).
func TestAddZoneRegistersItsNodesTogether(t *testing.T) {
	f, err := LoadFile("zone.yaml", []byte(smallScenario(1, 3)+daemonSet))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	before := len(s.Engine().Events())
	out, err := s.Apply("add zone zq --nodes 3")
	if err != nil {
		t.Fatal(err)
	}
	if want := "zone zq added with node-4, node-5, node-6"; out != want {
		t.Fatalf("output %q, want %q", out, want)
	}
	var order []string
	for _, ev := range s.Engine().Events()[before:] {
		switch ev.Reason {
		case "RegisteredNode", "SuccessfulCreate":
			order = append(order, ev.Reason)
		}
	}
	want := "RegisteredNode RegisteredNode RegisteredNode SuccessfulCreate SuccessfulCreate SuccessfulCreate"
	if got := strings.Join(order, " "); got != want {
		t.Fatalf("events %s, want %s", got, want)
	}
	perNode := map[string]int{}
	for _, p := range s.Engine().Pods() {
		if p.Labels["app"] == "agent" {
			perNode[p.Spec.NodeName]++
		}
	}
	for _, n := range []string{"node-1", "node-2", "node-3", "node-4", "node-5", "node-6"} {
		if perNode[n] != 1 {
			t.Errorf("%s has %d agent pods, want 1 (%v)", n, perNode[n], perNode)
		}
	}
	if st := s.Controllers().DaemonSet("default", "agent").Status; st.DesiredNumberScheduled != 6 || st.CurrentNumberScheduled != 6 {
		t.Fatalf("status %+v, want 6 desired and scheduled", st)
	}
}

// A zone is a label value: the default lesson's zones are zoneA and
// zoneB, and `add zone zoneC` / `remove zone zoneC` work on it (they were
// refused as object names, "names use lower-case letters").
func TestAddZoneTakesALabelValue(t *testing.T) {
	s := presetSession(t, "spread-basics")
	out, err := s.Apply("add zone zoneC --nodes 2")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "zone zoneC added with") {
		t.Fatalf("output %q", out)
	}
	n := 0
	for _, node := range s.Engine().Nodes() {
		if node.Labels[s.zoneLabel()] == "zoneC" {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("%d nodes in zoneC, want 2", n)
	}
	if _, err := s.Apply("remove zone zoneC"); err != nil {
		t.Fatal(err)
	}
}
