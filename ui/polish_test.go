package ui

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"podlab.dev/podlab/lab"
)

// newScenarioModel opens a scenario text paused, colours off, at w×h.
func newScenarioModel(t testing.TB, text string, w, h int) *Model {
	t.Helper()
	f, err := lab.LoadFile("test.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	sess, err := lab.NewSession(f, lab.SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := New(sess, Options{Theme: "dark", NoColor: true, Paused: true})
	update(m, tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// manyZones is 10 zones × 5 nodes with long node names and a deployment.
func manyZones() string {
	var b strings.Builder
	b.WriteString("apiVersion: podlab/v1\nkind: Scenario\nmetadata: {name: many}\nseed: 1\ncluster:\n  nodeNames: \"worker-{zone}-{i}\"\n  node: {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n  zones:\n")
	for z := 0; z < 10; z++ {
		fmt.Fprintf(&b, "  - {name: zone-%c, nodes: 5}\n", 'a'+z)
	}
	b.WriteString(`---
apiVersion: apps/v1
kind: Deployment
metadata: {name: a-deployment-with-a-rather-long-name-for-the-list}
spec:
  replicas: 60
  selector: {matchLabels: {app: long}}
  template:
    metadata: {labels: {app: long}}
    spec:
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 10m}}}]
`)
	return b.String()
}

func TestBigClusterRows(t *testing.T) {
	m := newScenarioModel(t, manyZones(), 100, 30)
	typeCommand(m, "advance 10s")
	s := screen(m)
	if !strings.Contains(s, "cluster · by zone · 50 nodes") || !strings.Contains(s, "zone zone-a · 5 nodes") {
		t.Fatalf("10 zones of 5 nodes do not fit as columns: rows with headings:\n%s", s)
	}
	for i := 0; i < 37; i++ {
		press(m, "j")
		nv, _ := m.selectedNode()
		if !strings.Contains(screen(m), "▸"+nv.Node.Name) {
			t.Fatalf("after %d×j the selected node %s is on screen:\n%s", i+1, nv.Node.Name, screen(m))
		}
	}
	for _, l := range strings.Split(screen(m), "\n") {
		if w := cellWidth(l); w != 100 {
			t.Fatalf("line of %d cells, want 100: %q", w, l)
		}
	}
	press(m, "home")
	if !strings.Contains(screen(m), "▸worker-zone-a-1") {
		t.Fatalf("home goes back to the first node:\n%s", screen(m))
	}
}

func TestNominatedGlyph(t *testing.T) {
	f, err := lab.LoadPreset("priority-preemption")
	if err != nil {
		t.Fatal(err)
	}
	sess, err := lab.NewSession(f, lab.SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := New(sess, Options{Theme: "dark", NoColor: true, Paused: true})
	update(m, tea.WindowSizeMsg{Width: 140, Height: 40})
	typeCommand(m, "advance 5s")
	typeCommand(m, "scale deployment/web --replicas=1")
	var nominated string
	for _, p := range m.data.snap.Pending {
		if p.NominatedNode != "" {
			nominated = p.NominatedNode
		}
	}
	if nominated == "" {
		t.Fatal("web preempts a cache pod and is nominated to its node")
	}
	s := screen(m)
	if !strings.Contains(s, glyphNominated) || !strings.Contains(s, "nominated to "+nominated) {
		t.Fatalf("the nominated pod shows as ◇ on %s and in the pending list:\n%s", nominated, s)
	}
}

func TestExplainFitsAt80(t *testing.T) {
	m := newScenarioModel(t, manyZones(), 80, 24)
	typeCommand(m, "advance 10s")
	press(m, "tab", "e") // the first pod of the first node: scheduled, so the score table shows
	s := screen(m)
	if !strings.Contains(s, "TOTAL") || !strings.Contains(s, "same on every node, not shown:") {
		t.Fatalf("at 80 columns the score table drops the constant columns:\n%s", s)
	}
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "NODE") && strings.Contains(l, "…") {
			t.Fatalf("the table header is cut: %q", l)
		}
	}
}

func TestNoColorKeepsShapes(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	typeCommand(m, "advance 10s")
	out := m.render()
	if strings.Contains(out, "\x1b[38") || strings.Contains(out, "\x1b[48") {
		t.Fatalf("NO_COLOR output carries colours: %q", out[:200])
	}
	for _, g := range []string{glyphRunning, "▸node1", "▰"} {
		if !strings.Contains(ansi.Strip(out), g) {
			t.Fatalf("NO_COLOR output lost %q", g)
		}
	}
	// and with colours every theme still draws the same shapes
	for _, th := range []string{"dark", "light", "projector", "colorblind"} {
		m.opts.NoColor = false
		m.setTheme(th)
		if got := screen(m); !strings.Contains(got, "● p1") || !strings.Contains(got, "▸node1") {
			t.Fatalf("theme %s:\n%s", th, got)
		}
	}
}

// Random keys, clicks (header tabs included), wheels and resizes down to
// 10×5 on a big cluster in rows mode: nothing panics, every frame has
// exactly the terminal's size, selections stay in range.
func TestRandomInputBigCluster(t *testing.T) {
	m := newScenarioModel(t, manyZones(), 100, 30)
	r := rand.New(rand.NewPCG(7, 7))
	keys := []string{"j", "k", "h", "l", "tab", "1", "2", "3", "4", "5", "e", "g", "+", "-", "c", "u", "i", "esc",
		".", "space", "]", "?", "enter", "x", "<", ">", "L", "T", "up", "down", "end", "home"}
	for i := 0; i < 1500; i++ {
		switch r.IntN(8) {
		case 0:
			update(m, tea.WindowSizeMsg{Width: 10 + r.IntN(200), Height: 5 + r.IntN(60)})
		case 1:
			update(m, tea.MouseClickMsg{X: r.IntN(m.w + 2), Y: r.IntN(3) * r.IntN(m.h+1), Button: tea.MouseLeft})
		case 2:
			update(m, tea.MouseWheelMsg{X: r.IntN(120), Y: r.IntN(40), Button: tea.MouseWheelUp})
		case 3:
			update(m, tickMsg{id: m.tickID})
		default:
			update(m, keyMsg(keys[r.IntN(len(keys))]))
		}
		if m.pal.open {
			press(m, "esc")
		}
		out := m.View().Content
		lines := strings.Split(out, "\n")
		if m.w >= minWidth && m.h >= minHeight {
			if len(lines) != m.h {
				t.Fatalf("step %d: %d lines at %d×%d", i, len(lines), m.w, m.h)
			}
			for _, l := range lines {
				if w := cellWidth(l); w != m.w {
					t.Fatalf("step %d: a line of %d cells at %d×%d: %q", i, w, m.w, m.h, l)
				}
			}
		}
		if m.nodeIdx < 0 || (len(m.data.nodes) > 0 && m.nodeIdx >= len(m.data.nodes)) {
			t.Fatalf("node selection out of range: %d of %d", m.nodeIdx, len(m.data.nodes))
		}
	}
}
