package check

import (
	"strings"
	"testing"
)

func TestLanesAndOverTimeParse(t *testing.T) {
	for _, tt := range []struct {
		in, want, err string
	}{
		{in: "skew@a(deployment/web, zone) < skew@b(deployment/web, zone)", want: "skew@a(deployment/web, zone) < skew@b(deployment/web, zone)"},
		{in: "max_over_time(pending(deployment/web)) == 0", want: "max_over_time(pending(deployment/web)) == 0"},
		{in: "min_over_time(running@b(deployment/web))>=2", want: "min_over_time(running@b(deployment/web)) >= 2"},
		{in: "skew@c(deployment/web, zone) < 1", err: `col 5: lane "c": a forked lab has lanes a and b`},
		{in: "max_over_time(zone(pod/x)) == 1", err: "expected pending(…), running(…) or skew(…), got zone(pod/x)"},
		{in: "max_over_time(3) == 1", err: "expected pending(…), running(…) or skew(…), got 3"},
	} {
		c, err := Parse(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Parse(%q) error = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got := c.String(); got != tt.want {
			t.Errorf("Parse(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// laneEnv answers skew with a per-lane value and records what was asked.
type laneEnv struct {
	lane  string
	skews map[string]float64
}

func (e *laneEnv) Call(name string, args []Arg) (Value, error) {
	if name == "max_over_time" {
		n, lane, _, _ := args[0].Call()
		return NumV(float64(len(n)) + float64(len(lane))), nil
	}
	return NumV(e.skews[e.lane]), nil
}
func (e *laneEnv) InDomain(string, string) (bool, error) { return false, nil }
func (e *laneEnv) Lane(name string) (Env, error) {
	return &laneEnv{lane: name, skews: e.skews}, nil
}

type plainEnv struct{ laneEnv }

func TestLaneCallsAskTheLane(t *testing.T) {
	env := &laneEnv{lane: "", skews: map[string]float64{"": 9, "a": 1, "b": 2}}
	c, err := Parse("skew@a(deployment/web, zone) < skew@b(deployment/web, zone)")
	if err != nil {
		t.Fatal(err)
	}
	if res, err := c.Eval(env); err != nil || !res.OK {
		t.Fatalf("a=1 < b=2: %+v, %v", res, err)
	}
	// the argument of max_over_time is handed over unevaluated, lane and all
	c, _ = Parse("max_over_time(skew@b(deployment/web, zone)) == 5")
	if res, err := c.Eval(env); err != nil || !res.OK {
		t.Fatalf("max_over_time got skew and b: %+v, %v", res, err)
	}
	// an Env without lanes refuses a lane
	c, _ = Parse("skew@a(deployment/web, zone) < 3")
	type noLanes struct{ Env }
	if _, err := c.Eval(noLanes{&plainEnv{}}); err == nil || !strings.Contains(err.Error(), "lanes exist only in a forked lab") {
		t.Fatalf("lane on a plain env: %v", err)
	}
}
