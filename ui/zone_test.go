package ui

import (
	"strings"
	"testing"
)

// The zone label comes from the scenario (cluster.zoneLabel): in
// spread-missing-key it is `zone`, so the nodes are drawn in their zones
// (node1, without the label, alone under "(no zone)") and n offers the
// selected node's zone and the next name in the cluster's numbering.
func TestZoneLabelFromScenario(t *testing.T) {
	m := newTestModel(t, "spread-missing-key", 160, 48)
	s := screen(m)
	for _, want := range []string{"zoneA · ", "zoneB · ", "(no zone) · 2 nodes"} {
		if !strings.Contains(s, want) {
			t.Errorf("the cluster view lacks %q:\n%s", want, s)
		}
	}
	press(m, "n")
	if got, want := m.pal.in.Value(), "add node node6 --zone zoneA"; got != want {
		t.Errorf("n pre-fills %q, want %q", got, want)
	}
	press(m, "esc", "z")
	if got, want := m.pal.in.Value(), "add zone zone-a --nodes 2"; got != want {
		t.Errorf("z pre-fills %q, want %q", got, want)
	}
}
