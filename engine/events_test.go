package engine

import (
	"encoding/json"
	"testing"
	"time"
)

func TestEventJSONIsThePodlabRunLine(t *testing.T) {
	ev := Event{Time: sec(12.5), Type: EventNormal, Reason: ReasonKilling, Object: "pod/default/web-1", Message: "Stopping container app"}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"t":"12.5s","type":"Normal","reason":"Killing","object":"pod/default/web-1","message":"Stopping container app"}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}

func TestSnapshotCountsAndTimelines(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.AddNode(node("n1", "2", "4Gi")))
	must(t, e.CreatePod(pod("run").on("n1").req("1", "").obj()))
	must(t, e.CreatePod(pod("big").req("4", "").obj()))
	must(t, e.Step(time.Second))
	must(t, e.CreatePod(pod("new").req("1", "").obj()))
	must(t, e.DeletePod("default/run", DeleteOptions{}))
	s := e.Snapshot()
	if s.Counts.Nodes != 1 || s.Counts.Pending != 1 || s.Counts.Starting != 1 || s.Counts.Terminating != 1 {
		t.Fatalf("counts %+v", s.Counts)
	}
	if len(s.Pending) != 1 || s.Pending[0].Pod != "default/big" || s.Pending[0].Message != "0/1 nodes are available: 1 Insufficient cpu." {
		t.Fatalf("pending %+v", s.Pending)
	}
	if _, ok := s.Timelines["default/run"]; !ok {
		t.Fatal("no timeline for the terminating pod")
	}
	if len(s.Nodes) != 1 || len(s.Nodes[0].Pods) != 2 {
		t.Fatalf("node view %+v", s.Nodes)
	}
	// the snapshot does not change as time moves on
	must(t, e.Step(time.Minute))
	if s.Counts.Terminating != 1 || s.Nodes[0].Pods[1].Pod.DeletionTimestamp == nil || s.Nodes[0].Pods[1].State != StateTerminating {
		t.Fatal("snapshot changed under the UI")
	}
	tl, _ := e.Timeline("default/new")
	if got := spansString(tl.Pod); got != "ContainerCreating[1s,3s) Running[3s…]" {
		t.Fatalf("timeline %s", got)
	}
}
