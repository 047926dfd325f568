package controllers

import (
	"fmt"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

// Table cases ported from k8s.io/kubernetes
// pkg/controller/podautoscaler/horizontal_test.go (commit 003e862 of the
// stored copy; the test function each table follows is named above it).
// Upstream times are relative to time.Now(); here "now" is hpaNow.

var hpaNow = sec(10000)

// generateScalingRules is horizontal_test.go generateScalingRules: a Pods
// and/or a Percent policy, selectPolicy Max.
func generateScalingRules(pods, podsPeriod, percent, percentPeriod, window int32) *api.HPAScalingRules {
	sel := api.MaxChangePolicySelect
	r := &api.HPAScalingRules{StabilizationWindowSeconds: &window, SelectPolicy: &sel}
	if pods != 0 {
		r.Policies = append(r.Policies, api.HPAScalingPolicy{Type: api.PodsScalingPolicy, Value: pods, PeriodSeconds: podsPeriod})
	}
	if percent != 0 {
		r.Policies = append(r.Policies, api.HPAScalingPolicy{Type: api.PercentScalingPolicy, Value: percent, PeriodSeconds: percentPeriod})
	}
	return r
}

// generateEventsUniformDistribution is horizontal_test.go's helper: events
// spread over the last periodSeconds, each in the middle of its segment.
func generateEventsUniformDistribution(raw []int, periodSeconds int) []scaleEvent {
	out := make([]scaleEvent, len(raw))
	seg := float64(periodSeconds) / float64(len(raw))
	for i, e := range raw {
		back := float64(periodSeconds) - seg*float64(i+1) + seg/2
		out[i] = scaleEvent{Change: int32(e), At: hpaNow.Add(-time.Duration(back * float64(time.Second)))}
	}
	return out
}

// upRules/downRules are GenerateHPAScaleUpRules / GenerateHPAScaleDownRules.
func upRules(r *api.HPAScalingRules) *api.HPAScalingRules {
	d := DefaultHPAScaleUpRules()
	return copyScalingRules(r, &d)
}

func downRules(r *api.HPAScalingRules) *api.HPAScalingRules {
	d := DefaultHPAScaleDownRules()
	return copyScalingRules(r, &d)
}

// TestScalingWithRules (convertDesiredReplicasWithBehaviorRate).
func TestUpstreamScalingWithRules(t *testing.T) {
	type tcase struct {
		name               string
		up, down           []scaleEvent
		min, max           int32
		upRules, downRules *api.HPAScalingRules
		current, desired   int32
		want               int32
		wantCondition      string
	}
	ud := generateEventsUniformDistribution
	cases := []tcase{
		{name: "prenormalized desired replicas within range", current: 5, desired: 7, min: 3, max: 8, want: 7, wantCondition: "DesiredWithinRange"},
		{name: "prenormalized desired replicas < minReplicas", current: 3, desired: 1, min: 2, max: 8, want: 2, wantCondition: "TooFewReplicas"},
		{name: "prenormalized desired replicas within range when minReplicas is 0", current: 1, desired: 0, min: 0, max: 10, want: 0, wantCondition: "DesiredWithinRange"},
		{name: "maxReplicas is the limit because maxReplicas < scaleUpLimit", current: 20, desired: 1000, min: 1, max: 10, want: 10, wantCondition: "TooManyReplicas"},
		{name: "desired replica count is more than the maximum replica count", current: 100, desired: 1000, min: 100, max: 150, want: 150, wantCondition: "TooManyReplicas"},
		{name: "scaleUpLimit is the limit because scaleUpLimit < maxReplicas with user policies", current: 3, desired: 1000, min: 1, max: 2000, want: 4, wantCondition: "ScaleUpLimit", upRules: generateScalingRules(0, 0, 1, 60, 0)},
		{name: "scaleUp with default behavior", min: 1, max: 1000, current: 10, desired: 50, want: 20, wantCondition: "ScaleUpLimit"},
		{name: "scaleUp with pods policy larger than percent policy", min: 1, max: 1000, upRules: generateScalingRules(100, 60, 100, 60, 0), current: 10, desired: 500, want: 110, wantCondition: "ScaleUpLimit"},
		{name: "scaleUp with percent policy larger than pods policy", min: 1, max: 1000, upRules: generateScalingRules(2, 60, 100, 60, 0), current: 10, desired: 500, want: 20, wantCondition: "ScaleUpLimit"},
		{name: "scaleUp with spec MaxReplicas limitation with large pod policy", min: 1, max: 1000, upRules: generateScalingRules(100, 60, 0, 0, 0), current: 10, desired: 50, want: 50, wantCondition: "DesiredWithinRange"},
		{name: "scaleUp with spec MaxReplicas limitation with large percent policy", min: 1, max: 1000, upRules: generateScalingRules(10000, 60, 0, 0, 0), current: 10, desired: 50, want: 50, wantCondition: "DesiredWithinRange"},
		{name: "scaleUp with pod policy limitation", min: 1, max: 1000, upRules: generateScalingRules(30, 60, 0, 0, 0), current: 10, desired: 50, want: 40, wantCondition: "ScaleUpLimit"},
		{name: "scaleUp with percent policy limitation", min: 1, max: 1000, upRules: generateScalingRules(0, 0, 200, 60, 0), current: 10, desired: 50, want: 30, wantCondition: "ScaleUpLimit"},
		{name: "scaleDown with percent policy larger than pod policy", min: 1, max: 1000, downRules: generateScalingRules(20, 60, 1, 60, 300), current: 100, desired: 2, want: 80, wantCondition: "ScaleDownLimit"},
		{name: "scaleDown with pod policy larger than percent policy", min: 1, max: 1000, downRules: generateScalingRules(2, 60, 1, 60, 300), current: 100, desired: 2, want: 98, wantCondition: "ScaleDownLimit"},
		{name: "scaleDown with spec MinReplicas=nil limitation with large pod policy", min: 1, max: 1000, downRules: generateScalingRules(100, 60, 0, 0, 300), current: 10, desired: 0, want: 1, wantCondition: "TooFewReplicas"},
		{name: "scaleDown with spec MinReplicas limitation with large percent policy", min: 5, max: 1000, downRules: generateScalingRules(0, 0, 100, 60, 300), current: 10, desired: 2, want: 5, wantCondition: "TooFewReplicas"},
		{name: "scaleDown with pod policy limitation", min: 1, max: 1000, downRules: generateScalingRules(5, 60, 0, 0, 300), current: 10, desired: 2, want: 5, wantCondition: "ScaleDownLimit"},
		{name: "scaleDown with percent policy limitation", min: 1, max: 1000, downRules: generateScalingRules(0, 0, 50, 60, 300), current: 10, desired: 5, want: 5, wantCondition: "DesiredWithinRange"},
		{name: "scaleUp with spec MaxReplicas limitation with large pod policy and events", up: ud([]int{1, 5, 9}, 120), min: 1, max: 200, upRules: generateScalingRules(300, 60, 0, 0, 0), current: 100, desired: 500, want: 200, wantCondition: "TooManyReplicas"},
		{name: "scaleUp with spec MaxReplicas limitation with large percent policy and events", up: ud([]int{1, 5, 9}, 120), min: 1, max: 200, upRules: generateScalingRules(0, 0, 10000, 60, 0), current: 100, desired: 500, want: 200, wantCondition: "TooManyReplicas"},
		{name: "scaleUp with currentReplicas limitation with rate.PeriodSeconds with a lot of recent scale up events", up: ud([]int{1, 5, 9}, 120), min: 1, max: 1000, upRules: generateScalingRules(5, 120, 0, 0, 0), current: 100, desired: 500, want: 100, wantCondition: "ScaleUpLimit"},
		{name: "scaleUp with pod policy and previous scale up events", up: ud([]int{1, 5, 9}, 120), min: 1, max: 1000, upRules: generateScalingRules(150, 120, 0, 0, 0), current: 100, desired: 500, want: 235, wantCondition: "ScaleUpLimit"},
		{name: "scaleUp with percent policy and previous scale up events", up: ud([]int{1, 5, 9}, 120), min: 1, max: 1000, upRules: generateScalingRules(0, 0, 200, 120, 0), current: 100, desired: 500, want: 255, wantCondition: "ScaleUpLimit"},
		{name: "scaleUp with percent policy and previous scale up and down events", up: ud([]int{4}, 120), down: ud([]int{2}, 120), min: 1, max: 1000, upRules: generateScalingRules(0, 0, 300, 300, 0), current: 6, desired: 24, want: 16, wantCondition: "ScaleUpLimit"},
		{name: "scaleDown with default policy and previous events", down: ud([]int{1, 5, 9}, 120), min: 1, max: 1000, current: 10, desired: 5, want: 5, wantCondition: "DesiredWithinRange"},
		{name: "scaleDown with spec MinReplicas=nil limitation with large pod policy and previous events", down: ud([]int{1, 5, 9}, 120), min: 1, max: 1000, downRules: generateScalingRules(115, 120, 0, 0, 300), current: 100, desired: 0, want: 1, wantCondition: "TooFewReplicas"},
		{name: "scaleDown with spec MinReplicas limitation with large pod policy and previous events", down: ud([]int{1, 5, 9}, 120), min: 5, max: 1000, downRules: generateScalingRules(130, 120, 0, 0, 300), current: 100, desired: 0, want: 5, wantCondition: "TooFewReplicas"},
		{name: "scaleDown with spec MinReplicas limitation with large percent policy and previous events", down: ud([]int{1, 5, 9}, 120), min: 5, max: 1000, downRules: generateScalingRules(0, 0, 100, 120, 300), current: 100, desired: 2, want: 5, wantCondition: "TooFewReplicas"},
		{name: "scaleDown with pod policy limitation and previous events", down: ud([]int{1, 5, 9}, 120), min: 1, max: 1000, downRules: generateScalingRules(5, 120, 0, 0, 300), current: 100, desired: 2, want: 100, wantCondition: "ScaleDownLimit"},
		{name: "scaleDown with percent policy limitation and previous events", down: ud([]int{2, 4, 6}, 120), min: 1, max: 1000, downRules: generateScalingRules(0, 0, 50, 120, 300), current: 100, desired: 0, want: 56, wantCondition: "ScaleDownLimit"},
		{name: "scaleDown with percent policy and previous scale up and down events", up: ud([]int{2}, 120), down: ud([]int{4}, 120), min: 1, max: 1000, downRules: generateScalingRules(0, 0, 50, 180, 0), current: 10, desired: 1, want: 6, wantCondition: "ScaleDownLimit"},
		{name: "scaleDown with previous events preventing further scale down", down: ud([]int{10, 10, 10}, 120), min: 1, max: 1000, downRules: generateScalingRules(0, 0, 10, 120, 300), current: 100, desired: 0, want: 100, wantCondition: "ScaleDownLimit"},
		{name: "scaleDown with with previous events still allowing more scale down", down: ud([]int{10, 10, 10}, 120), min: 1, max: 1000, downRules: generateScalingRules(0, 0, 1000, 120, 300), current: 10, desired: 5, want: 5, wantCondition: "DesiredWithinRange"},
		{name: "check 'outdated' flag for events for one behavior for up", up: ud([]int{8, 12, 9, 11}, 120), min: 1, max: 1000, upRules: generateScalingRules(1000, 60, 0, 0, 0), current: 100, desired: 200, want: 200, wantCondition: "DesiredWithinRange"},
		{name: "check that events were not marked 'outdated' for two different policies in the behavior for up", up: ud([]int{8, 12, 9, 11}, 120), min: 1, max: 1000, upRules: generateScalingRules(1000, 120, 100, 60, 0), current: 100, desired: 200, want: 200, wantCondition: "DesiredWithinRange"},
		{name: "check that events were marked 'outdated' for two different policies in the behavior for up", up: ud([]int{8, 12, 9, 11}, 120), min: 1, max: 1000, upRules: generateScalingRules(1000, 30, 100, 60, 0), current: 100, desired: 200, want: 200, wantCondition: "DesiredWithinRange"},
		{name: "check 'outdated' flag for events for one behavior for down", down: ud([]int{8, 12, 9, 11}, 120), min: 1, max: 1000, downRules: generateScalingRules(1000, 60, 0, 0, 300), current: 100, desired: 5, want: 5, wantCondition: "DesiredWithinRange"},
		{name: "check that events were not marked 'outdated' for two different policies in the behavior for down", down: ud([]int{8, 12, 9, 11}, 120), min: 1, max: 1000, downRules: generateScalingRules(1000, 120, 100, 60, 300), current: 100, desired: 5, want: 5, wantCondition: "DesiredWithinRange"},
		{name: "check that events were marked 'outdated' for two different policies in the behavior for down", down: ud([]int{8, 12, 9, 11}, 120), min: 1, max: 1000, downRules: generateScalingRules(1000, 30, 100, 60, 300), current: 100, desired: 5, want: 5, wantCondition: "DesiredWithinRange"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := hpaHistory{ScaleUp: tc.up, ScaleDown: tc.down}
			got, cond := h.convertWithBehaviorRate(normalization{ScaleUp: upRules(tc.upRules), ScaleDown: downRules(tc.downRules),
				Min: tc.min, Max: tc.max, Current: tc.current, Desired: tc.desired}, hpaNow)
			if got != tc.want || cond.Reason != tc.wantCondition {
				t.Fatalf("got %d %s, want %d %s", got, cond.Reason, tc.want, tc.wantCondition)
			}
		})
	}
}

