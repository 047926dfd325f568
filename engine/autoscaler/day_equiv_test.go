package autoscaler

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/descheduler"
	"podlab.dev/podlab/engine/scheduler"
)

// dayTrace is what a day-like run decided: every event, the autoscaler's
// status after every loop and the descheduler's passes, as JSON lines.
type dayTrace struct {
	events []string
	loops  []string
	passes []string
}

// digest summarises a trace (for a before/after comparison by hand).
func (t *dayTrace) digest() string {
	h := sha256.New()
	for _, part := range [][]string{t.events, t.loops, t.passes} {
		for _, l := range part {
			fmt.Fprintln(h, l)
		}
		fmt.Fprintln(h, "--")
	}
	return fmt.Sprintf("%x", h.Sum(nil))[:16]
}

// runMiniDay is BenchmarkDayWithDeschedulerAndAutoscaler in small: 60
// nodes of 32 CPU in three zonal groups (min 15, so scale-down drains a
// quarter of them), 600 pods with one deleted and one created every
// second, every tenth pod spread over zones, a PDB over one app, and at
// the second hour a burst of 40 large pods that triggers a scale-up
// (deleted 20 minutes later, so the new nodes drain again). The
// descheduler runs every 10 minutes.
//
// With reference, the autoscaler runs without its loop memos and buffers.
func runMiniDay(t testing.TB, seconds int, reference bool) *dayTrace {
	t.Helper()
	e := engine.New(engine.Config{Seed: 1, NewScheduler: engine.DefaultScheduler})
	var groups []NodeGroup
	for z := 0; z < 3; z++ {
		groups = append(groups, group(fmt.Sprintf("zone-%d", z), 15, 40, template("32", "128Gi", fmt.Sprintf("zone-%d", z))))
	}
	for n := 0; n < 60; n++ {
		nd := nodeFromTemplate(groups[n%3].Template, fmt.Sprintf("node-%03d", n))
		nd.Labels[NodeGroupLabel] = groups[n%3].Name
		if err := e.AddNode(nd); err != nil {
			t.Fatal(err)
		}
	}
	mk := func(i int) *api.Pod {
		app := fmt.Sprintf("app-%d", i%12)
		p := pod(fmt.Sprintf("pod-%05d", i), "500m", "1Gi", app)
		p.Labels = map[string]string{"app": app}
		if i%10 == 0 {
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.DoNotSchedule,
				LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": app}}}}
		}
		return p
	}
	var live []string
	for i := 0; i < 600; i++ {
		p := mk(i)
		p.Spec.NodeName = fmt.Sprintf("node-%03d", i%60)
		if err := e.CreatePod(p); err != nil {
			t.Fatal(err)
		}
		live = append(live, p.Key())
	}
	one := api.IntOrString{IntVal: 1}
	if err := e.AddPDB(&api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "app-3", Namespace: "default"},
		Spec: api.PDBSpec{MaxUnavailable: &one, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "app-3"}}}}); err != nil {
		t.Fatal(err)
	}
	a, err := New(groups, Options{}, scheduler.Config{}, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	a.reference = reference
	e.AddController(a)
	tr := &dayTrace{}
	d := &descheduler.Controller{Interval: 10 * time.Minute, Policy: &descheduler.Policy{Profiles: []descheduler.Profile{{Name: "day",
		Balance: []string{descheduler.TopologySpreadName, descheduler.DuplicatesName, descheduler.LowNodeUtilizationName},
		Args: descheduler.PluginArgs{LowNodeUtilization: descheduler.LowNodeUtilizationArgs{
			Thresholds:       descheduler.Thresholds{"cpu": 20, "pods": 20},
			TargetThresholds: descheduler.Thresholds{"cpu": 50, "pods": 50}}}}}},
		OnPass: func(r *descheduler.Result) { tr.passes = append(tr.passes, jsonLine(t, r)) }}
	e.AddController(d)
	r := rand.New(rand.NewPCG(1, 2))
	next := 600
	var burst []string
	lastLoop := api.Time(-1)
	for s := 1; s <= seconds; s++ {
		if err := e.Step(time.Second); err != nil {
			t.Fatal(err)
		}
		// the status is read without Status() (which hands it out and
		// stops the reuse of its buffers), and printed at once
		if st := a.status; st.LoopAt != lastLoop {
			lastLoop = st.LoopAt
			tr.loops = append(tr.loops, jsonLine(t, st))
		}
		k := r.IntN(len(live))
		_ = e.DeletePod(live[k], engine.DeleteOptions{})
		p := mk(next)
		next++
		live[k] = p.Key()
		_ = e.CreatePod(p)
		switch s {
		case 7200:
			for i := 0; i < 40; i++ {
				big := pod(fmt.Sprintf("big-%02d", i), "28", "8Gi", "big")
				if err := e.CreatePod(big); err != nil {
					t.Fatal(err)
				}
				burst = append(burst, big.Key())
			}
		case 8400:
			for _, k := range burst {
				_ = e.DeletePod(k, engine.DeleteOptions{})
			}
		}
	}
	for _, ev := range e.Events() {
		tr.events = append(tr.events, jsonLine(t, ev))
	}
	return tr
}

