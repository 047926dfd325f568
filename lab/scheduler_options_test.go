package lab

import (
	"testing"

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
