package lab

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/lab/command"
	"podlab.dev/podlab/lab/manifest"
)

// Save writes the session as a scenario file: the lab header with the
// commands applied so far merged into its timeline (and clock.resumeAt set
// to the current time), followed by the original manifests. Loading it and
// advancing to resumeAt rebuilds the same state.
func (s *Session) Save(w io.Writer) error { return s.SaveWith(w, SaveOptions{}) }

// SaveWith is Save with what the user interface adds (SaveOptions).
func (s *Session) SaveWith(w io.Writer, opts SaveOptions) error {
	sv, err := s.Saver(opts)
	if err != nil {
		return err
	}
	_, err = sv.WriteTo(w)
	return err
}

// Saver takes what Save writes, for writing later (see Saved).
func (s *Session) Saver(opts SaveOptions) (*Saved, error) {
	sc := s.scenarioToSave()
	tl := append([]TimelineEntry(nil), s.timeline()...)
	if sc.Fork != nil {
		// one lane of a saved fork, saved on its own: its own story only
		sc.Fork = nil
		for i := range tl {
			tl[i].Lane = ""
		}
	}
	for _, e := range s.history {
		tl = append(tl, TimelineEntry{At: time.Duration(e.At), Do: e.Line})
	}
	opts.apply(&sc)
	return s.prepare(sc, tl)
}

// scenarioToSave is the session's header as the save starts from it.
func (s *Session) scenarioToSave() Scenario {
	sc := Scenario{}
	if s.file.Scenario != nil {
		sc = *s.file.Scenario
	}
	if sc.Name == "" {
		sc.Name = strings.TrimSuffix(s.file.Name, ".yaml")
	}
	sc.Seed = s.seed0()
	return sc
}

// prepare takes the header with timeline tl (sorted here), resuming now,
// and the original manifests to follow it.
func (s *Session) prepare(sc Scenario, tl []TimelineEntry) (*Saved, error) {
	// Stable: scenario entries stay before user commands of the same
	// instant, which is the order the session ran them in.
	sort.SliceStable(tl, func(i, j int) bool { return tl[i].At < tl[j].At })
	sc.Timeline = tl
	sc.Clock.ResumeAt = time.Duration(s.Present()) // rewound: the history's present
	// a policy from scheduler.configFile or --scheduler-config is
	// embedded, so the saved file stands alone
	sc.Scheduler.ConfigFile = ""
	sv := &Saved{sc: sc, file: s.file}
	if cfg := s.file.SchedulerConfig; cfg != nil && len(s.file.Objects.SchedulerConfigs) == 0 {
		sv.config = cfg
	}
	return sv, nil
}

// Saved is a save taken from a session: the header to write (its own
// timeline; the rest is the file's) and the file's manifests, all never
// modified after loading. Taking it copies the history (cheap: the UI
// takes one after every command for the recovery file); WriteTo renders
// the YAML and touches no session, so it may run on another goroutine
// while the session goes on (the TUI writes files off its loop).
type Saved struct {
	sc     Scenario
	config *manifest.SchedulerConfiguration
	file   *File // its manifests: a large import's are read again from disk (filetext.go)
}

// WriteTo implements io.WriterTo: the header, then the manifests.
func (sv *Saved) WriteTo(w io.Writer) (int64, error) {
	cw := &countingWriter{w: w}
	err := sv.write(cw)
	return cw.n, err
}