// TestStoreScaleEvents (storeScaleEvent, getReplicasChangePerPeriod).
func TestUpstreamStoreScaleEvents(t *testing.T) {
	ago := func(s int) api.Time { return hpaNow.Add(-time.Duration(s) * time.Second) }
	type ev struct {
		change   int32
		outdated bool
	}
	cases := []struct {
		name       string
		change     int32
		prev       []scaleEvent
		want       []ev
		rules      *api.HPAScalingRules
		wantChange int32
	}{
		{name: "empty entries with default behavior", change: 5, want: nil, wantChange: 0},
		{name: "empty entries with two-policy-behavior", change: 5, want: []ev{{5, false}}, rules: generateScalingRules(10, 60, 100, 60, 0)},
		{name: "one outdated entry to be kept untouched without behavior", change: 5, prev: []scaleEvent{{Change: 7, At: ago(61)}}, want: []ev{{7, false}}},
		{name: "one outdated entry to be replaced with behavior", change: 5, prev: []scaleEvent{{Change: 7, At: ago(61)}}, want: []ev{{5, false}}, rules: generateScalingRules(10, 60, 100, 60, 0)},
		{name: "one actual entry to be not touched with behavior", change: 5, prev: []scaleEvent{{Change: 7, At: ago(58)}}, want: []ev{{7, false}, {5, false}}, rules: generateScalingRules(10, 60, 100, 60, 0), wantChange: 7},
		{name: "two entries, one of them to be replaced", change: 5, prev: []scaleEvent{{Change: 7, At: ago(61)}, {Change: 6, At: ago(59)}}, want: []ev{{5, false}, {6, false}}, rules: generateScalingRules(10, 60, 0, 0, 0), wantChange: 6},
		{name: "replace one entry, use policies with different periods", change: 5,
			prev: []scaleEvent{{Change: 8, At: ago(29)}, {Change: 6, At: ago(59)}, {Change: 7, At: ago(61)}, {Change: 9, At: ago(61)}},
			want: []ev{{8, false}, {6, false}, {7, true}, {5, false}}, rules: generateScalingRules(10, 60, 100, 30, 0), wantChange: 14},
		{name: "two entries, both actual", change: 5, prev: []scaleEvent{{Change: 7, At: ago(58)}, {Change: 6, At: ago(59)}}, want: []ev{{7, false}, {6, false}, {5, false}}, rules: generateScalingRules(10, 120, 100, 30, 0), wantChange: 13},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, dir := range []string{"up", "down"} {
				h := hpaHistory{}
				var b *api.HorizontalPodAutoscalerBehavior
				events := &h.ScaleUp
				next := 10 + tc.change
				if dir == "down" {
					events, next = &h.ScaleDown, 10-tc.change
				}
				*events = append([]scaleEvent(nil), tc.prev...)
				if tc.rules != nil {
					b = &api.HorizontalPodAutoscalerBehavior{ScaleUp: tc.rules, ScaleDown: tc.rules}
				}
				if got := changeInPeriod(60, *events, hpaNow); got != tc.wantChange {
					t.Fatalf("%s: change in period %d, want %d", dir, got, tc.wantChange)
				}
				h.storeScaleEvent(b, 10, next, hpaNow)
				var got []ev
				for _, e := range *events {
					got = append(got, ev{e.Change, e.Outdated})
				}
				if fmt.Sprint(got) != fmt.Sprint(tc.want) {
					t.Fatalf("%s: events %v, want %v", dir, got, tc.want)
				}
			}
		})
	}
}

