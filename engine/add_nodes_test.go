package engine

import (
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// AddNodes registers every node before anything settles: a pod pending
// for want of room is scheduled once, with all the new nodes to choose
// from, after every RegisteredNode event (AddNode one at a time would
// have bound it to the first new node, between the two registrations).
func TestAddNodesRegistersTogetherThenSettles(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.AddNode(node("n1", "1", "1Gi")))
	must(t, e.CreatePod(pod("big").req("2", "").obj()))
	if e.Pod("default/big").Spec.NodeName != "" {
		t.Fatal("big scheduled on n1, which is too small")
	}
	must(t, e.AddNodes([]*api.Node{node("n2", "4", "8Gi"), node("n3", "4", "8Gi")}))
	if got := e.Pod("default/big").Spec.NodeName; got != "n2" && got != "n3" {
		t.Fatalf("big on %q, want n2 or n3", got)
	}
	var order []string
	for _, ev := range e.Events() {
		switch ev.Reason {
		case ReasonRegisteredNode, ReasonScheduled:
			order = append(order, ev.Reason+" "+ev.Object)
		}
	}
	want := "RegisteredNode node/n1, RegisteredNode node/n2, RegisteredNode node/n3, Scheduled pod/default/big"
	if got := strings.Join(order, ", "); got != want {
		t.Fatalf("events:\n got %s\nwant %s", got, want)
	}
}

// A node that cannot be added stops the batch with its error; the nodes
// before it stay registered and settled. p is pending because n0 is too
// small (a plugin rejection, so the Node add moves it at once; with no
// node at all it would be an error pod waiting for its backoff).
func TestAddNodesStopsAtTheFirstError(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.AddNode(node("n0", "1", "1Gi")))
	must(t, e.CreatePod(pod("p").req("2", "").obj()))
	err := e.AddNodes([]*api.Node{node("n1", "4", "8Gi"), node("n1", "4", "8Gi"), node("n2", "4", "8Gi")})
	if err == nil || !strings.Contains(err.Error(), "add node n1: already exists") {
		t.Fatalf("error %v, want add node n1: already exists", err)
	}
	if e.NumNodes() != 2 || e.Node("n2") != nil {
		t.Fatalf("%d nodes (n2 %v), want n0 and n1 only", e.NumNodes(), e.Node("n2") != nil)
	}
	if got := e.Pod("default/p").Spec.NodeName; got != "n1" {
		t.Fatalf("p on %q, want n1 (settled after the error)", got)
	}
}
