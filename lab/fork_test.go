package lab

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

func mustApply(t *testing.T, a interface {
	Apply(string) (string, error)
}, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := a.Apply(l); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
	}
}

func TestForkStartsIdentical(t *testing.T) {
	s := presetSession(t, "spread-basics")
	mustApply(t, s, "scale deployment/web --replicas=6", "advance 20s", "cordon node1")
	if err := s.Advance(7 * time.Second); err != nil {
		t.Fatal(err)
	}
	f, err := s.Fork()
	if err != nil {
		t.Fatal(err)
	}
	a, b := f.Lane(LaneA), f.Lane(LaneB)
	if a != s {
		t.Fatal("lane a is not the session that forked")
	}
	if stateDigest(a) != stateDigest(b) {
		t.Fatalf("lanes differ at the fork:\n%s\nvs\n%s", stateDigest(a), stateDigest(b))
	}
	if len(a.Engine().Events()) != len(b.Engine().Events()) {
		t.Fatalf("events: a %d, b %d", len(a.Engine().Events()), len(b.Engine().Events()))
	}
	// the same future: both lanes go on identically under the same commands
	mustApply(t, f, "scale deployment/web --replicas=9", "advance 1m")
	if stateDigest(a) != stateDigest(b) {
		t.Fatalf("lanes diverged without a lane change:\n%s\nvs\n%s", stateDigest(a), stateDigest(b))
	}
}

