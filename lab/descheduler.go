package lab

import (
	"fmt"
	"io"
	"podlab.dev/podlab/lab/textsafe"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/descheduler"
	"podlab.dev/podlab/lab/command"
	"podlab.dev/podlab/lab/manifest"
)

// DeschedulerSpec is the lab header's descheduler section: how often the
// descheduler runs on the virtual clock (upstream's
// --descheduling-interval flag). 0 ⇒ only on the deschedule command.
type DeschedulerSpec struct {
	DeschedulingInterval time.Duration
	Pos                  manifest.Position
}

func (p *scenarioParser) descheduler(n *yaml.Node, d *DeschedulerSpec) {
	d.Pos = p.pos(n)
	p.fields(n, "descheduler", []string{"deschedulingInterval"}, func(k string, v *yaml.Node) {
		d.DeschedulingInterval = p.duration(v, "descheduler.deschedulingInterval")
		if d.DeschedulingInterval > 0 && d.DeschedulingInterval < time.Second {
			p.errorf(v, "descheduler.deschedulingInterval must be at least 1s", "e.g. 5m")
		}
	})
}

// loadDeschedulerPolicy takes the DeschedulerPolicy document out of the
// manifest text (so the manifest loader does not see an unknown kind)
// and decodes it.
func loadDeschedulerPolicy(name string, manText *[]byte) (*DeschedulerPolicyDoc, error) {
	text, rest, found := splitDeschedulerPolicy(*manText)
	if !found {
		return nil, nil
	}
	*manText = rest
	return ParseDeschedulerPolicy(name, text)
}

// defaultDeschedulerPolicy is what `deschedule` uses when the scenario
// has no DeschedulerPolicy: one profile balancing hard topology spread
// constraints with the DefaultEvictor's defaults (upstream has no
// default policy; the lab needs one so the command always works).
func defaultDeschedulerPolicy() *descheduler.Policy {
	return &descheduler.Policy{Profiles: []descheduler.Profile{{
		Name:    "lab-default",
		Balance: []string{descheduler.TopologySpreadName},
	}}}
}

// deschedulerPolicy is the scenario's policy, or the lab default.
func (s *Session) deschedulerPolicy() (*descheduler.Policy, bool) {
	if d := s.file.Descheduler; d != nil && d.Policy != nil {
		return d.Policy, true
	}
	return defaultDeschedulerPolicy(), false
}

// startDescheduler registers the periodic descheduler when the header
// sets deschedulingInterval (called once the scenario is loaded).
func (s *Session) startDescheduler() {
	s.descheduled = nil
	sc := s.file.Scenario
	if sc == nil || sc.Descheduler.DeschedulingInterval <= 0 {
		return
	}
	pol, _ := s.deschedulerPolicy()
	s.eng.AddController(&descheduler.Controller{Policy: pol, Interval: sc.Descheduler.DeschedulingInterval,
		OnPass: func(r *descheduler.Result) { s.descheduled = append(s.descheduled, r) }})
}

// DeschedulePreview is the view-model of the descheduler panel: what a
// pass would evict now and why, without changing anything.
func (s *Session) DeschedulePreview() *descheduler.Result {
	pol, _ := s.deschedulerPolicy()
	return descheduler.Deschedule(s.eng, pol, true)
}

// deschedule runs the deschedule command: a pass now (or a dry run).
func (s *Session) deschedule(c command.Deschedule) (string, error) {
	pol, own := s.deschedulerPolicy()
	res := descheduler.Deschedule(s.eng, pol, c.DryRun)
	s.descheduled = append(s.descheduled, res)
	s.eng.Settle()
	var b strings.Builder
	if !own {
		b.WriteString("no DeschedulerPolicy in the scenario: using the lab default (RemovePodsViolatingTopologySpreadConstraint, DefaultEvictor defaults)\n")
	}
	b.WriteString(FormatDeschedule(res))
	return strings.TrimRight(b.String(), "\n"), nil
}

// FormatDeschedule renders a pass as the command prints it: one block
// per eviction with its plugin, outcome and reason.
func FormatDeschedule(r *descheduler.Result) string {
	var b strings.Builder
	verb := "evicted"
	if r.DryRun {
		verb = "would evict"
	}
	switch {
	case r.Skipped != "":
		fmt.Fprintf(&b, "descheduling pass skipped: %s\n", r.Skipped)
	case len(r.Evictions) == 0:
		b.WriteString("descheduler: nothing to evict\n")
	default:
		fmt.Fprintf(&b, "descheduler %s %d pod(s):\n", verb, r.Evicted())
	}
	for _, e := range r.Evictions {
		fmt.Fprintf(&b, "  pod/%s on %s — %s (%s, profile %s)\n    why: %s\n", textsafe.Line(e.Pod), textsafe.Line(e.Node), e.Outcome, e.Plugin, textsafe.Line(e.Profile), textsafe.Line(e.Reason))
	}
	for _, err := range r.Errors {
		fmt.Fprintf(&b, "  error: %s\n", textsafe.Line(err))
	}
	return b.String()
}

// writeDescheduleText adds the descheduler passes to `podlab run`'s text
// report (passes that evicted nothing are left out unless they were
// asked for with the command).
func writeDescheduleText(w io.Writer, s *Session) {
	for _, r := range s.descheduled {
		fmt.Fprintf(w, "\nDescheduler pass at %s:\n", r.At)
		io.WriteString(w, FormatDeschedule(r))
	}
}
