package ui

import (
	"strings"
	"testing"
)

func TestContainerBars(t *testing.T) {
	for _, c := range []struct {
		name  string
		spans []ctrSpan
		marks []ctrMark
		now   float64
		want  []string
	}{
		{"a healthy pod: nothing", []ctrSpan{{"app", "run", 0, 100}}, nil, 100, nil},
		{"init, a crash, back-off and a restart",
			[]ctrSpan{{"migrate", "init", 0, 10}, {"app", "run", 10, 40}, {"app", "back-off", 40, 60}, {"app", "run", 60, 100}}, nil, 100,
			[]string{
				// 19 cells of 100/19 s: the init run takes cell 0
				"migrate ▒",
				"app      ━━━━━━░░░░↻━━━━━━━",
			}},
		{"a probe failure and a kill",
			[]ctrSpan{{"app", "run", 0, 100}}, []ctrMark{{25, "Unhealthy"}, {50, "Killing"}}, 100,
			[]string{
				"app    ━━━━━━━━━━━━━━━━━━━━",
				"probes      ✗    ✕         ",
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := containerBars(c.spans, c.marks, c.now, 27)
			var trimmed []string
			for _, l := range got {
				trimmed = append(trimmed, strings.TrimRight(l, " "))
			}
			var want []string
			for _, l := range c.want {
				want = append(want, strings.TrimRight(l, " "))
			}
			if strings.Join(trimmed, "\n") != strings.Join(want, "\n") {
				t.Fatalf("got\n%s\nwant\n%s", strings.Join(trimmed, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
