package lab

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab/textsafe"
)

// CompareOptions are the flags of `podlab compare`.
type CompareOptions struct {
	// A and B are each lane's changes (command lines), applied at t=0
	// right after the fork.
	A, B []string
	// Do are commands for both lanes, applied after the changes
	// (`advance D` moves time between them).
	Do       []string
	For      time.Duration // 0 ⇒ DefaultRunFor
	Seed     *int64
	TieBreak string
	Output   string // "text" or "json"
}

// CompareRun loads a scenario, forks it at t=0, gives each lane its
// changes, applies the common commands to both, runs both to --for and
// writes the comparison.
func CompareRun(w io.Writer, f *File, opts CompareOptions) (*Comparison, error) {
	if err := checkRunTime("--for", opts.For); err != nil {
		return nil, err
	}
	s, err := NewSession(f, SessionOptions{Seed: opts.Seed, TieBreak: opts.TieBreak})
	if err != nil {
		return nil, err
	}
	fk, err := s.Fork()
	if err != nil {
		return nil, err
	}
	for _, lane := range []struct {
		name  string
		lines []string
	}{{LaneA, opts.A}, {LaneB, opts.B}} {
		for i, line := range lane.lines {
			if strings.TrimSpace(line) == "" {
				continue
			}
			if _, err := fk.Apply("@" + lane.name + " " + line); err != nil {
				return nil, fmt.Errorf("--%s #%d %q: %w", lane.name, i+1, line, err)
			}
		}
	}
	for i, line := range opts.Do {
		if _, err := fk.Apply(line); err != nil {
			return nil, fmt.Errorf("--do #%d %q: %w", i+1, line, err)
		}
	}
	end := opts.For
	if end == 0 {
		end = DefaultRunFor
	}
	if api.Time(end) > fk.Now() {
		if err := fk.Advance(api.Time(end).Sub(fk.Now())); err != nil {
			return nil, err
		}
	}
	c := fk.Compare()
	switch opts.Output {
	case "json":
		err = c.WriteJSON(w)
	case "", "text":
		err = c.WriteText(w, f.Name)
	default:
		return nil, fmt.Errorf("-o must be json or text, not %q", opts.Output)
	}
	if err != nil {
		return c, err
	}
	return c, forkTimelineFailure(fk) // timeline_failures.go
}

