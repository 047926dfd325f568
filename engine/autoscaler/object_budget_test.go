package autoscaler

import (
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/scheduler"
)

// A node the lab's object budget refuses is a failed scale-up, recorded as
// upstream's executor records one (FailedToScaleUpGroup), not dropped in
// silence.
func TestScaleUpBeyondTheObjectBudget(t *testing.T) {
	e := engine.New(engine.Config{Seed: 1, NewScheduler: engine.ByNameScheduler, MaxObjects: 3})
	a, err := New([]NodeGroup{group("ng", 1, 3, template("2", "4Gi", ""))}, Options{}, scheduler.Config{TieBreak: scheduler.TieBreakByName}, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range a.InitialNodes(func(string) int { return 0 }) {
		if err := e.AddNode(n); err != nil {
			t.Fatal(err)
		}
	}
	e.AddController(a)
	create(t, e, pod("p1", "1500m", "1Gi", ""), pod("p2", "1500m", "1Gi", ""))
	run(t, e, 3*time.Minute)
	got := events(e, ReasonFailedToScaleUpGroup)
	want := `FailedToScaleUpGroup configmap/kube-system/cluster-autoscaler-status: Scale-up failed for group ng: nodes "ng-`
	if len(got) == 0 || !strings.HasPrefix(got[0], want) || !strings.Contains(got[0], "is forbidden: exceeded quota: podlab-object-budget, requested: objects=1, used: objects=3, limited: objects=3") {
		t.Fatalf("events %q\nwant %s…", got, want)
	}
	if len(e.Nodes()) != 1 {
		t.Fatalf("%d nodes", len(e.Nodes()))
	}
}
