package lab

import (
	"io"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/scheduler"
)

func TestPercentageOfNodesToScoreOption(t *testing.T) {
	cases := []struct {
		yaml string
		want int32 // -1: nil
		err  bool
	}{
		{"adaptive", 0, false},
		{"30", 30, false},
		{"100", 100, false},
		{"1", 1, false},
		{"0", -1, true},
		{"101", -1, true},
		{"half", -1, true},
		{"[1]", -1, true},
	}
	for _, c := range cases {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(c.yaml), &doc); err != nil {
			t.Fatal(err)
		}
		p := &scenarioParser{file: "s.yaml"}
		got := p.percentageOfNodesToScore(doc.Content[0])
		if (len(p.errs) > 0) != c.err {
			t.Errorf("%s: errors %v", c.yaml, p.errs)
		}
		if (got == nil) != (c.want < 0) || (got != nil && *got != c.want) {
			t.Errorf("%s: got %v, want %d", c.yaml, got, c.want)
		}
		if got != nil {
			if back := percentageValue(got); (c.yaml == "adaptive") != (back == "adaptive") || (back != "adaptive" && back != int(*got)) {
				t.Errorf("%s: saved as %v", c.yaml, back)
			}
		}
		var cfg scheduler.Config
		applySchedulerOptions(&cfg, got)
		if cfg.PercentageOfNodesToScore != got {
			t.Errorf("%s: not applied", c.yaml)
		}
	}
}

// The running lab and the timeless commands map the scheduler settings
// with one function: an unknown --tie-break is an error in both.
func TestUnknownTieBreakIsRefused(t *testing.T) {
	f, err := LoadFile("example.yaml", mustRead(t, "testdata/example.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const want = `--tie-break must be random or name, not "foo"`
	if _, err := NewSession(f, SessionOptions{TieBreak: "foo"}); err == nil || err.Error() != want {
		t.Errorf("session: error %v, want %q", err, want)
	}
	if err := Run(io.Discard, f, RunOptions{TieBreak: "foo", For: time.Second}); err == nil || err.Error() != want {
		t.Errorf("run: error %v, want %q", err, want)
	}
	if _, err := ScheduleLines(f, ScheduleOptions{TieBreak: "foo"}); err == nil || err.Error() != want {
		t.Errorf("schedule: error %v, want %q", err, want)
	}
	for _, tie := range []string{"", "random", "name"} {
		if _, err := NewSession(f, SessionOptions{TieBreak: tie}); err != nil {
			t.Errorf("--tie-break %q: %v", tie, err)
		}
	}
}

// percentageOfNodesToScore applies in the running lab; the timeless
// commands evaluate every node (docs/scheduler.md, docs/conformance.md).
func TestPercentageOnlyInTheRunningLab(t *testing.T) {
	pct := int32(30)
	sc := &Scenario{Scheduler: SchedulerSpec{TieBreak: "name", PercentageOfNodesToScore: &pct}}
	cfg, err := schedulerConfig(sc, 7, "")
	if err != nil || cfg.PercentageOfNodesToScore != &pct || cfg.TieBreak != scheduler.TieBreakByName || cfg.Seed != 7 {
		t.Errorf("running lab: %+v, %v", cfg, err)
	}
	static := &staticCluster{file: &File{Scenario: sc}}
	if cfg, err := static.schedulerConfig(7, "random"); err != nil || cfg.PercentageOfNodesToScore != nil || cfg.TieBreak != scheduler.TieBreakRandom {
		t.Errorf("timeless commands: %+v, %v", cfg, err)
	}
}
