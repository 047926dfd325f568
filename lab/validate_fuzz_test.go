package lab

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/lab/command"
)

// FuzzTimelineCommands runs two fuzzed timeline entries on a small
// cluster. Validate never fails on a file that loads and puts every
// warning at a position; running the timeline records each failure both
// as a note and as a Warning event; and a timeline command validate
// warns about does fail when it runs (a warning is never a false alarm in
// a scenario without a lesson).
func FuzzTimelineCommands(f *testing.F) {
	for _, c := range [][2]string{
		{"delete pod ghost", "cordon node-1"},
		{"remove zone zone-a", "cordon node-1"},
		{"add node n9 --zone zone-b", "fail node n9"},
		{"add zone zone-c --nodes 2", "drain node-3"},
		{"scale deployment/web --replicas=3", "delete pod web-1"},
		{"set priority deployment/web gold", "usage pod/solo memory=150%"},
		{"remove node node-2", "recover node node-2"},
		{"autoscale deployment/web --max=3", "delete hpa web"},
		{"advance 1s", "break pod solo readiness"},
		{"label node node-2 topology.kubernetes.io/zone=zone-x", "remove zone zone-x"},
		{"add node n9 --zone zone-a", "add node n9 --zone zone-b"},
		{"add zone zone-a", "autoscale deployment/web --max=3 --name=web"},
	} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, first, second string) {
		if len(first) > 200 || len(second) > 200 || strings.ContainsAny(first+second, "\n\r") {
			return
		}
		if heavyCommand(first) || heavyCommand(second) {
			return // bounded work is the object budget's business, not this fuzzer's
		}
		body := "timeline:\n- {at: 1s, do: " + strconv.Quote(first) + "}\n- {at: 2s, do: " + strconv.Quote(second) + "}\n"
		file, err := LoadFile("v.yaml", []byte(validateHeader+body+validateObjects))
		if err != nil {
			return // a command that does not parse, or YAML the quoting broke
		}
		var out bytes.Buffer
		if err := Validate(&out, file); err != nil {
			t.Fatalf("validate: %v", err)
		}
		s, err := NewSession(file, SessionOptions{})
		if err != nil {
			t.Fatal(err)
		}
		warned := map[int]bool{} // timeline index
		for _, d := range validateCommands(file, s) {
			if d.Line < 1 || d.File == "" {
				t.Fatalf("warning without a position: %+v", d)
			}
			i := 0
			if strings.HasPrefix(d.Message, "timeline[1]") {
				i = 1
			}
			warned[i] = true
		}
		if err := s.Advance(3 * time.Second); err != nil {
			return // a command the lab refuses to run at all
		}
		failed := map[int]bool{}
		for _, n := range s.TimelineFailures() {
			failed[int(n.At/1e9)-1] = true
		}
		events := 0
		for _, e := range s.Engine().Events() {
			if e.Reason == ReasonTimelineCommandFailed {
				events++
			}
		}
		if events != len(s.TimelineFailures()) {
			t.Fatalf("%d failure events for %d failures", events, len(s.TimelineFailures()))
		}
		for i := range warned {
			if !failed[i] {
				t.Fatalf("validate warned about timeline[%d] (%q, %q), which ran fine:\n%s", i, first, second, out.String())
			}
		}
	})
}

// heavyCommand reports a command whose run is long on purpose: a long
// advance, a big scale-up or zone.
func heavyCommand(line string) bool {
	_, rest, err := SplitLane(line)
	if err != nil {
		return false
	}
	c, err := command.Parse(rest)
	if err != nil {
		return false
	}
	switch c := c.(type) {
	case command.Advance:
		return c.D > time.Minute
	case command.Scale:
		return c.Replicas > 100
	case command.AddZone:
		return c.Nodes > 20
	case command.Autoscale:
		return c.Max > 100
	}
	return false
}
