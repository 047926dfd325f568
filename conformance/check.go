// Package conformance compares podlab's scheduler with the real
// kube-scheduler v1.36 framework on the same scenario file: per pending pod
// an explain (every node's verdict, reasons, normalised scores, total) and
// then the whole schedule (placements, preemption victims, messages).
package conformance

import (
	"fmt"
	"strings"

	"podlab.dev/podlab/conformance/podside"
	"podlab.dev/podlab/conformance/real"
	"podlab.dev/podlab/conformance/result"
	"podlab.dev/podlab/conformance/scenario"
	"podlab.dev/podlab/lab"
)

// Outcome is the comparison of one scenario.
type Outcome struct {
	Name string
	// Explain holds the differences per pending pod ("ns/name: …").
	Explain []string
	// Schedule holds the differences of the placement sequence.
	Schedule []string
	// Real and Podlab are both sides' schedules (for reports).
	Real, Podlab *result.Schedule
	// Coverage counts what the real scheduler exercised (feature →
	// occurrences): "score <plugin> > 0", "reason <reason>", "preemption",
	// "unschedulable", "placed"; it shows the generator reaches each rule.
	Coverage map[string]int
	// Err is a harness failure (the file does not load on a side, the
	// real framework failed); it counts as a disagreement.
	Err error
}

// Agree reports full agreement.
func (o *Outcome) Agree() bool { return o.Err == nil && len(o.Explain) == 0 && len(o.Schedule) == 0 }

// Report formats the differences for a test failure.
func (o *Outcome) Report() string {
	var b strings.Builder
	if o.Err != nil {
		fmt.Fprintf(&b, "error: %v\n", o.Err)
	}
	for _, d := range o.Explain {
		fmt.Fprintf(&b, "explain %s\n", d)
	}
	for _, d := range o.Schedule {
		fmt.Fprintf(&b, "schedule %s\n", d)
	}
	return b.String()
}

// Options select what is compared.
type Options struct {
	// SkipExplain compares the schedule only.
	SkipExplain bool
	// DisablePreemption turns preemption off on both sides.
	DisablePreemption bool
}

// Check loads the scenario on both sides and compares them.
func Check(name string, data []byte, opts Options) *Outcome {
	o := &Outcome{Name: name, Coverage: map[string]int{}}
	rs, err := scenario.Decode(data)
	if err != nil {
		o.Err = fmt.Errorf("real side: %w", err)
		return o
	}
	ps, err := podside.Load(name, data)
	if err != nil {
		o.Err = fmt.Errorf("podlab side: %w", err)
		return o
	}
	rr, err := real.New(rs, real.Options{DisablePreemption: opts.DisablePreemption})
	if err != nil {
		o.Err = fmt.Errorf("real side: %w", err)
		return o
	}
	defer rr.Close()
	pr := podside.New(ps, podside.Options{DisablePreemption: opts.DisablePreemption, SpreadSelectors: ps.OwnerSelectors(),
		Profiles: lab.SchedulerProfiles(ps.SchedulerConfig)})
	if len(rs.Pending) != len(ps.Pending) {
		o.Err = fmt.Errorf("pending pods: real side has %d, podlab %d", len(rs.Pending), len(ps.Pending))
		return o
	}
	if !opts.SkipExplain {
		for i, rp := range rs.Pending {
			want, err := rr.Explain(rp)
			if err != nil {
				o.Err = fmt.Errorf("real explain %s/%s: %w", rp.Namespace, rp.Name, err)
				return o
			}
			o.cover(want)
			got := pr.Explain(ps.Pending[i])
			for _, d := range result.DiffExplain(want, got) {
				o.Explain = append(o.Explain, want.Pod+": "+d)
			}
		}
	}
	o.Real, err = rr.Schedule(rs.Pending)
	if err != nil {
		o.Err = fmt.Errorf("real schedule: %w", err)
		return o
	}
	for _, p := range o.Real.Placements {
		switch {
		case p.NominatedNode != "":
			o.Coverage["preemption"]++
		case p.Node == "":
			o.Coverage["unschedulable"]++
		default:
			o.Coverage["placed"]++
		}
	}
	o.Podlab = pr.Schedule(ps.Pending)
	o.Schedule = result.DiffSchedule(o.Real, o.Podlab)
	return o
}

func (o *Outcome) cover(ex *result.Explain) {
	for _, n := range ex.Nodes {
		for _, r := range n.Reasons {
			o.Coverage["reason "+r]++
		}
		for p, v := range n.Scores {
			if v > 0 {
				o.Coverage["score "+p+" > 0"]++
			}
		}
	}
}