func jsonLine(t testing.TB, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDayEquivalence runs the mini day with the autoscaler's and the
// descheduler's memos and without them, and requires the same events,
// autoscaler statuses and descheduling passes — and a day that scales up,
// drains nodes and deschedules pods, so the comparison covers them.
func TestDayEquivalence(t *testing.T) {
	want := runMiniDay(t, 3*3600, true)
	got := runMiniDay(t, 3*3600, false)
	for _, part := range []struct {
		name      string
		want, got []string
	}{{"events", want.events, got.events}, {"autoscaler loops", want.loops, got.loops}, {"descheduling passes", want.passes, got.passes}} {
		for i := 0; i < min(len(part.want), len(part.got)); i++ {
			if part.want[i] != part.got[i] {
				t.Fatalf("%s differ at %d:\nwithout memos: %s\nwith memos:    %s", part.name, i, part.want[i], part.got[i])
			}
		}
		if len(part.want) != len(part.got) {
			t.Fatalf("%s: %d without memos, %d with", part.name, len(part.want), len(part.got))
		}
	}
	count := map[string]int{}
	for _, l := range got.events {
		var ev struct{ Reason, Message string }
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatal(err)
		}
		count[ev.Reason]++
		if ev.Reason == ReasonScaleDown && ev.Message == "node removed by cluster autoscaler" {
			count["removed"]++
		}
	}
	if count[ReasonTriggeredScaleUp] == 0 || count["removed"] < 20 || count[descheduler.DuplicatesName] == 0 || count[descheduler.TopologySpreadName] == 0 {
		t.Fatalf("the day did not exercise scale-up, scale-down and descheduling: %v", count)
	}
	t.Logf("digest %s: %d events, %d loops, %d passes; %v", got.digest(), len(got.events), len(got.loops), len(got.passes), count)
}

// TestNestedLoopEquivalence calls RunOnce outside the engine's settle
// while a loop is due: the deletion's taint settles the engine, whose
// reconcile runs a second loop inside the first. With and without the
// memos (the inner loop must not reuse the outer's buffers or kept
// simulation) the events and statuses must be the same.
func TestNestedLoopEquivalence(t *testing.T) {
	run := func(reference bool) []string {
		groups := []NodeGroup{group("g", 1, 10, template("4", "16Gi", "zone-a"))}
		e := engine.New(engine.Config{Seed: 1, NewScheduler: engine.ByNameScheduler})
		a, err := New(groups, Options{}, scheduler.Config{TieBreak: scheduler.TieBreakByName}, "", 1)
		if err != nil {
			t.Fatal(err)
		}
		a.reference = reference
		for i := 0; i < 6; i++ {
			if err := e.AddNode(a.NewGroupNode("g")); err != nil {
				t.Fatal(err)
			}
		}
		create(t, e, pod("a", "500m", "1Gi", "rs"), pod("b", "500m", "1Gi", "rs"))
		e.AddController(a)
		var out []string
		for step := 0; step < 90; step++ {
			a.nextLoop = api.Time(1 << 62) // the loops run below, not in Step
			run(t, e, 10*time.Second)
			a.nextLoop = e.Now() // due: the nested reconcile runs a loop too
			a.RunOnce(e, e.Now())
			out = append(out, jsonLine(t, a.status))
		}
		for _, ev := range e.Events() {
			out = append(out, jsonLine(t, ev))
		}
		return out
	}
	want, got := run(true), run(false)
	if len(want) != len(got) {
		t.Fatalf("%d lines without memos, %d with", len(want), len(got))
	}
	removed := 0
	for i := range want {
		if want[i] != got[i] {
			t.Fatalf("line %d differs:\nwithout memos: %s\nwith memos:    %s", i, want[i], got[i])
		}
		if strings.Contains(got[i], "node removed by cluster autoscaler") {
			removed++
		}
	}
	if removed < 4 {
		t.Fatalf("%d nodes removed: the nested loops did not delete nodes", removed)
	}
}
