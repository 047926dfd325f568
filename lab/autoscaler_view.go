package lab

import (
	"fmt"
	"strings"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab/textsafe"
)

// AutoscalerView is what the autoscaler panel and `autoscaler status`
// show: each node group's size and decision, the last scale-up
// evaluation (options, expander, plan, the pods it could not help and
// why) and each autoscaled node's scale-down verdict. The UI draws it;
// it computes nothing itself.
type AutoscalerView struct {
	Enabled  bool
	Ran      bool
	LoopAt   api.Time
	NextLoop api.Time
	// Expander is the expander chain, e.g. "least-waste → random".
	Expander string
	Groups   []AutoscalerGroupRow
	// ScaleUp is the last scale-up evaluation, line by line.
	ScaleUp []string
	// NoScaleUp lists the pods CA could not help, with the reason per group.
	NoScaleUp []AutoscalerPodRow
	// ScaleDown is each autoscaled node's verdict; ScaleDownNote why
	// scale-down did not act (cooldown, a scale-up this loop).
	ScaleDown     []AutoscalerNodeRow
	ScaleDownNote string
}

// AutoscalerGroupRow is one node group.
type AutoscalerGroupRow struct {
	Name string
	Zone string
	// Size is "2 (min 1, max 5)"; Coming the nodes being provisioned with
	// when they register.
	Size   string
	Coming []string
	// Decision is what the last loop did with the group.
	Decision string
}

// AutoscalerPodRow is a pod CA could not help.
type AutoscalerPodRow struct {
	Pod      string
	Message  string
	PerGroup []string // "group: reason"
}

// AutoscalerNodeRow is one autoscaled node's scale-down verdict.
type AutoscalerNodeRow struct {
	Node        string
	Group       string
	Utilization string // "cpu 12%"
	State       string // "unneeded for 3m20s of 10m0s", "removing", "needed"
	Reason      string
	Moves       []string // "ns/pod → node"
}

// AutoscalerView returns the view of the session's autoscaler (Enabled
// false when the scenario has none). Names and reasons come from the
// scenario: a UI sanitises them as it draws (lab/textsafe), as
// AutoscalerStatusText does.
func (s *Session) AutoscalerView() AutoscalerView {
	if s.autoscaler == nil {
		return AutoscalerView{}
	}
	st := s.autoscaler.Status()
	opts := s.autoscaler.Options()
	v := AutoscalerView{Enabled: true, Ran: st.Ran, LoopAt: st.LoopAt, NextLoop: st.NextLoop, Expander: strings.Join(opts.Expander, " → ")}
	now := s.eng.Now()
	for _, g := range st.Groups {
		row := AutoscalerGroupRow{Name: g.Name, Zone: g.Zone, Size: fmt.Sprintf("%d (min %d, max %d)", g.Registered, g.Min, g.Max)}
		for _, u := range g.Upcoming {
			row.Coming = append(row.Coming, fmt.Sprintf("%s registers at %s", u.Name, u.ReadyAt.Clock()))
		}
		switch {
		case g.ScaleUp != nil:
			row.Decision = "scale-up " + g.ScaleUp.String()
		case g.Option != nil:
			row.Decision = fmt.Sprintf("option: %d node(s) for %d pod(s), not chosen", g.Option.NodeCount, len(g.Option.Pods))
		case g.Skipped != "":
			row.Decision = "skipped: " + g.Skipped
		case g.Target >= g.Max:
			row.Decision = "at max size"
		}
		if g.Deleting > 0 {
			row.Decision = strings.TrimSpace(row.Decision + fmt.Sprintf(" (%d node(s) being removed)", g.Deleting))
		}
		v.Groups = append(v.Groups, row)
	}
	su := st.ScaleUp
	if st.Ran {
		line := fmt.Sprintf("%d unschedulable pod(s)", su.Unschedulable)
		if su.Result != "" {
			line += ": " + su.Result
		}
		v.ScaleUp = append(v.ScaleUp, line)
	}
	for _, p := range su.Ignored {
		v.ScaleUp = append(v.ScaleUp, fmt.Sprintf("ignored %s: %s", p.Pod, p.Note))
	}
	for _, f := range su.FitExisting {
		v.ScaleUp = append(v.ScaleUp, "fits an existing or upcoming node: "+f)
	}
	for _, o := range su.Options {
		line := fmt.Sprintf("option %s: %d node(s) for %d pod(s)", o.Group, o.NodeCount, len(o.Pods))
		if len(o.Similar) > 0 {
			line += ", similar: " + strings.Join(o.Similar, ", ")
		}
		v.ScaleUp = append(v.ScaleUp, line)
	}
	for _, step := range su.Expander {
		v.ScaleUp = append(v.ScaleUp, "expander: "+step)
	}
	if len(su.Infos) > 0 {
		v.ScaleUp = append(v.ScaleUp, fmt.Sprintf("plan: %v (nodes register after %s)", su.Infos, opts.NodeProvisioningTime))
	}
	if len(su.Awaiting) > 0 {
		v.ScaleUp = append(v.ScaleUp, "left for the next loop (another group could take them): "+strings.Join(su.Awaiting, ", "))
	}
	for _, p := range su.NoScaleUp {
		row := AutoscalerPodRow{Pod: p.Pod, Message: p.Message}
		for _, g := range p.PerGroup {
			row.PerGroup = append(row.PerGroup, g.Group+": "+g.Reason)
		}
		v.NoScaleUp = append(v.NoScaleUp, row)
	}
	v.ScaleDownNote = st.ScaleDown.Skipped
	for _, n := range st.ScaleDown.Nodes {
		row := AutoscalerNodeRow{Node: n.Node, Group: n.Group, Utilization: fmt.Sprintf("%s %.0f%%", n.Resource, n.Utilization*100), Reason: n.Reason}
		switch {
		case n.Removing:
			row.State = "removing"
		case n.Unneeded:
			row.State = fmt.Sprintf("unneeded for %s of %s", roundDuration(now.Sub(n.UnneededSince)), n.UnneededFor)
		default:
			row.State = "needed"
		}
		for _, d := range n.Destinations {
			row.Moves = append(row.Moves, d.Pod+" → "+d.Note)
		}
		v.ScaleDown = append(v.ScaleDown, row)
	}
	return v
}

