package ui

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"podlab.dev/podlab/lab"
)

// newTestModel opens a preset paused, with colours off, at w×h.
func newTestModel(t testing.TB, preset string, w, h int) *Model {
	t.Helper()
	f, err := lab.LoadPreset(preset)
	if err != nil {
		t.Fatal(err)
	}
	seed := int64(1)
	sess, err := lab.NewSession(f, lab.SessionOptions{Seed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	m := New(sess, Options{Theme: "dark", NoColor: true, Paused: true})
	update(m, tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

func press(m *Model, keys ...string) {
	for _, k := range keys {
		update(m, keyMsg(k))
	}
}

// keyMsg builds a key press as the terminal would send it.
func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+r":
		return tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}
	case "ctrl+p":
		return tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// typeLine types text into the palette and presses enter.
func typeCommand(m *Model, line string) {
	press(m, ":")
	for _, r := range line {
		update(m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	press(m, "enter")
}

func screen(m *Model) string { return ansi.Strip(m.render()) }

func TestViewsGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		w, h int
		keys []string
		cmds []string
	}{
		{"Cluster", 100, 30, nil, []string{"advance 10s"}},
		{"ClusterNarrow", 80, 24, nil, []string{"advance 10s"}},
		{"ClusterWide", 160, 40, nil, []string{"advance 10s"}},
		{"ExplainPending", 100, 30, []string{"tab", "tab", "tab", "2"}, []string{"cordon node3", "cordon node4", "scale deployment/web --replicas=6", "advance 10s"}},
		{"Timeline", 100, 30, []string{"3"}, []string{"advance 10s", "delete pod p1 --grace-period=10", "advance 20s"}},
		{"Eviction", 100, 30, []string{"4"}, []string{"advance 10s", "usage deployment/web memory=150%", "pressure node node4 memory=99%", "advance 15s"}},
		{"Events", 120, 30, []string{"5"}, []string{"advance 10s", "cordon node1"}},
		{"Help", 100, 30, []string{"?"}, nil},
		{"Palette", 100, 30, []string{":", "s", "c", "a"}, nil},
		{"TooSmall", 40, 10, nil, nil},
		// the three sizes the lab is laid out for, with pending pods (step 3 of the lesson)
		{"Pending80x24", 80, 24, nil, []string{"advance 10s", "cordon node3", "cordon node4", "scale deployment/web --replicas=8", "advance 10s"}},
		{"Pending160x48", 160, 48, nil, []string{"advance 10s", "cordon node3", "cordon node4", "scale deployment/web --replicas=8", "advance 10s"}},
		{"Pending200x50", 200, 50, nil, []string{"advance 10s", "cordon node3", "cordon node4", "scale deployment/web --replicas=8", "advance 10s"}},
		{"Cluster160x48", 160, 48, nil, []string{"advance 10s"}},
		{"Cluster200x50", 200, 50, nil, []string{"advance 10s"}},
		{"Help80x24", 80, 24, []string{"?"}, nil},
		{"Timeline160x48", 160, 48, []string{"3"}, []string{"advance 10s", "drain node1 --ignore-daemonsets --force --grace-period=20", "advance 30s"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := newTestModel(t, "spread-basics", c.w, c.h)
			for _, cmd := range c.cmds {
				if _, err := m.sess.Apply(cmd); err != nil {
					t.Fatalf("%s: %v", cmd, err)
				}
			}
			m.refresh()
			press(m, c.keys...)
			golden.RequireEqual(t, screen(m))
		})
	}
}

func TestKeySequences(t *testing.T) {
	t.Run("scale up with +", func(t *testing.T) {
		m := newTestModel(t, "spread-basics", 100, 30)
		press(m, "tab", "tab", "+", "+")
		if _, err := m.sess.Apply("advance 10s"); err != nil {
			t.Fatal(err)
		}
		m.refresh()
		s := screen(m)
		if !strings.Contains(s, "deployment/web         4/4") {
			t.Fatalf("after two + the deployment has 4 ready replicas:\n%s", s)
		}
	})
	t.Run("taint via the palette", func(t *testing.T) {
		m := newTestModel(t, "spread-basics", 100, 30)
		press(m, "t")
		if !m.pal.open || !strings.HasPrefix(m.pal.in.Value(), "taint node node1 ") {
			t.Fatalf("t prefills the palette: %q", m.pal.in.Value())
		}
		press(m, "enter")
		if !strings.Contains(screen(m), "node1 ⚑1") {
			t.Fatalf("the taint badge shows:\n%s", screen(m))
		}
	})
	t.Run("cordon toggles and undo restores", func(t *testing.T) {
		m := newTestModel(t, "spread-basics", 100, 30)
		press(m, "c")
		if !strings.Contains(screen(m), "node1 ⊘") {
			t.Fatalf("cordon badge:\n%s", screen(m))
		}
		press(m, "u")
		if strings.Contains(screen(m), "node1 ⊘") {
			t.Fatalf("undo removes the cordon:\n%s", screen(m))
		}
		press(m, "ctrl+r")
		if !strings.Contains(screen(m), "node1 ⊘") {
			t.Fatalf("redo cordons again:\n%s", screen(m))
		}
	})
	t.Run("drain shows pending", func(t *testing.T) {
		m := newTestModel(t, "spread-basics", 100, 30)
		typeCommand(m, "advance 10s")
		press(m, "d")
		if got := m.pal.in.Value(); got != "drain node1 --ignore-daemonsets --timeout 2m" {
			t.Fatalf("d prefills %q", got)
		}
		press(m, "enter")
		// node1 runs pods without a controller: kubectl drain refuses them
		if !m.pal.open || !strings.Contains(screen(m), "--force") {
			t.Fatalf("drain without --force must explain the refusal inline:\n%s", screen(m))
		}
		for _, r := range " --force" {
			update(m, tea.KeyPressMsg{Code: r, Text: string(r)})
		}
		press(m, "enter")
		typeCommand(m, "advance 40s")
		s := screen(m)
		if !strings.Contains(s, "node1 ⊘") {
			t.Fatalf("drained node is cordoned:\n%s", s)
		}
	})
	t.Run("pressure evicts and the eviction view ranks", func(t *testing.T) {
		m := newTestModel(t, "spread-basics", 120, 34)
		typeCommand(m, "advance 10s")
		typeCommand(m, "usage deployment/web memory=200%")
		typeCommand(m, "pressure node node4 memory=99%")
		typeCommand(m, "advance 30s")
		press(m, "4")
		s := screen(m)
		if !strings.Contains(s, "node/node4") || !strings.Contains(s, "RANK") {
			t.Fatalf("eviction view:\n%s", s)
		}
	})
	t.Run("delete with grace shows on the timeline", func(t *testing.T) {
		m := newTestModel(t, "spread-basics", 100, 30)
		typeCommand(m, "advance 5s")
		typeCommand(m, "delete pod p3 --grace-period=20")
		typeCommand(m, "advance 5s")
		press(m, "3")
		s := screen(m)
		if !strings.Contains(s, "default/p3") || !strings.Contains(s, "Killing") {
			t.Fatalf("timeline view:\n%s", s)
		}
	})
	t.Run("a broken file keeps the lab and shows every diagnostic", func(t *testing.T) {
		m := newTestModel(t, "spread-basics", 100, 30)
		path := filepath.Join(t.TempDir(), "broken.yaml")
		broken := "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  topologySpreadConstraints:\n  - {maxSkew: 0, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}\n" +
			"  containers:\n  - {name: c, image: pause, resources: {requests: {cpu: lots}}}\n"
		if err := os.WriteFile(path, []byte(broken), 0o644); err != nil {
			t.Fatal(err)
		}
		before := m.sess
		update(m, m.openFileCmd(path)())
		s := screen(m)
		if m.sess != before || !m.pal.open || m.pal.in.Value() != path {
			t.Fatalf("the lab must keep its session and reopen the open palette on %s:\n%s", path, s)
		}
		for _, want := range []string{"broken.yaml:8:", `quantity "lots"`, "broken.yaml:6:", "maxSkew", "keeps its current state"} {
			if !strings.Contains(s, want) {
				t.Errorf("screen lacks %q:\n%s", want, s)
			}
		}
		press(m, "esc")
		if m.pal.open {
			t.Fatal("esc closes the palette")
		}
	})
	t.Run("x deletes the selected pod", func(t *testing.T) {
		m := newTestModel(t, "spread-basics", 100, 30)
		typeCommand(m, "advance 5s")
		key := m.selectedPodKey()
		if !strings.Contains(key, "/") {
			t.Fatalf("selected pod %q is not namespace/name", key)
		}
		press(m, "x")
		if p := m.sess.Engine().Pod(key); p == nil || p.DeletionTimestamp == nil {
			t.Fatalf("x did not delete %s:\n%s", key, screen(m))
		}
		if s := screen(m); strings.Contains(s, "✗") {
			t.Fatalf("x reported an error:\n%s", s)
		}
	})
	t.Run("palette shows inline errors and keeps the text", func(t *testing.T) {
		m := newTestModel(t, "spread-basics", 100, 30)
		typeCommand(m, "cordon node9")
		if !m.pal.open || !strings.Contains(screen(m), `unknown node "node9"`) {
			t.Fatalf("inline error:\n%s", screen(m))
		}
		press(m, "esc")
		if m.pal.open {
			t.Fatal("esc closes the palette")
		}
	})
	t.Run("tab completes in the palette", func(t *testing.T) {
		m := newTestModel(t, "spread-basics", 100, 30)
		press(m, ":", "c", "o", "r", "tab")
		if got := m.pal.in.Value(); got != "cordon " {
			t.Fatalf("completion: %q", got)
		}
	})
}

// Thousands of random keys, mouse events and resizes never panic and keep
// the selection within range.
func TestRandomInput(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	r := rand.New(rand.NewPCG(42, 42))
	keys := []string{"j", "k", "h", "l", "tab", "1", "2", "3", "4", "5", "e", "g", "+", "-", "c", "u", "ctrl+r",
		".", "space", "[", "]", "?", ":", "esc", "enter", "x", "t", "p", "d", "z", "n", "<", ">", "a", "L", "T", "/", "up", "down", "backspace", "ctrl+p"}
	for i := 0; i < 3000; i++ {
		switch r.IntN(10) {
		case 0:
			update(m, tea.WindowSizeMsg{Width: 10 + r.IntN(200), Height: 5 + r.IntN(60)})
		case 1:
			update(m, tea.MouseClickMsg{X: r.IntN(120), Y: r.IntN(40), Button: tea.MouseLeft})
		case 2:
			update(m, tea.MouseWheelMsg{X: r.IntN(120), Y: r.IntN(40), Button: tea.MouseWheelDown})
		case 3:
			update(m, tickMsg{id: m.tickID})
		default:
			k := keys[r.IntN(len(keys))]
			if k == "q" {
				continue
			}
			update(m, keyMsg(k))
		}
		_ = m.View()
		if m.nodeIdx < 0 || (len(m.data.nodes) > 0 && m.nodeIdx >= len(m.data.nodes)) {
			t.Fatalf("node selection out of range: %d of %d", m.nodeIdx, len(m.data.nodes))
		}
		if m.wlIdx < 0 || (len(m.data.workloads) > 0 && m.wlIdx >= len(m.data.workloads)) {
			t.Fatalf("workload selection out of range")
		}
	}
}

// What the screen shows after each of the workshop's verbs.
func TestVerbScreens(t *testing.T) {
	t.Run("scale up spreads over both zones", func(t *testing.T) {
		m := newTestModel(t, "spread-basics", 100, 30)
		press(m, "tab", "tab", "+", "+", "+", "+")
		typeCommand(m, "advance 10s")
		s := screen(m)
		for _, want := range []string{"deployment/web         6/6", "zoneA ████████████████████████████████████████ 3", "zoneB ████████████████████████████████████████ 3", "skew 0 ≤ 1 ✓"} {
			if !strings.Contains(s, want) {
				t.Fatalf("after scaling to 6 the screen shows %q:\n%s", want, s)
			}
		}
	})
	t.Run("taint keeps new pods off the node and explain says why", func(t *testing.T) {
		m := newTestModel(t, "spread-basics", 100, 30)
		press(m, "t", "enter")
		for _, n := range []string{"node2", "node3", "node4"} {
			typeCommand(m, "cordon "+n)
		}
		typeCommand(m, "scale deployment/web --replicas=3")
		typeCommand(m, "advance 10s")
		s := screen(m)
		if !strings.Contains(s, "node1 ⚑1") || !strings.Contains(s, "pending (1)") {
			t.Fatalf("taint badge and one pending pod:\n%s", s)
		}
		press(m, "tab", "tab", "tab", "e")
		s = screen(m)
		if !strings.Contains(s, "TaintToleration: node(s) had untolerated taint(s)") {
			t.Fatalf("explain names the taint:\n%s", s)
		}
	})
	t.Run("drain empties the node and the timeline shows the kills", func(t *testing.T) {
		m := newTestModel(t, "spread-basics", 100, 30)
		typeCommand(m, "advance 10s")
		typeCommand(m, "drain node1 --ignore-daemonsets --force --grace-period=20")
		typeCommand(m, "advance 30s")
		s := screen(m)
		if !strings.Contains(s, "▸node1 ⊘") || !strings.Contains(s, "cpu ▱▱▱▱▱▱▱▱▱▱▱▱   0%") {
			t.Fatalf("drained node1 is cordoned and empty:\n%s", s)
		}
		press(m, "3")
		s = screen(m)
		if !strings.Contains(s, "default/p1") || !strings.Contains(s, "Killing") || !strings.Contains(s, "gone") {
			t.Fatalf("timeline of the drained pods:\n%s", s)
		}
	})
	t.Run("pressure marks the node and ranks its pods", func(t *testing.T) {
		m := newTestModel(t, "spread-basics", 120, 34)
		typeCommand(m, "advance 10s")
		typeCommand(m, "usage deployment/web memory=200%")
		press(m, "l", "j") // node4
		press(m, "p")
		if got := m.pal.in.Value(); got != "pressure node node4 memory=95%" {
			t.Fatalf("p prefills %q", got)
		}
		press(m, "backspace", "backspace", "backspace", "9", "9", "%", "enter")
		typeCommand(m, "advance 5s")
		if s := screen(m); !strings.Contains(s, "node4 ⚑1 ⚠") || !strings.Contains(s, "✕ web-") {
			t.Fatalf("pressure badge (and its taint) on node4, the evicted pod as ✕:\n%s", s)
		}
		press(m, "4")
		s := screen(m)
		if !strings.Contains(s, "node/node4") || !strings.Contains(s, "⚠ MemoryPressure") || !strings.Contains(s, "1    default/mypod        BestEffort") {
			t.Fatalf("eviction view of node4 ranks the BestEffort pod first:\n%s", s)
		}
	})
	t.Run("delete with grace terminates then goes", func(t *testing.T) {
		m := newTestModel(t, "spread-basics", 100, 30)
		typeCommand(m, "advance 5s")
		typeCommand(m, "delete pod p3 --grace-period=20")
		press(m, "3")
		if s := screen(m); !strings.Contains(s, "default/p3") || !strings.Contains(s, "Killing") {
			t.Fatalf("timeline while p3 terminates:\n%s", s)
		}
		typeCommand(m, "advance 30s")
		if s := screen(m); !strings.Contains(s, "gone") {
			t.Fatalf("timeline after p3 is gone:\n%s", s)
		}
	})
}

func TestMouse(t *testing.T) {
	t.Run("a click on a header tab switches view", func(t *testing.T) {
		m := newTestModel(t, "spread-basics", 160, 30)
		line := []rune(strings.Split(screen(m), "\n")[0])
		x := runeIndex(line, []rune("5 events"))
		if x < 0 {
			t.Fatalf("no events tab in the header: %q", string(line))
		}
		update(m, tea.MouseClickMsg{X: x + 2, Y: 0, Button: tea.MouseLeft})
		if got := m.views[m.view].Title(); got != "events" {
			t.Fatalf("view %s after clicking the events tab", got)
		}
	})
	t.Run("a click on a pod glyph selects the pod", func(t *testing.T) {
		// 100×16: the cards show glyphs, "● ● ●"
		m := newTestModel(t, "spread-basics", 100, 16)
		typeCommand(m, "advance 10s")
		lines := strings.Split(screen(m), "\n")
		// node4's card is in the second column: its glyph line is two below its name
		for y, l := range lines {
			r := []rune(l)
			if x := runeIndex(r, []rune(" node4")); x >= 0 {
				glyphs := []rune(lines[y+2])
				gx := x + 1
				for gx < len(glyphs) && !isGlyph(glyphs[gx]) {
					gx++
				}
				gx += 2 // the second glyph
				update(m, tea.MouseClickMsg{X: gx, Y: y + 2, Button: tea.MouseLeft})
				nv, _ := m.selectedNode()
				if nv.Node.Name != "node4" || m.focus != focusPods || m.podIdx != 1 {
					t.Fatalf("selected %s pod %d focus %d", nv.Node.Name, m.podIdx, m.focus)
				}
				press(m, "e")
				if !strings.Contains(screen(m), "explain · "+nv.Pods[1].Pod.Key()) {
					t.Fatalf("e explains the clicked pod:\n%s", screen(m))
				}
				return
			}
		}
		t.Fatalf("node4 not on screen:\n%s", screen(m))
	})
	t.Run("a click on a pod's name selects the pod", func(t *testing.T) {
		// 100×30: the cards list the pods by name
		m := newTestModel(t, "spread-basics", 100, 30)
		typeCommand(m, "advance 10s")
		var node4 lab.NodeView
		for _, nv := range m.data.nodes {
			if nv.Node.Name == "node4" {
				node4 = nv
			}
		}
		name := node4.Pods[1].Pod.Name
		for y, l := range strings.Split(screen(m), "\n") {
			if x := runeIndex([]rune(l), []rune("● "+name)); x >= 0 {
				update(m, tea.MouseClickMsg{X: x + 4, Y: y, Button: tea.MouseLeft})
				nv, _ := m.selectedNode()
				if nv.Node.Name != "node4" || m.focus != focusPods || m.podIdx != 1 {
					t.Fatalf("selected %s pod %d focus %d", nv.Node.Name, m.podIdx, m.focus)
				}
				return
			}
		}
		t.Fatalf("%s not on screen:\n%s", name, screen(m))
	})
	t.Run("the wheel scrolls the events", func(t *testing.T) {
		m := newTestModel(t, "spread-basics", 100, 16)
		typeCommand(m, "advance 10s")
		press(m, "5")
		before := screen(m)
		update(m, tea.MouseWheelMsg{X: 10, Y: 5, Button: tea.MouseWheelUp})
		if screen(m) == before || !strings.Contains(screen(m), "RegisteredNode") {
			t.Fatalf("wheel up shows older events:\n%s", screen(m))
		}
	})
}

func TestLessonAndLegend(t *testing.T) {
	t.Run("the lesson shows as one line at 80×24", func(t *testing.T) {
		m := newTestModel(t, "spread-basics", 80, 24)
		typeCommand(m, "advance 10s")
		if s := screen(m); !strings.Contains(s, "step 1/4 · Where can mypod go? ✓ all checks pass ✓") {
			t.Fatalf("lesson bar:\n%s", s)
		}
		press(m, ">")
		if s := screen(m); !strings.Contains(s, "step 2/4 · Scale the Deployment ✗✓") {
			t.Fatalf("lesson bar of step 2:\n%s", s)
		}
	})
	t.Run("i opens the legend with the workload colours", func(t *testing.T) {
		m := newTestModel(t, "spread-basics", 100, 30)
		press(m, "i")
		s := screen(m)
		for _, want := range []string{"legend", "◇ nominated: a preemptor", "● deployment/web", "⊘ cordoned"} {
			if !strings.Contains(s, want) {
				t.Fatalf("legend shows %q:\n%s", want, s)
			}
		}
		press(m, "esc")
		if m.top != nil || strings.Contains(screen(m), "◇ nominated: a preemptor") {
			t.Fatal("esc closes the legend")
		}
	})
}

// A running clock refreshes the screen when the cluster changes, and at
// least every fullRefreshEvery ticks when it seems quiet.
func TestTickRefresh(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	m.paused = false
	typeCommand(m, "scale deployment/web --replicas=4")
	for i := 0; i < 40 && !strings.Contains(screen(m), "deployment/web         4/4"); i++ {
		update(m, tickMsg{id: m.tickID})
	}
	if !strings.Contains(screen(m), "deployment/web         4/4") {
		t.Fatalf("ticks bring the new replicas to the screen:\n%s", screen(m))
	}
	snap := m.data.snap
	for i := 0; i < fullRefreshEvery; i++ {
		update(m, tickMsg{id: m.tickID})
	}
	if m.data.snap != snap {
		t.Fatal("quiet ticks reuse the frame data")
	}
	update(m, tickMsg{id: m.tickID})
	if m.data.snap == snap {
		t.Fatal("a full refresh comes after fullRefreshEvery quiet ticks")
	}
}

func TestWheelOverPanel(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	lines := strings.Split(screen(m), "\n")
	for y, l := range lines {
		if strings.Contains(l, "╭─ workloads") {
			update(m, tea.MouseWheelMsg{X: 5, Y: y + 1, Button: tea.MouseWheelDown})
			if m.focus != focusWorkloads || m.wlIdx != 1 {
				t.Fatalf("wheel over the workloads: focus %d, row %d", m.focus, m.wlIdx)
			}
			return
		}
	}
	t.Fatal("no workloads panel")
}

// At 80×24 the help covers the views' full width: its borders are the
// screen's edges, not one column in with the boxes below showing beside
// them ("╭╭─ help").
func TestHelpCoversTheWidthAt80(t *testing.T) {
	m := newTestModel(t, "spread-basics", 80, 24)
	press(m, "?")
	lines := strings.Split(screen(m), "\n")
	top := []rune(lines[1])
	if !strings.HasPrefix(lines[1], "╭─ help") || top[len(top)-1] != '╮' {
		t.Fatalf("the help's top border spans the screen:\n%s", screen(m))
	}
	for y := 2; y < 22; y++ {
		r := []rune(lines[y])
		if r[0] != '│' || r[len(r)-1] != '│' || r[1] == '│' || r[len(r)-2] == '│' {
			t.Fatalf("line %d: the help's sides are the screen's edges, with nothing beside them:\n%s", y, screen(m))
		}
	}
}

func TestHelpScrolls(t *testing.T) {
	m := newTestModel(t, "spread-basics", 80, 24)
	press(m, "?")
	if !strings.Contains(screen(m), "more lines") {
		t.Fatalf("the help is taller than 80×24 and says so:\n%s", screen(m))
	}
	for i := 0; i < 60; i++ {
		press(m, "j")
	}
	if _, open := m.top.(*helpOverlay); !open || !strings.Contains(screen(m), "headless commands") || !strings.Contains(screen(m), "0 more lines") {
		t.Fatalf("j scrolls the help to its end:\n%s", screen(m))
	}
	press(m, "esc")
	if m.top != nil {
		t.Fatal("esc closes the help")
	}
}

// A command from the palette reports its output in the status line, as
// the keys' commands do; a failed one stays in the palette with its error.
func TestPaletteReportsOutput(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	typeCommand(m, "cordon node1")
	typeCommand(m, "undo")
	if m.pal.open || m.statusErr || !strings.Contains(m.status, "› undo") || !strings.Contains(m.status, "undid: cordon node1") {
		t.Fatalf("status after undo from the palette: %q (error %v, palette open %v)", m.status, m.statusErr, m.pal.open)
	}
	typeCommand(m, "cordon node9")
	if !m.pal.open || m.pal.in.Value() != "cordon node9" || !strings.Contains(m.pal.err, `unknown node "node9"`) {
		t.Fatalf("a failed command keeps the palette open with its error: open %v, %q, %q", m.pal.open, m.pal.in.Value(), m.pal.err)
	}
}

// Opening a preset or a file adopts its clock as starting the lab does:
// the scenario's speed, and paused when it says so.
func TestOpenAdoptsTheScenarioClock(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	press(m, "space", "]", "]", "]") // playing at ×16 (spread-basics: ×2)
	if m.paused || speeds[m.speedIdx] != 16 {
		t.Fatalf("setup: paused %v at ×%g", m.paused, speeds[m.speedIdx])
	}
	press(m, "ctrl+p")
	pk := m.top.(*picker)
	for i, p := range pk.items {
		if p.Name == "graceful-termination" {
			pk.sel = i
		}
	}
	press(m, "enter")
	if sc := m.sess.File().Scenario; sc == nil || sc.Name != "graceful-termination" {
		t.Fatalf("ctrl+p did not open the preset: %s", m.status)
	}
	if m.paused || speeds[m.speedIdx] != 2 {
		t.Fatalf("the preset's clock is ×2, playing: got paused %v at ×%g", m.paused, speeds[m.speedIdx])
	}

	path := filepath.Join(t.TempDir(), "slow.yaml")
	text := strings.Replace(manyZones(), "seed: 1\n", "seed: 1\nclock: {speed: 0.5, paused: true}\n", 1)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	update(m, m.openFileCmd(path)())
	if m.sess.File().Scenario == nil || m.sess.File().Scenario.Name != "many" {
		t.Fatalf("the file did not open: %s", m.status)
	}
	if !m.paused || speeds[m.speedIdx] != 0.5 {
		t.Fatalf("the file's clock is ×½, paused: got paused %v at ×%g", m.paused, speeds[m.speedIdx])
	}
}

// A click on a row of the workload list selects that row's workload —
// bare pods too, and a workload whose name starts another's — and a click
// on the status line selects nothing.
func TestClickWorkloadRow(t *testing.T) {
	text := `apiVersion: podlab/v1
kind: Scenario
metadata: {name: canary}
seed: 1
cluster:
  node: {cpu: "4", memory: 8Gi, pods: "110"}
  zones:
  - {name: zone-a, nodes: 2}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 10m}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web-v2}
spec:
  replicas: 1
  selector: {matchLabels: {app: web-v2}}
  template:
    metadata: {labels: {app: web-v2}}
    spec:
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 10m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: solo}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 10m}}}]
`
	m := newScenarioModel(t, text, 100, 30)
	typeCommand(m, "advance 10s")
	index := map[string]int{}
	for i, wl := range m.data.workloads {
		index[wl.Ref()] = i
	}
	bare := -1
	for i, wl := range m.data.workloads {
		if wl.Kind == "pods" {
			bare = i
		}
	}
	if _, ok := index["deployment/web-v2"]; !ok || bare < 0 {
		t.Fatalf("workloads: %v", index)
	}
	click := func(label string) {
		t.Helper()
		for y, l := range strings.Split(screen(m), "\n") {
			r := []rune(l)
			if x := runeIndex(r, []rune("● "+label+" ")); x >= 0 {
				update(m, tea.MouseClickMsg{X: x + 3, Y: y, Button: tea.MouseLeft})
				return
			}
		}
		t.Fatalf("no row %q on screen:\n%s", label, screen(m))
	}
	for _, c := range []struct {
		label string
		want  int
	}{
		{"deployment/web-v2", index["deployment/web-v2"]},
		{"deployment/web", index["deployment/web"]},
		{"bare pods", bare},
	} {
		m.focus = focusNodes
		click(c.label)
		if m.focus != focusWorkloads || m.wlIdx != c.want {
			t.Errorf("click on %s: focus %d, workload %d, want %d", c.label, m.focus, m.wlIdx, c.want)
		}
	}
	// the status line names a workload: a click on it selects nothing
	typeCommand(m, "scale deployment/web-v2 --replicas=2")
	m.focus, m.wlIdx = focusNodes, bare
	lines := strings.Split(screen(m), "\n")
	y := len(lines) - 2
	x := runeIndex([]rune(lines[y]), []rune("deployment/web-v2"))
	if x < 0 {
		t.Fatalf("the status line does not name the workload:\n%s", screen(m))
	}
	update(m, tea.MouseClickMsg{X: x + 3, Y: y, Button: tea.MouseLeft})
	if m.focus != focusNodes || m.wlIdx != bare {
		t.Fatalf("a click on the status line selected workload %d (focus %d)", m.wlIdx, m.focus)
	}
}

// runeIndex is the index of sub in line, in runes (-1: absent).
func runeIndex(line, sub []rune) int {
	for i := 0; i+len(sub) <= len(line); i++ {
		if string(line[i:i+len(sub)]) == string(sub) {
			return i
		}
	}
	return -1
}

// isGlyph reports a pod glyph.
func isGlyph(r rune) bool {
	switch string(r) {
	case glyphRunning, glyphStarting, glyphPending, glyphTerminating, glyphEvicting, glyphFailed, glyphNominated:
		return true
	}
	return false
}

// No overlay leaves a sliver of the boxes below beside its borders.
func TestOverlaysCoverTheWidth(t *testing.T) {
	for _, c := range []struct {
		name string
		keys []string
	}{{"help", []string{"?"}}, {"legend", []string{"i"}}, {"presets", []string{"ctrl+p"}}} {
		for _, w := range []int{80, 100} {
			m := newTestModel(t, "spread-basics", w, 24)
			press(m, c.keys...)
			for y, l := range strings.Split(screen(m), "\n")[1:20] {
				if strings.HasPrefix(l, "╭╭") || strings.HasPrefix(l, "││") || strings.HasPrefix(l, "│ │") {
					t.Errorf("%s at %d columns, line %d: a border shows beside the overlay:\n%s", c.name, w, y+1, screen(m))
					break
				}
			}
		}
	}
}

// update is m.Update as the program runs it: a long operation the message
// starts (undo, redo, rewind: a tea.Cmd off the UI goroutine) is run to
// its end here, so the test sees its outcome.
func update(m *Model, msg tea.Msg) tea.Cmd {
	_, cmd := m.Update(msg)
	for m.busy != nil {
		m.Update(m.busy.op())
	}
	return cmd
}

// A click on a pending pod's line (any line of its wrapped message)
// selects it; e explains it.
func TestClickPendingPod(t *testing.T) {
	m := newTestModel(t, "spread-basics", 160, 48)
	for _, c := range []string{"cordon node3", "cordon node4", "scale deployment/web --replicas=8", "advance 10s"} {
		typeCommand(m, c)
	}
	second := m.data.snap.Pending[1].Pod
	name := strings.TrimPrefix(second, "default/")
	for y, l := range strings.Split(screen(m), "\n") {
		if x := runeIndex([]rune(l), []rune("○ "+name)); x >= 0 {
			// the line under the name: its message, wrapped
			update(m, tea.MouseClickMsg{X: x + 30, Y: y + 1, Button: tea.MouseLeft})
			if m.focus != focusPending || m.pendIdx != 1 {
				t.Fatalf("a click on %s's message: focus %d, pending %d", name, m.focus, m.pendIdx)
			}
			press(m, "e")
			if !strings.Contains(screen(m), "explain · "+second) {
				t.Fatalf("e explains the clicked pending pod:\n%s", screen(m))
			}
			return
		}
	}
	t.Fatalf("%s not on screen:\n%s", name, screen(m))
}