// WriteText prints the comparison as tables, differences marked with *.
// Everything that came from input is sanitised.
func (c *Comparison) WriteText(w io.Writer, title string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "podlab compare — %s at %s\n", textsafe.Line(title), c.At)
	for _, l := range c.Lanes {
		ch := "(no changes)"
		if len(l.Changes) > 0 {
			var short []string
			for _, c := range l.Changes {
				short = append(short, SummarizeCommand(c))
			}
			ch = strings.Join(textsafe.Lines(short), "; ")
		}
		fmt.Fprintf(&b, "lane %s: %s\n", l.Lane, ch)
	}
	b.WriteString("\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	a, z := c.Lanes[0], c.Lanes[1]
	row := func(name string, va, vb any) {
		mark := " "
		if fmt.Sprint(va) != fmt.Sprint(vb) {
			mark = "*"
		}
		fmt.Fprintf(tw, "%s %s\t%v\t%v\n", mark, name, va, vb)
	}
	fmt.Fprintf(tw, "  \tlane a\tlane b\n")
	row("running", a.Running, z.Running)
	row("pending", len(a.Pending), len(z.Pending))
	row("preemptions", a.Preemptions, z.Preemptions)
	row("evictions", a.Evictions, z.Evictions)
	row("pods killed", a.Killed, z.Killed)
	row("cpu requested %", a.CPU, z.CPU)
	row("memory requested %", a.Memory, z.Memory)
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(c.Spread) > 0 {
		b.WriteString("\nspread per workload and constraint (lane a | lane b; * differs)\n")
		for _, d := range c.Spread {
			mark := " "
			if d.Differs() {
				mark = "*"
			}
			fmt.Fprintf(&b, "%s %s  %s  %s | %s\n", mark, textsafe.Line(d.Workload), textsafe.Line(d.TopologyKey), d.Constraint(0), d.Constraint(1))
			tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
			for _, dom := range d.Domains {
				fmt.Fprintf(tw, "    %s\t%s\t|\t%s\n", textsafe.Line(dom), d.Count(0, dom), d.Count(1, dom))
			}
			fmt.Fprintf(tw, "    skew\t%s\t|\t%s\n", d.SkewText(0), d.SkewText(1))
			if err := tw.Flush(); err != nil {
				return err
			}
		}
	}
	for _, l := range c.Lanes {
		if len(l.Pending) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\npending in lane %s (%d)\n", l.Lane, len(l.Pending))
		for _, p := range l.Pending {
			msg := p.Message
			if msg == "" {
				msg = "(not tried yet)"
			}
			fmt.Fprintf(&b, "  %s  %s\n", textsafe.Line(p.Pod), textsafe.Line(msg))
		}
	}
	if len(c.Placement) > 0 {
		fmt.Fprintf(&b, "\nplaced differently (%d pods; lane a | lane b)\n", len(c.Placement))
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		for _, p := range c.Placement {
			fmt.Fprintf(tw, "  %s\t%s\t|\t%s\n", textsafe.Line(p.Pod), PlaceText(p.Node[0], p.Zone[0]), PlaceText(p.Node[1], p.Zone[1]))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if c.OnlyIn != [2]int{} {
		fmt.Fprintf(&b, "\npods in one lane only: a %d, b %d\n", c.OnlyIn[0], c.OnlyIn[1])
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// PlaceText is where a pod is, for a table: "node-1 (zone-a)", or
// "(pending)" (sanitised).
func PlaceText(node, zone string) string {
	if node == "" {
		return "(pending)"
	}
	if zone == "" {
		return textsafe.Line(node)
	}
	return textsafe.Line(node) + " (" + textsafe.Line(zone) + ")"
}

// Constraint is lane i's constraint as "maxSkew 1 DoNotSchedule".
func (d SpreadDiff) Constraint(i int) string {
	if !d.Present[i] {
		return "(no constraint)"
	}
	return fmt.Sprintf("maxSkew %d %s", d.MaxSkew[i], d.When[i])
}

// Count is lane i's pods in a domain ("-" where the lane has none).
func (d SpreadDiff) Count(i int, dom string) string {
	if !d.Present[i] {
		return "-"
	}
	n, ok := d.Counts[i][dom]
	if !ok {
		return "-"
	}
	return fmt.Sprint(n)
}

// SkewText is lane i's skew ("-" without the constraint).
func (d SpreadDiff) SkewText(i int) string {
	if !d.Present[i] {
		return "-"
	}
	return fmt.Sprint(d.Skew[i])
}

// String is "min 20.0 max 80.0 mean 50.0 sd 12.5 (2 empty)".
func (u Utilisation) String() string {
	s := fmt.Sprintf("min %.1f max %.1f mean %.1f sd %.1f", u.Min, u.Max, u.Mean, u.StdDev)
	if u.Empty > 0 {
		s += fmt.Sprintf(" (%d empty)", u.Empty)
	}
	return s
}

// WriteJSON prints the comparison as one JSON document.
func (c *Comparison) WriteJSON(w io.Writer) error {
	type pending struct {
		Pod           string `json:"pod"`
		Message       string `json:"message"`
		NominatedNode string `json:"nominatedNode,omitempty"`
	}
	type lane struct {
		Lane        string      `json:"lane"`
		Changes     []string    `json:"changes"`
		Running     int         `json:"running"`
		Pending     []pending   `json:"pending"`
		Preemptions int         `json:"preemptions"`
		Evictions   int         `json:"evictions"`
		Killed      int         `json:"killed"`
		CPU         Utilisation `json:"cpuRequestedPercent"`
		Memory      Utilisation `json:"memoryRequestedPercent"`
	}
	type side struct {
		MaxSkew           int32          `json:"maxSkew"`
		WhenUnsatisfiable string         `json:"whenUnsatisfiable"`
		Counts            map[string]int `json:"counts"`
		Skew              int            `json:"skew"`
	}
	type spread struct {
		Workload    string `json:"workload"`
		TopologyKey string `json:"topologyKey"`
		Differs     bool   `json:"differs"`
		A           *side  `json:"a"`
		B           *side  `json:"b"`
	}
	type placed struct {
		Pod   string `json:"pod"`
		NodeA string `json:"nodeA"`
		ZoneA string `json:"zoneA"`
		NodeB string `json:"nodeB"`
		ZoneB string `json:"zoneB"`
	}
	out := struct {
		At        string   `json:"t"`
		Lanes     []lane   `json:"lanes"`
		Spread    []spread `json:"spread"`
		Placement []placed `json:"placedDifferently"`
		OnlyInA   int      `json:"podsOnlyInA"`
		OnlyInB   int      `json:"podsOnlyInB"`
	}{At: c.At.String(), OnlyInA: c.OnlyIn[0], OnlyInB: c.OnlyIn[1], Spread: []spread{}, Placement: []placed{}}
	for _, l := range c.Lanes {
		jl := lane{Lane: l.Lane, Changes: append([]string{}, l.Changes...), Running: l.Running, Pending: []pending{}, Preemptions: l.Preemptions, Evictions: l.Evictions, Killed: l.Killed, CPU: l.CPU, Memory: l.Memory}
		for _, p := range l.Pending {
			jl.Pending = append(jl.Pending, pending{p.Pod, p.Message, p.NominatedNode})
		}
		out.Lanes = append(out.Lanes, jl)
	}
	for _, d := range c.Spread {
		js := spread{Workload: d.Workload, TopologyKey: d.TopologyKey, Differs: d.Differs()}
		for i, p := range []**side{&js.A, &js.B} {
			if d.Present[i] {
				*p = &side{d.MaxSkew[i], d.When[i], d.Counts[i], d.Skew[i]}
			}
		}
		out.Spread = append(out.Spread, js)
	}
	for _, p := range c.Placement {
		out.Placement = append(out.Placement, placed{p.Pod, p.Node[0], p.Zone[0], p.Node[1], p.Zone[1]})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// SummarizeCommand shortens a recorded command for a one-line list: an
// `apply` of an inline manifest (how `apply -f` is recorded) becomes
// "apply KIND/NAME…" of what it holds.
func SummarizeCommand(line string) string {
	rest, ok := strings.CutPrefix(line, "apply --inline=")
	if !ok {
		return line
	}
	var objs []string
	kind := ""
	for _, l := range strings.Split(strings.Trim(rest, `'"`), "\n") {
		switch {
		case strings.HasPrefix(l, "kind:"):
			kind = strings.TrimSpace(strings.TrimPrefix(l, "kind:"))
			objs = append(objs, kind)
		case strings.HasPrefix(strings.TrimSpace(l), "name:") && kind != "" && len(objs) > 0 && !strings.Contains(objs[len(objs)-1], "/"):
			objs[len(objs)-1] += "/" + strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "name:"))
		}
	}
	if len(objs) == 0 {
		return "apply (inline manifest)"
	}
	return "apply " + strings.Join(objs, ", ")
}