func roundDuration(d time.Duration) time.Duration { return d.Round(time.Second) }

// AutoscalerStatusText renders the view for `autoscaler status` and
// `podlab run`.
func (s *Session) AutoscalerStatusText() string {
	v := s.AutoscalerView()
	if !v.Enabled {
		return "no cluster autoscaler: add an autoscaler: section with nodeGroups to the scenario header"
	}
	var b strings.Builder
	if !v.Ran {
		fmt.Fprintf(&b, "cluster autoscaler: no loop yet (expander %s)\n", v.Expander)
	} else {
		fmt.Fprintf(&b, "cluster autoscaler: last loop at %s, next at %s (expander %s)\n", v.LoopAt.Clock(), v.NextLoop.Clock(), v.Expander)
	}
	b.WriteString("node groups:\n")
	for _, g := range v.Groups {
		zone := g.Zone
		if zone == "" {
			zone = "-"
		}
		fmt.Fprintf(&b, "  %-16s zone %-10s size %s", g.Name, zone, g.Size)
		if g.Decision != "" {
			fmt.Fprintf(&b, "  %s", g.Decision)
		}
		b.WriteString("\n")
		for _, c := range g.Coming {
			fmt.Fprintf(&b, "    %s\n", c)
		}
	}
	if len(v.ScaleUp) > 0 {
		b.WriteString("scale-up:\n")
		for _, l := range v.ScaleUp {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	for _, p := range v.NoScaleUp {
		fmt.Fprintf(&b, "  pod/%s: %s\n", p.Pod, p.Message)
		for _, g := range p.PerGroup {
			fmt.Fprintf(&b, "    %s\n", g)
		}
	}
	if len(v.ScaleDown) > 0 || v.ScaleDownNote != "" {
		b.WriteString("scale-down:\n")
		if v.ScaleDownNote != "" {
			fmt.Fprintf(&b, "  %s\n", v.ScaleDownNote)
		}
		for _, n := range v.ScaleDown {
			fmt.Fprintf(&b, "  %-16s %-12s %-9s %s", n.Node, n.Group, n.Utilization, n.State)
			if n.Reason != "" {
				fmt.Fprintf(&b, " — %s", n.Reason)
			}
			b.WriteString("\n")
			for _, m := range n.Moves {
				fmt.Fprintf(&b, "    %s\n", m)
			}
		}
	}
	return textsafe.Text(strings.TrimRight(b.String(), "\n"))
}