// TestNormalizeDesiredReplicasWithBehavior (stabilizeRecommendationWithBehaviors).
func TestUpstreamStabilizeWithBehavior(t *testing.T) {
	ago := func(m int) api.Time { return hpaNow.Add(-time.Duration(m) * time.Minute) }
	type rec = timedRecommendation
	cases := []struct {
		name              string
		recs              []rec
		current, desired  int32
		want              int32
		wantRecs          []int32
		upWindow, downWin int32
	}{
		{name: "empty recommendations for scaling down", current: 100, desired: 5, want: 5, wantRecs: []int32{5}},
		{name: "simple scale down stabilization", recs: []rec{{4, ago(2)}, {5, ago(1)}}, current: 100, desired: 3, want: 5, wantRecs: []int32{4, 5, 3}, downWin: 180},
		{name: "simple scale up stabilization", recs: []rec{{4, ago(2)}, {5, ago(1)}}, current: 1, desired: 7, want: 4, wantRecs: []int32{4, 5, 7}, upWindow: 300},
		{name: "no scale down stabilization", recs: []rec{{1, ago(2)}, {2, ago(1)}}, current: 100, desired: 3, want: 3, wantRecs: []int32{1, 2, 3}, upWindow: 300},
		{name: "no scale up stabilization", recs: []rec{{4, ago(2)}, {5, ago(1)}}, current: 1, desired: 3, want: 3, wantRecs: []int32{4, 5, 3}, downWin: 300},
		{name: "no scale down stabilization, reuse recommendation element", recs: []rec{{10, ago(10)}, {9, ago(9)}}, current: 100, desired: 3, want: 3, wantRecs: []int32{10, 3}},
		{name: "no scale up stabilization, reuse recommendation element", recs: []rec{{10, ago(10)}, {9, ago(9)}}, current: 1, desired: 100, want: 100, wantRecs: []int32{10, 100}},
		{name: "scale down stabilization, reuse one of obsolete recommendation element", recs: []rec{{10, ago(10)}, {4, ago(1)}, {5, ago(2)}, {9, ago(9)}}, current: 100, desired: 3, want: 5, wantRecs: []int32{10, 4, 5, 3}, downWin: 180},
		{name: "scale up stabilization, reuse one of obsolete recommendation element", recs: []rec{{10, ago(100)}, {6, ago(1)}, {5, ago(2)}, {9, ago(3)}}, current: 1, desired: 100, want: 5, wantRecs: []int32{100, 6, 5, 9}, upWindow: 300},
		{name: "scale up and down stabilization, do not scale up when prenormalized rec goes down", recs: []rec{{2, ago(100)}, {3, ago(3)}}, current: 2, desired: 1, want: 2, upWindow: 300, downWin: 300},
		{name: "scale up and down stabilization, do not scale down when prenormalized rec goes up", recs: []rec{{2, ago(100)}, {1, ago(3)}}, current: 2, desired: 3, want: 2, upWindow: 300, downWin: 300},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := hpaHistory{Recommendations: append([]rec(nil), tc.recs...)}
			up, down := tc.upWindow, tc.downWin
			got, _ := h.stabilizeWithBehavior(normalization{ScaleUp: &api.HPAScalingRules{StabilizationWindowSeconds: &up},
				ScaleDown: &api.HPAScalingRules{StabilizationWindowSeconds: &down}, Current: tc.current, Desired: tc.desired}, hpaNow)
			if got != tc.want {
				t.Fatalf("stabilized %d, want %d", got, tc.want)
			}
			if tc.wantRecs != nil {
				var stored []int32
				for _, r := range h.Recommendations {
					stored = append(stored, r.Replicas)
				}
				if fmt.Sprint(stored) != fmt.Sprint(tc.wantRecs) {
					t.Fatalf("recommendations %v, want %v", stored, tc.wantRecs)
				}
			}
		})
	}
}

