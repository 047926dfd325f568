package lab

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers"
	"podlab.dev/podlab/engine/kubelet"
	"podlab.dev/podlab/lab/textsafe"
)

// DefaultRunFor is how long `podlab run` simulates without --for.
const DefaultRunFor = 5 * time.Minute

// RunOptions are the flags of `podlab run`.
type RunOptions struct {
	For      time.Duration // 0 ⇒ DefaultRunFor
	Seed     *int64
	TieBreak string
	Do       []string // commands applied in order at t=0 (advance moves time between them)
	Output   string   // "json" or "text"; with Metrics, "csv" or "json"
	// Metrics writes the recorded time series instead of the events.
	Metrics bool
}

// RunReport is what a run ends with besides the events.
type RunReport struct {
	Timelines []PodTimeline
	Ranking   []NodeRanking
	Spread    []controllers.Spread
	Drains    []*engine.Drain
	HPAs      []HPARow
}

// PodTimeline is one pod's termination timeline.
type PodTimeline struct {
	Pod      string           `json:"pod"`
	Timeline kubelet.Timeline `json:"timeline"`
	// Cause is the event that started the termination.
	Cause engine.Event `json:"-"`
}

// NodeRanking is a node's kubelet eviction ranking.
type NodeRanking struct {
	Node    string              `json:"node"`
	Memory  engine.NodeMemory   `json:"memory"`
	Ranking []kubelet.RankEntry `json:"ranking"`
}

// Run loads a scenario, applies the --do commands at t=0, simulates until
// --for and writes the event stream and the final report.
func Run(w io.Writer, f *File, opts RunOptions) error {
	if err := checkRunTime("--for", opts.For); err != nil {
		return err
	}
	s, err := NewSession(f, SessionOptions{Seed: opts.Seed, TieBreak: opts.TieBreak, NoCheckpoints: true})
	if err != nil {
		return err
	}
	if opts.Metrics {
		s.EnableMetrics(0)
	}
	if err := s.applyAll(opts.Do); err != nil {
		return err
	}
	end := opts.For
	if end == 0 {
		end = DefaultRunFor
	}
	if api.Time(end) > s.Now() {
		if err := s.advanceTo(api.Time(end)); err != nil {
			return err
		}
	}
	if opts.Metrics {
		err = writeMetrics(w, s, opts.Output)
	} else {
		report := s.Report()
		switch opts.Output {
		case "json":
			err = writeRunJSON(textsafe.NewJSONWriter(w), s, report)
		case "", "text":
			err = writeRunText(textsafe.NewWriter(w), s, report)
		default:
			return fmt.Errorf("-o must be json or text, not %q", opts.Output)
		}
	}
	if err != nil {
		return err
	}
	// the report is out; a timeline command that failed still fails the run
	return timelineFailureError(s.TimelineFailures())
}

// applyAll applies command lines in order, naming the one that fails.
func (s *Session) applyAll(lines []string) error {
	for i, line := range lines {
		if _, err := s.Apply(line); err != nil {
			return fmt.Errorf("--do #%d %q: %w", i+1, line, err)
		}
	}
	return nil
}

// Report collects timelines of pods that were killed, eviction rankings of
// nodes under memory pressure, and per-workload spread.
func (s *Session) Report() RunReport {
	r := RunReport{Timelines: s.TerminationTimelines()}
	for _, n := range s.eng.Nodes() {
		mem, _ := s.eng.NodeMemory(n.Name)
		pressured := mem.System > 0
		if c := n.Condition(api.NodeMemoryPressure); c != nil && c.Status == api.ConditionTrue {
			pressured = true
		}
		if pressured {
			r.Ranking = append(r.Ranking, NodeRanking{Node: n.Name, Memory: mem, Ranking: s.eng.EvictionRanking(n.Name)})
		}
	}
	r.Spread = s.ctl.SpreadReport([]string{s.zoneLabel(), api.LabelHostname})
	r.Drains = s.eng.Drains()
	r.HPAs = s.HPARows()
	return r
}

