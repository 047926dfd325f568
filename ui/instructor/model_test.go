package instructor

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"podlab.dev/podlab/lab/workshop"
)

type fakeRoom struct {
	rows      []workshop.Progress
	frames    map[string]string
	pushed    []int
	broadcast []string
	reset     []string
	ended     bool
}

func (f *fakeRoom) Snapshot() []workshop.Progress { return append([]workshop.Progress(nil), f.rows...) }
func (f *fakeRoom) Frame(name string) (string, int, int, bool) {
	fr, ok := f.frames[name]
	return fr, 80, 24, ok
}
func (f *fakeRoom) PushStep(step int)       { f.pushed = append(f.pushed, step) }
func (f *fakeRoom) Broadcast(msg string)    { f.broadcast = append(f.broadcast, msg) }
func (f *fakeRoom) Reset(name string) error { f.reset = append(f.reset, name); return nil }
func (f *fakeRoom) End()                    { f.ended = true }
func (f *fakeRoom) Lesson() (string, []string) {
	return "Spread basics", []string{"Where can mypod go?", "Scale the Deployment", "A cordoned zone", "Let them land"}
}
func (f *fakeRoom) Events() []string { return []string{"10:00:00 ada joined"} }
func (f *fakeRoom) Connect() string  { return "ssh -p 2222 workshop.example" }

var t0 = time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)

func newModel(room *fakeRoom, remote bool) *Model {
	m := New(room, Options{Remote: remote, Now: func() time.Time { return t0 }})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	return m
}

func keys(m *Model, ks ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range ks {
		var msg tea.KeyPressMsg
		switch k {
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		case "down":
			msg = tea.KeyPressMsg{Code: tea.KeyDown}
		default:
			for _, r := range k {
				_, cmd = m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
			}
			continue
		}
		_, cmd = m.Update(msg)
	}
	return cmd
}

func view(m *Model) string { return ansi.Strip(m.View().Content) }

func prog(name string, step, passed, total int, sinceStep, sinceInput, sinceProgress time.Duration, last string) workshop.Progress {
	return workshop.Progress{Name: name, Online: true, Step: step, Steps: 4, StepTitle: "step title", Passed: passed, Total: total,
		StepSince: t0.Add(-sinceStep), LastInput: t0.Add(-sinceInput), LastProgress: t0.Add(-sinceProgress), LastCommand: last}
}

func TestTableUpdatesLiveAndSorts(t *testing.T) {
	room := &fakeRoom{rows: []workshop.Progress{
		prog("ada", 1, 1, 2, 3*time.Minute, 10*time.Second, 10*time.Second, "scale deployment/web --replicas=6"),
		prog("bob", 0, 0, 1, 7*time.Minute, 10*time.Second, 7*time.Minute, ""),
	}}
	m := newModel(room, false)
	v := view(m)
	for _, l := range strings.Split(v, "\n") {
		if ansi.StringWidth(l) > 120 {
			t.Errorf("line wider than the terminal: %q", l)
		}
	}
	for _, want := range []string{"podlab workshop · Spread basics", "ssh -p 2222 workshop.example", "2 connected", "ada", "2/4 step title", "1/2", "3m00s", "scale deployment/web --replicas=6", "stuck", "10:00:00 ada joined"} {
		if !strings.Contains(v, want) {
			t.Errorf("table lacks %q:\n%s", want, v)
		}
	}
	// by step: ada (step 2) before bob
	if r := m.Rows(); r[0].Name != "ada" || r[1].Name != "bob" {
		t.Fatalf("sorted by step: %v, %v", r[0].Name, r[1].Name)
	}
	// the room moves on; the next tick shows it
	room.rows[1] = prog("bob", 2, 1, 1, 0, 0, 0, "cordon node3")
	room.rows = append(room.rows, prog("cy", 0, 0, 1, 0, 0, 0, ""))
	m.Update(tickMsg{m.tickID})
	v = view(m)
	if !strings.Contains(v, "cordon node3") || !strings.Contains(v, "cy") || !strings.Contains(v, "3 connected") {
		t.Errorf("the tick did not reload the table:\n%s", v)
	}
	if r := m.Rows(); r[0].Name != "bob" {
		t.Errorf("bob is furthest now, first by step: %v", r[0].Name)
	}
	keys(m, "s", "s") // step → checks → time on step
	if m.sortKey != workshop.ByTimeOnStep || m.Rows()[0].Name != "ada" {
		t.Errorf("sort %s: first %s", m.sortKey, m.Rows()[0].Name)
	}
}