// TestNormalizeDesiredReplicas (stabilizeRecommendation, 5-minute window)
// and TestConvertDesiredReplicasWithRules.
func TestUpstreamNormalizeWithoutBehavior(t *testing.T) {
	ago := func(m int) api.Time { return hpaNow.Add(-time.Duration(m) * time.Minute) }
	type rec = timedRecommendation
	cases := []struct {
		name          string
		recs          []rec
		desired, want int32
		wantLog       int
	}{
		{"empty log", nil, 5, 5, 1},
		{"stabilize", []rec{{4, ago(2)}, {5, ago(1)}}, 3, 5, 3},
		{"no stabilize", []rec{{1, ago(2)}, {2, ago(1)}}, 3, 3, 3},
		{"no stabilize - old recommendations", []rec{{10, ago(10)}, {9, ago(9)}}, 3, 3, 2},
		{"stabilize - old recommendations", []rec{{10, ago(10)}, {4, ago(1)}, {5, ago(2)}, {9, ago(9)}}, 3, 5, 4},
	}
	for _, tc := range cases {
		h := hpaHistory{Recommendations: append([]rec(nil), tc.recs...)}
		if got := h.stabilize(tc.desired, HPADownscaleStabilization, hpaNow); got != tc.want || len(h.Recommendations) != tc.wantLog {
			t.Errorf("%s: got %d with %d entries, want %d with %d", tc.name, got, len(h.Recommendations), tc.want, tc.wantLog)
		}
	}
	conv := []struct {
		current, desired, min, max, want int32
		cond, name                       string
	}{
		{5, 7, 3, 8, 7, "DesiredWithinRange", "prenormalized desired replicas within range"},
		{3, 1, 2, 8, 2, "TooFewReplicas", "prenormalized desired replicas < minReplicas"},
		{1, 0, 0, 10, 0, "DesiredWithinRange", "prenormalized desired zeroed replicas within range"},
		{20, 1000, 1, 10, 10, "TooManyReplicas", "maxReplicas is the limit because maxReplicas < scaleUpLimit"},
		{3, 1000, 1, 2000, 6, "ScaleUpLimit", "scaleUpLimit is the limit because scaleUpLimit < maxReplicas"},
	}
	for _, c := range conv {
		if got, l := convertDesiredReplicasWithRules(c.current, c.desired, c.min, c.max); got != c.want || l.Reason != c.cond {
			t.Errorf("%s: got %d %s, want %d %s", c.name, got, l.Reason, c.want, c.cond)
		}
	}
}