func (sv *Saved) write(w io.Writer) error {
	header, err := renderScenario(&sv.sc)
	if err != nil {
		return err
	}
	manifests, err := sv.file.manifestText()
	if err != nil {
		return err
	}
	if _, err := w.Write(header); err != nil {
		return err
	}
	body := bytes.TrimLeft(stripBlankLines(manifests), "\n")
	if sv.config != nil {
		doc, err := renderSchedulerConfig(sv.config)
		if err != nil {
			return err
		}
		body = append(append(append([]byte("---\n"), doc...), '\n'), body...)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	if !bytes.HasPrefix(body, []byte("---")) {
		if _, err := io.WriteString(w, "---\n"); err != nil {
			return err
		}
	}
	_, err = w.Write(body)
	return err
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// seed0 is the seed the session started with (a `seed` command in the
// history is replayed as a command).
func (s *Session) seed0() int64 {
	if s.opts.Seed != nil {
		return *s.opts.Seed
	}
	if s.file.Scenario != nil {
		return s.file.Scenario.Seed
	}
	return 0
}

// stripBlankLines drops runs of empty lines left where the header was
// (lines holding only spaces count as empty; the first of a run stays).
// It scans by offsets: a saved import is hundreds of megabytes, whose
// lines as a [][]byte would cost more than the text.
func stripBlankLines(b []byte) []byte {
	out := make([]byte, 0, len(b))
	blank, first := 0, true
	for {
		l, rest, more := bytes.Cut(b, []byte("\n"))
		if len(bytes.TrimSpace(l)) == 0 {
			blank++
		} else {
			blank = 0
		}
		if blank <= 1 {
			if !first {
				out = append(out, '\n')
			}
			out = append(out, l...)
			first = false
		}
		if !more {
			return out
		}
		b = rest
	}
}

// The YAML shape of the header, in the order a person reads it.
type scenarioYAML struct {
	APIVersion  string              `yaml:"apiVersion"`
	Kind        string              `yaml:"kind"`
	Metadata    map[string]any      `yaml:"metadata"`
	Title       string              `yaml:"title,omitempty"`
	Description string              `yaml:"description,omitempty"`
	Seed        int64               `yaml:"seed"`
	Clock       map[string]any      `yaml:"clock,omitempty"`
	Cluster     map[string]any      `yaml:"cluster,omitempty"`
	Scheduler   map[string]any      `yaml:"scheduler,omitempty"`
	Kubelet     map[string]any      `yaml:"kubelet,omitempty"`
	Autoscaler  *yaml.Node          `yaml:"autoscaler,omitempty"`
	Timeline    []map[string]string `yaml:"timeline,omitempty"`
	Fork        map[string]string   `yaml:"fork,omitempty"`
	Descheduler map[string]any      `yaml:"descheduler,omitempty"`
	Lesson      map[string]any      `yaml:"lesson,omitempty"`
}

func renderScenario(sc *Scenario) ([]byte, error) {
	y := scenarioYAML{APIVersion: ScenarioAPIVersion, Kind: ScenarioKind, Metadata: map[string]any{"name": sc.Name},
		Title: sc.Title, Description: sc.Description, Seed: sc.Seed}
	clock := map[string]any{}
	if sc.Clock.Speed != 0 {
		clock["speed"] = sc.Clock.Speed
	}
	if sc.Clock.Paused {
		clock["paused"] = true
	}
	if sc.Clock.ResumeAt != 0 {
		clock["resumeAt"] = sc.Clock.ResumeAt.String()
	}
	if len(clock) > 0 {
		y.Clock = clock
	}
	if c := sc.Cluster; len(c.Zones) > 0 || c.ZoneLabel != "" {
		m := map[string]any{}
		if c.ZoneLabel != "" {
			m["zoneLabel"] = c.ZoneLabel
		}
		if c.NodeNames != "" {
			m["nodeNames"] = c.NodeNames
		}
		if sh := shapeYAML(c.Node); len(sh) > 0 {
			m["node"] = sh
		}
		var zones []map[string]any
		for _, z := range c.Zones {
			zm := shapeYAML(z.NodeShape)
			zm["name"] = z.Name
			if z.Nodes >= 0 {
				zm["nodes"] = z.Nodes
			}
			if len(z.Names) > 0 {
				zm["names"] = z.Names
			}
			zones = append(zones, zm)
		}
		m["zones"] = zones
		y.Cluster = m
	}
	if s := sc.Scheduler; s.TieBreak != "" || len(s.DefaultConstraints) > 0 || s.DefaultingType != "" || s.PercentageOfNodesToScore != nil {
		m := map[string]any{}
		if s.PercentageOfNodesToScore != nil {
			m[percentageKey] = percentageValue(s.PercentageOfNodesToScore)
		}
		if s.TieBreak != "" {
			m["tieBreak"] = s.TieBreak
		}
		if s.DefaultingType != "" {
			m["defaultingType"] = s.DefaultingType
		}
		var dcs []map[string]any
		for _, dc := range s.DefaultConstraints {
			dcs = append(dcs, map[string]any{"maxSkew": dc.MaxSkew, "topologyKey": dc.TopologyKey, "whenUnsatisfiable": dc.WhenUnsatisfiable})
		}
		if len(dcs) > 0 {
			m["defaultConstraints"] = dcs
		}
		y.Scheduler = m
	}
	if k := sc.Kubelet; len(k.EvictionHard) > 0 || len(k.EvictionSoft) > 0 || k.EvictionMaxPodGracePeriod != 0 || k.StartupDelay != 0 {
		m := map[string]any{}
		if len(k.EvictionHard) > 0 {
			m["evictionHard"] = k.EvictionHard
		}
		if len(k.EvictionSoft) > 0 {
			m["evictionSoft"] = k.EvictionSoft
			g := map[string]string{}
			for sig, d := range k.EvictionSoftGracePeriod {
				g[sig] = d.String()
			}
			m["evictionSoftGracePeriod"] = g
		}
		if k.EvictionMaxPodGracePeriod != 0 {
			m["evictionMaxPodGracePeriod"] = k.EvictionMaxPodGracePeriod
		}
		if k.StartupDelay != 0 {
			m["startupDelay"] = k.StartupDelay.String()
		}
		y.Kubelet = m
	}
	if d := sc.Descheduler.DeschedulingInterval; d != 0 {
		y.Descheduler = map[string]any{"deschedulingInterval": d.String()}
	}
	if sc.Fork != nil {
		y.Fork = map[string]string{"at": sc.Fork.At.String()}
	}
	if sc.Autoscaler != nil {
		y.Autoscaler = sc.Autoscaler.Node
	}
	for _, e := range sc.Timeline {
		entry := map[string]string{"at": e.At.String()}
		if e.Lane != "" {
			entry["lane"] = e.Lane
		}
		if cmd, err := command.Parse(e.Do); err == nil {
			if a, ok := cmd.(command.Apply); ok && a.Inline != "" {
				entry["apply"] = a.Inline
				y.Timeline = append(y.Timeline, entry)
				continue
			}
		}
		entry["do"] = e.Do
		y.Timeline = append(y.Timeline, entry)
	}
	if sc.Lesson != nil {
		var steps []map[string]any
		for _, st := range sc.Lesson.Steps {
			m := map[string]any{"title": st.Title}
			if st.Text != "" {
				m["text"] = st.Text
			}
			if len(st.Do) > 0 {
				m["do"] = st.Do
			}
			if len(st.Solution) > 0 && fmt.Sprint(st.Solution) != fmt.Sprint(st.Do) {
				m["solution"] = st.Solution
			}
			var checks []any
			for _, c := range st.Checks {
				if c.Hint == "" {
					checks = append(checks, c.Expr)
				} else {
					checks = append(checks, map[string]string{"check": c.Expr, "hint": c.Hint})
				}
			}
			if len(checks) > 0 {
				m["checks"] = checks
			}
			steps = append(steps, m)
		}
		y.Lesson = map[string]any{"steps": steps}
		if sc.Lesson.Step > 0 {
			y.Lesson["step"] = sc.Lesson.Step + 1
		}
	}
	var buf bytes.Buffer
	buf.WriteString("# Saved by podlab: the scenario with every command applied in the session as timeline entries.\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(y); err != nil {
		return nil, fmt.Errorf("render scenario: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func shapeYAML(sh NodeShape) map[string]any {
	m := map[string]any{}
	if sh.CPU != "" {
		m["cpu"] = sh.CPU
	}
	if sh.Memory != "" {
		m["memory"] = sh.Memory
	}
	if sh.Pods != "" {
		m["pods"] = sh.Pods
	}
	if len(sh.Labels) > 0 {
		m["labels"] = sh.Labels
	}
	if len(sh.Taints) > 0 {
		m["taints"] = sh.Taints
	}
	return m
}