// TerminationTimelines returns the timelines of pods that were killed
// (deleted, evicted, preempted), with the event that started each.
func (s *Session) TerminationTimelines() []PodTimeline {
	var out []PodTimeline
	seen := map[string]bool{}
	for _, e := range s.eng.Events() {
		switch e.Reason {
		case engine.ReasonKilling, engine.ReasonEvicted, engine.ReasonPreempted, engine.ReasonTaintManagerEviction, engine.ReasonDeleted:
		default:
			continue
		}
		key, ok := strings.CutPrefix(e.Object, "pod/")
		if !ok || seen[key] {
			continue
		}
		seen[key] = true
		if tl, ok := s.eng.Timeline(key); ok {
			out = append(out, PodTimeline{Pod: key, Timeline: tl, Cause: e})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pod < out[j].Pod })
	return out
}

func writeRunJSON(w io.Writer, s *Session, r RunReport) error {
	enc := json.NewEncoder(w)
	for _, e := range s.eng.Events() {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	for _, t := range r.Timelines {
		if err := enc.Encode(map[string]any{"kind": "timeline", "pod": t.Pod, "phases": spansJSON(t.Timeline.Pod), "containers": containersJSON(t.Timeline)}); err != nil {
			return err
		}
	}
	for _, n := range r.Ranking {
		var rows []map[string]any
		for _, e := range n.Ranking {
			rows = append(rows, map[string]any{"rank": e.Rank, "pod": e.Pod, "qos": e.QOS, "priority": e.Priority,
				"usage": api.FormatBytes(api.Units(e.Usage)), "request": api.FormatBytes(api.Units(e.Request)), "exceedsRequest": e.Exceeds, "why": e.Key})
		}
		if err := enc.Encode(map[string]any{"kind": "evictionRanking", "node": n.Node,
			"memoryAvailable": api.FormatBytes(api.Units(n.Memory.Available)), "ranking": rows}); err != nil {
			return err
		}
	}
	for _, d := range r.Drains {
		var lines []map[string]string
		for _, l := range d.Lines {
			lines = append(lines, map[string]string{"t": l.Time.String(), "text": l.Text})
		}
		var blocked []map[string]string
		for _, b := range d.Blocked() {
			blocked = append(blocked, map[string]string{"pod": b.Pod, "since": b.Since.String(), "message": b.Message, "cause": b.Cause})
		}
		if err := enc.Encode(map[string]any{"kind": "drain", "node": d.Node, "done": d.Done, "error": d.Err, "lines": lines, "blocked": blocked}); err != nil {
			return err
		}
	}
	for _, h := range r.HPAs {
		if err := enc.Encode(map[string]any{"kind": "hpa", "hpa": h}); err != nil {
			return err
		}
	}
	if s.autoscaler != nil {
		if err := enc.Encode(map[string]any{"kind": "autoscaler", "status": s.AutoscalerView()}); err != nil {
			return err
		}
	}
	for _, line := range timelineFailuresJSON(s.TimelineFailures()) {
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	for _, sp := range r.Spread {
		doms := map[string]int{}
		for _, d := range sp.Domains {
			doms[d.Domain] = d.Count
		}
		if err := enc.Encode(map[string]any{"kind": "spread", "workload": strings.ToLower(sp.Kind) + "/" + sp.Namespace + "/" + sp.Name,
			"topologyKey": sp.TopologyKey, "domains": doms, "skew": sp.Skew, "pending": sp.Unscheduled}); err != nil {
			return err
		}
	}
	return nil
}

func spansJSON(spans []kubelet.Span) []map[string]string {
	var out []map[string]string
	for _, sp := range spans {
		out = append(out, map[string]string{"phase": sp.Phase, "start": sp.Start.String(), "end": sp.End.String()})
	}
	return out
}

func containersJSON(t kubelet.Timeline) []map[string]any {
	var out []map[string]any
	for _, c := range t.Containers {
		out = append(out, map[string]any{"name": c.Name, "sidecar": c.Sidecar, "phases": spansJSON(c.Spans)})
	}
	return out
}

func writeRunText(w io.Writer, s *Session, r RunReport) error {
	fmt.Fprintf(w, "%-8s %-8s %-26s %-34s %s\n", "TIME", "TYPE", "REASON", "OBJECT", "MESSAGE")
	for _, e := range s.eng.Events() {
		fmt.Fprintf(w, "%-8s %-8s %-26s %-34s %s\n", e.Time.String(), e.Type, e.Reason, e.Object, e.Message)
	}
	if s.autoscaler != nil {
		fmt.Fprintf(w, "\n%s\n", s.AutoscalerStatusText())
	}
	writeDescheduleText(w, s)
	for _, d := range r.Drains {
		state := "in progress"
		switch {
		case d.Done && d.Err == "":
			state = "done"
		case d.Err != "":
			state = "failed: " + d.Err
		}
		fmt.Fprintf(w, "\nkubectl drain %s (started %s, %s):\n", d.Node, d.Started, state)
		for _, l := range d.Lines {
			fmt.Fprintf(w, "  %-8s %s\n", l.Time.String(), l.Text)
		}
		for _, b := range d.Blocked() {
			fmt.Fprintf(w, "  blocked since %s: %s: %s (%s)\n", b.Since, b.Pod, b.Message, b.Cause)
		}
	}
	if len(r.Timelines) > 0 {
		fmt.Fprintf(w, "\nTermination timelines:\n")
		for _, t := range r.Timelines {
			fmt.Fprintf(w, "  pod/%s: %s\n", t.Pod, FormatSpans(t.Timeline.Pod))
			for _, c := range t.Timeline.Containers {
				kind := "container"
				if c.Sidecar {
					kind = "sidecar"
				}
				fmt.Fprintf(w, "    %s %s: %s\n", kind, c.Name, FormatSpans(c.Spans))
			}
		}
	}
	for _, n := range r.Ranking {
		fmt.Fprintf(w, "\nEviction ranking on node/%s (memory.available %s of %s):\n", n.Node,
			api.HumanBytes(api.Units(n.Memory.Available)), api.HumanBytes(api.Units(n.Memory.Capacity)))
		fmt.Fprintf(w, "  %-4s %-30s %-11s %10s %10s %10s  %s\n", "RANK", "POD", "QOS", "PRIORITY", "USAGE", "REQUEST", "WHY")
		for _, e := range n.Ranking {
			fmt.Fprintf(w, "  %-4d %-30s %-11s %10d %10s %10s  %s\n", e.Rank, e.Pod, e.QOS, e.Priority,
				api.HumanBytes(api.Units(e.Usage)), api.HumanBytes(api.Units(e.Request)), e.Key)
		}
	}
	if len(r.HPAs) > 0 {
		fmt.Fprintf(w, "\nHorizontalPodAutoscalers:\n")
		writeHPATable(w, r.HPAs, "  ")
	}
	if len(r.Spread) > 0 {
		fmt.Fprintf(w, "\nSpread:\n")
		var doms []byte // reused: an imported cluster's hostname lines have 1,000 domains each
		for _, sp := range r.Spread {
			doms = doms[:0]
			for i, d := range sp.Domains {
				if i > 0 {
					doms = append(doms, ' ')
				}
				doms = strconv.AppendInt(append(append(doms, d.Domain...), '='), int64(d.Count), 10)
			}
			pend := ""
			if sp.Unscheduled > 0 {
				pend = fmt.Sprintf(", %d pending", sp.Unscheduled)
			}
			fmt.Fprintf(w, "  %s/%s by %s: %s (skew %d%s)\n", strings.ToLower(sp.Kind), sp.Name, sp.TopologyKey, doms, sp.Skew, pend)
		}
	}
	writeTimelineFailuresText(w, s.TimelineFailures())
	return nil
}

// FormatSpans prints spans as "Running 0s–10s · PreStop 10s–15s · Gone 16s".
func FormatSpans(spans []kubelet.Span) string {
	var parts []string
	for _, sp := range spans {
		if sp.Open && sp.Phase != kubelet.PhaseRunning && sp.Phase != kubelet.PhasePending && sp.Phase != kubelet.PhaseContainerCreating {
			// a termination phase with no end (a grace period past the
			// clock's end)
			parts = append(parts, fmt.Sprintf("%s %s–…", sp.Phase, sp.Start))
			continue
		}
		if sp.Start == sp.End {
			parts = append(parts, fmt.Sprintf("%s %s", sp.Phase, sp.Start))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %s–%s", sp.Phase, sp.Start, sp.End))
	}
	return strings.Join(parts, " · ")
}

// CheckOptions are the flags of `podlab check`.
type CheckOptions struct {
	Seed *int64
	Do   []string
	// Solutions applies each step's solution commands before checking it
	// (what instructors run in CI to test their material).
	Solutions bool
	// Settle is how long to let the cluster run after each step's
	// commands before its checks (default 2 minutes).
	Settle time.Duration
}

// CheckResultLine is one step's outcome.
type CheckResultLine struct {
	Step   int
	Title  string
	Checks []CheckResult
}

// Check runs a lesson headless: optional --do commands at t=0, then for
// each step (its solution applied if asked) the cluster settles and the
// step's checks are evaluated. It reports whether every check passed.
func Check(w io.Writer, f *File, opts CheckOptions) (bool, error) {
	if f.Scenario == nil || f.Scenario.Lesson == nil {
		return false, fmt.Errorf("%s has no lesson to check (add a podlab/v1 Scenario document with lesson.steps)", f.Name)
	}
	s, err := NewSession(f, SessionOptions{Seed: opts.Seed, NoCheckpoints: true})
	if err != nil {
		return false, err
	}
	// checks may read the recorded history (max_over_time) and lanes
	s.EnableMetrics(0)
	cr := &Driver{Session: s}
	for i, line := range opts.Do {
		if _, err := cr.Apply(line); err != nil {
			return false, fmt.Errorf("--do #%d %q: %w", i+1, line, err)
		}
	}
	w = textsafe.NewWriter(w) // titles, check expressions and details come from the file
	settle := opts.Settle
	if settle == 0 {
		settle = 2 * time.Minute
	}
	allOK := true
	printed := 0 // timeline failures printed so far
	for i, st := range f.Scenario.Lesson.Steps {
		if opts.Solutions {
			for _, line := range st.Solution {
				if _, err := cr.Apply(line); err != nil {
					return false, fmt.Errorf("step %d (%s): solution %q: %w", i+1, st.Title, line, err)
				}
			}
		}
		if err := cr.Advance(settle); err != nil {
			return false, err
		}
		s = cr.Session
		results := s.CheckStep(i)
		fmt.Fprintf(w, "step %d/%d %s (t=%s)\n", i+1, len(f.Scenario.Lesson.Steps), st.Title, s.Now())
		for _, r := range results {
			mark := "✓"
			switch {
			case r.Err != nil:
				mark = "!"
				allOK = false
			case !r.OK:
				mark = "✗"
				allOK = false
			}
			line := fmt.Sprintf("  %s %s", mark, r.Expr)
			if r.Err != nil {
				line += "  — error: " + r.Err.Error()
			} else if !r.OK && r.Detail != "" {
				line += "  — " + r.Detail
			}
			fmt.Fprintln(w, line)
		}
		// the scenario's timeline ran on the way: a command of it that
		// failed fails the check (the lesson did not happen as written)
		fails := s.TimelineFailures()
		for _, n := range fails[min(printed, len(fails)):] {
			fmt.Fprintf(w, "  ! timeline: %s\n", n.Text)
			allOK = false
		}
		printed = len(fails)
	}
	return allOK, nil
}

// Validate checks a scenario file without running it: manifests, header,
// every command of the timeline and lesson, every check expression, and
// that the cluster loads into the engine at t=0.
func Validate(w io.Writer, f *File) error {
	w = textsafe.NewWriter(w)
	for _, d := range f.Objects.Warnings {
		fmt.Fprintln(w, d.String())
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		return err
	}
	// the loader parsed every command (syntax errors stop it with
	// file:line:col); what they name is checked here (validate_commands.go)
	if err := commandSyntax(f); err != nil {
		return err
	}
	warnings := scenarioWarnings(f, s)
	for _, d := range warnings {
		fmt.Fprintln(w, d.String())
	}
	n := len(f.Objects.Order)
	steps, cmds := 0, 0
	if sc := f.Scenario; sc != nil {
		cmds += len(sc.Timeline)
		if sc.Lesson != nil {
			steps = len(sc.Lesson.Steps)
			for _, st := range sc.Lesson.Steps {
				cmds += len(st.Do) + len(st.Solution)
			}
		}
	}
	summary := fmt.Sprintf("%d objects, %d lesson steps, %d commands", n, steps, cmds)
	switch len(warnings) {
	case 0:
	case 1:
		summary += ", 1 warning"
	default:
		summary += fmt.Sprintf(", %d warnings", len(warnings))
	}
	fmt.Fprintf(w, "%s: valid (%s)\n", f.Name, summary)
	return nil
}