func TestPushBroadcastReset(t *testing.T) {
	room := &fakeRoom{rows: []workshop.Progress{prog("ada", 0, 0, 1, 0, 0, 0, ""), prog("bob", 0, 0, 1, 0, 0, 0, "")}}
	m := newModel(room, false)
	keys(m, "p", "9", "enter")
	if len(room.pushed) != 0 || !strings.Contains(view(m), "give a step number from 1 to 4") {
		t.Fatalf("step 9 of 4 was pushed: %v", room.pushed)
	}
	keys(m, "esc", "p", "3", "enter")
	if len(room.pushed) != 1 || room.pushed[0] != 2 {
		t.Fatalf("push 3: %v", room.pushed)
	}
	keys(m, "b", "look at the spread panel", "enter")
	if len(room.broadcast) != 1 || room.broadcast[0] != "look at the spread panel" {
		t.Fatalf("broadcast: %v", room.broadcast)
	}
	keys(m, "down", "r", "n")
	if len(room.reset) != 0 {
		t.Fatal("reset without a yes")
	}
	keys(m, "r", "y")
	if len(room.reset) != 1 || room.reset[0] != "bob" {
		t.Fatalf("reset the selected participant: %v", room.reset)
	}
}

func TestSpotlightMirrorsTheSelectedScreen(t *testing.T) {
	room := &fakeRoom{
		rows:   []workshop.Progress{prog("ada", 0, 0, 1, 0, 0, 0, ""), prog("bob", 0, 0, 1, 0, 0, 0, "")},
		frames: map[string]string{"ada": "ADA'S LAB\nnode1 node2", "bob": "BOB'S LAB\n" + strings.Repeat("x", 300)},
	}
	m := newModel(room, false)
	keys(m, "enter")
	v := view(m)
	if !strings.Contains(v, "spotlight: ada (read-only") || !strings.Contains(v, "ADA'S LAB") || !strings.Contains(v, "node1 node2") {
		t.Fatalf("spotlight:\n%s", v)
	}
	keys(m, "down")
	v = view(m)
	if !strings.Contains(v, "BOB'S LAB") {
		t.Fatalf("↓ moves the spotlight to the next participant:\n%s", v)
	}
	for _, l := range strings.Split(v, "\n") {
		if ansi.StringWidth(l) > 120 {
			t.Errorf("a mirrored line is wider than the instructor's terminal: %d", ansi.StringWidth(l))
		}
	}
	// read-only: keys do not reach the participant (the room sees no action)
	keys(m, "p", "b", "r")
	if len(room.pushed)+len(room.broadcast)+len(room.reset) != 0 {
		t.Error("keys in the spotlight acted on the room")
	}
	keys(m, "esc")
	if !strings.Contains(view(m), "NAME") {
		t.Error("esc does not go back to the table")
	}
}

func TestEndShowsTheSummaryAndQuitDiffersForRemote(t *testing.T) {
	room := &fakeRoom{rows: []workshop.Progress{prog("ada", 3, 2, 2, 0, 0, 0, "")}}
	room.rows[0].DoneMask = 0b1111
	m := newModel(room, false)
	if cmd := keys(m, "q"); cmd != nil || !strings.Contains(view(m), "end the workshop") {
		t.Fatal("q in the local view asks before ending")
	}
	keys(m, "y")
	v := view(m)
	if !room.ended || !strings.Contains(v, "1 participants; 1 finished") || !strings.Contains(v, "step 4 Let them land") {
		t.Fatalf("summary:\n%s", v)
	}
	if cmd := keys(m, "q"); cmd == nil {
		t.Error("q after the summary does not close")
	}

	remote := newModel(&fakeRoom{}, true)
	if cmd := keys(remote, "q"); cmd == nil {
		t.Error("q in a remote view should leave at once")
	}
	if room2 := remote.room.(*fakeRoom); room2.ended {
		t.Error("leaving a remote view ended the workshop")
	}
}