func TestForkLaneCommands(t *testing.T) {
	s := presetSession(t, "spread-basics")
	f, err := s.Fork()
	if err != nil {
		t.Fatal(err)
	}
	mustApply(t, f, "@b cordon node1", "cordon node2", "advance 10s")
	a, b := f.Lane(LaneA), f.Lane(LaneB)
	if n := a.Engine().Node("node1"); n.Spec.Unschedulable {
		t.Error("@b cordon reached lane a")
	}
	if n := b.Engine().Node("node1"); !n.Spec.Unschedulable {
		t.Error("@b cordon did not reach lane b")
	}
	for _, l := range []*Session{a, b} {
		if !l.Engine().Node("node2").Spec.Unschedulable {
			t.Error("a command without a lane did not reach both lanes")
		}
	}
	if a.Now() != b.Now() || a.Now() != f.Now() {
		t.Fatalf("clocks: a %s, b %s", a.Now(), b.Now())
	}
	if got := f.Changes(LaneB); len(got) != 1 || got[0] != "cordon node1" {
		t.Fatalf("lane b changes = %q", got)
	}
	for _, bad := range []string{"@c cordon node1", "@b advance 10s", "@a undo", "@b"} {
		if _, err := f.Apply(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestForkUndoRedo(t *testing.T) {
	s := presetSession(t, "spread-basics")
	f, err := s.Fork()
	if err != nil {
		t.Fatal(err)
	}
	base := stateDigest(f.Lane(LaneA))
	mustApply(t, f, "@b set spread deployment/web maxSkew=3", "cordon node3", "cordon node4", "scale deployment/web --replicas=8")
	afterA, afterB := stateDigest(f.Lane(LaneA)), stateDigest(f.Lane(LaneB))
	if afterA == afterB {
		t.Fatal("maxSkew 3 in lane b changed nothing: the test scenario does not exercise the lanes")
	}
	mustApply(t, f, "advance 30s")
	for range 4 {
		mustApply(t, f, "undo") // advance, scale, cordon, cordon
	}
	mustApply(t, f, "undo") // @b set spread
	if a, b := stateDigest(f.Lane(LaneA)), stateDigest(f.Lane(LaneB)); a != b || a != base {
		t.Fatalf("undoing everything since the fork: a\n%s\nb\n%s\nbase\n%s", a, b, base)
	}
	if _, err := f.Apply("undo"); err == nil {
		t.Fatal("undo past the fork: no error")
	}
	for range 4 {
		mustApply(t, f, "redo")
	}
	if a, b := stateDigest(f.Lane(LaneA)), stateDigest(f.Lane(LaneB)); a != afterA || b != afterB {
		t.Fatalf("redo: a\n%s\nwant\n%s\nb\n%s\nwant\n%s", a, afterA, b, afterB)
	}
}

func TestForkCommandForBothIsAtomic(t *testing.T) {
	s := presetSession(t, "spread-basics")
	f, err := s.Fork()
	if err != nil {
		t.Fatal(err)
	}
	mustApply(t, f, "@b remove node node4")
	before := stateDigest(f.Lane(LaneA))
	_, err = f.Apply("cordon node4")
	if err == nil || !strings.Contains(err.Error(), "lane b") {
		t.Fatalf("cordon of a node lane b removed: err = %v", err)
	}
	if got := stateDigest(f.Lane(LaneA)); got != before {
		t.Fatalf("lane a kept half a command:\n%s\nwant\n%s", got, before)
	}
	if len(f.History()) != 1 {
		t.Fatalf("history %v", f.History())
	}
	mustApply(t, f, "@a cordon node4")
}

func TestCompareRunSpread(t *testing.T) {
	f, err := OpenOrPreset("spread-basics", nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	c, err := CompareRun(&out, f, CompareOptions{
		B:   []string{"set spread deployment/web maxSkew=3"},
		Do:  []string{"advance 30s", "cordon node3", "cordon node4", "scale deployment/web --replicas=8"},
		For: time.Minute,
	})
	if err != nil {
		t.Fatal(err)
	}
	a, b := c.Lanes[0], c.Lanes[1]
	if len(a.Pending) == 0 || len(b.Pending) >= len(a.Pending) {
		t.Fatalf("pending: a %d, b %d (maxSkew 3 should place more in zoneA)", len(a.Pending), len(b.Pending))
	}
	if !strings.HasPrefix(a.Pending[0].Message, "0/4 nodes are available: 2 node(s) didn't match pod topology spread constraints, 2 node(s) were unschedulable.") {
		t.Fatalf("pending message %q", a.Pending[0].Message)
	}
	var web *SpreadDiff
	for i := range c.Spread {
		if c.Spread[i].Workload == "deployment/web" && c.Spread[i].TopologyKey == "zone" {
			web = &c.Spread[i]
		}
	}
	if web == nil || !web.Differs() || web.MaxSkew != [2]int32{1, 3} || web.Counts[0]["zoneA"] >= web.Counts[1]["zoneA"] {
		t.Fatalf("web spread diff %+v", web)
	}
	text := out.String()
	for _, want := range []string{"lane b: set spread deployment/web maxSkew=3", "* pending", "maxSkew 1 DoNotSchedule | maxSkew 3 DoNotSchedule", "pending in lane a"} {
		if !strings.Contains(text, want) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
	out.Reset()
	if _, err := CompareRun(&out, f, CompareOptions{B: []string{"set spread deployment/web maxSkew=3"}, Output: "json"}); err != nil || !strings.Contains(out.String(), `"maxSkew": 3`) {
		t.Fatalf("json: %v\n%s", err, out.String())
	}
}

func TestForkSaveReloadsTwoLanes(t *testing.T) {
	s := presetSession(t, "spread-basics")
	mustApply(t, s, "scale deployment/web --replicas=4", "advance 20s")
	f, err := s.Fork()
	if err != nil {
		t.Fatal(err)
	}
	mustApply(t, f, "@b set spread deployment/web maxSkew=3", "advance 30s", "cordon node3", "cordon node4", "@a cordon node1", "scale deployment/web --replicas=8", "advance 15s")
	if err := f.Advance(4 * time.Second); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Save(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fork:\n  at: 20s", "lane: b", "lane: a"} {
		if !strings.Contains(buf.String(), want) {
			t.Fatalf("saved file lacks %q:\n%s", want, buf.String())
		}
	}
	file, err := LoadFile("saved.yaml", buf.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	s2, f2, err := OpenSession(file, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if f2 == nil || f2.Lane(LaneA) != s2 || f2.At() != f.At() {
		t.Fatalf("reloaded as %v, %v", s2, f2)
	}
	if err := f2.Advance(time.Duration(file.Scenario.Clock.ResumeAt)); err != nil {
		t.Fatal(err)
	}
	for _, lane := range []string{LaneA, LaneB} {
		if got, want := stateDigest(f2.Lane(lane)), stateDigest(f.Lane(lane)); got != want {
			t.Errorf("lane %s after reload:\n%s\nwant\n%s", lane, got, want)
		}
	}
	// one lane saved on its own is a plain scenario of that lane's story
	kept, err := f2.Close(LaneB)
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := kept.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "lane:") || strings.Contains(buf.String(), "fork:") {
		t.Fatalf("a closed lane saved with fork marks:\n%s", buf.String())
	}
	file, err = LoadFile("lane-b.yaml", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	s3, f3, err := OpenSession(file, SessionOptions{})
	if err != nil || f3 != nil {
		t.Fatalf("reloading lane b: %v, fork %v", err, f3)
	}
	if err := s3.Advance(time.Duration(file.Scenario.Clock.ResumeAt)); err != nil {
		t.Fatal(err)
	}
	if got, want := stateDigest(s3), stateDigest(f.Lane(LaneB)); got != want {
		t.Errorf("lane b saved alone:\n%s\nwant\n%s", got, want)
	}
}

func TestTimelineLaneValidated(t *testing.T) {
	_, err := LoadFile("bad.yaml", []byte("apiVersion: podlab/v1\nkind: Scenario\nmetadata: {name: x}\ntimeline:\n- {at: 1s, do: cordon node1, lane: c}\n"))
	if err == nil || !strings.Contains(err.Error(), "bad.yaml:5:") || !strings.Contains(err.Error(), "a lane is a or b") {
		t.Fatalf("err = %v", err)
	}
}

func TestExplainDiffNamesTheDecidingPlugin(t *testing.T) {
	s := presetSession(t, "spread-basics")
	f, err := s.Fork()
	if err != nil {
		t.Fatal(err)
	}
	// lane b cordons zoneA: web's third pod goes to zoneB there (the same
	// pod: both lanes create the same names from the same seed)
	mustApply(t, f, "@b cordon node1", "@b cordon node2", "scale deployment/web --replicas=3", "advance 10s")
	c := f.Compare()
	var pod string
	for _, p := range c.Placement {
		if p.Node[0] != "" && p.Node[1] != "" && p.Zone[0] != p.Zone[1] {
			pod = p.Pod
			break
		}
	}
	if pod == "" {
		t.Fatalf("no pod placed in different zones: %+v", c.Placement)
	}
	d, err := f.ExplainDiff(pod)
	if err != nil {
		t.Fatal(err)
	}
	a, b := d.Lanes[0], d.Lanes[1]
	if b.Plugin != "NodeUnschedulable" || !strings.Contains(b.Why, "is filtered out here by NodeUnschedulable") {
		t.Fatalf("lane b verdict %+v", b)
	}
	// lane a had the choice: its verdict is a score lead or a tie
	if a.Node == "" || a.Other != b.Node || a.Node != b.Other || !(strings.Contains(a.Why, "leads") || strings.Contains(a.Why, "tie broken at random")) {
		t.Fatalf("lane a verdict %+v", a)
	}
}

func TestChecksNameLanesAndReadHistory(t *testing.T) {
	s := presetSession(t, "spread-basics")
	s.EnableMetrics(0)
	if _, err := s.EvalCheck("skew@b(deployment/web, zone) == 0"); err == nil || !strings.Contains(err.Error(), "not forked") {
		t.Fatalf("a lane before a fork: %v", err)
	}
	f, err := s.Fork()
	if err != nil {
		t.Fatal(err)
	}
	mustApply(t, f, "@b cordon node3", "@b cordon node4", "scale deployment/web --replicas=6", "advance 20s")
	for expr, want := range map[string]bool{
		"pending@a(deployment/web) == 0":                   true,
		"pending@b(deployment/web) > 0":                    true,
		"pending(deployment/web) > 0":                      true, // no lane: the session asked (lane b)
		"max_over_time(pending@b(deployment/web)) >= 3":    true,
		"max_over_time(pending@a(deployment/web)) == 0":    true,
		"min_over_time(running@a(pods)) < 7":               true,
		"max_over_time(skew@b(deployment/web, zone)) == 1": true,
	} {
		res, err := f.Lane(LaneB).EvalCheck(expr)
		if err != nil || res.OK != want {
			t.Errorf("%s: %+v, %v", expr, res, err)
		}
	}
}

// Lane b is a session of its own: after lane-only commands that give it
// workloads lane a lacks (a rollout's new ReplicaSet), it is exactly what
// replaying its own history gives. Its scheduler used to look owners up
// in lane a (the factory closed over a), so default spreading saw no
// selector for b's new ReplicaSet and placed pods elsewhere.
func TestForkLaneBehavesAsItsOwnHistory(t *testing.T) {
	s := presetSession(t, "spread-defaults")
	mustApply(t, s, "advance 20s")
	f, err := s.Fork()
	if err != nil {
		t.Fatal(err)
	}
	mustApply(t, f, "@b rollout restart deployment/web", "advance 30s", "@b scale deployment/web --replicas=9", "advance 1m")
	b := f.Lane(LaneB)
	g := presetSession(t, "spread-defaults")
	for _, e := range b.History() {
		if err := g.replayEntry(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.advanceTo(b.Now()); err != nil {
		t.Fatal(err)
	}
	if got, want := stateDigest(b), stateDigest(g); got != want {
		t.Fatalf("lane b differs from its own replay:\n%s", firstDiff(got, want))
	}
}

// The controllers that report to the session report to their own lane: a
// descheduler on an interval records lane b's passes in lane b.
func TestForkLaneControllersReportToTheirLane(t *testing.T) {
	data, err := os.ReadFile("../presets/descheduler-rebalance.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "kind: Scenario\n", "kind: Scenario\ndescheduler: {deschedulingInterval: 1m}\n", 1)
	f, err := LoadFile("rebalance.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fk, err := s.Fork()
	if err != nil {
		t.Fatal(err)
	}
	if err := fk.Advance(3 * time.Minute); err != nil {
		t.Fatal(err)
	}
	a, b := fk.Lane(LaneA), fk.Lane(LaneB)
	if len(a.descheduled) == 0 || len(a.descheduled) != len(b.descheduled) {
		t.Fatalf("descheduler passes: lane a %d, lane b %d; want the same, more than none", len(a.descheduled), len(b.descheduled))
	}
}
