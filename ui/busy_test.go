package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Undo runs off the UI goroutine: until it returns the screen is the last
// frame with a progress line, keys and ticks leave the session alone, and
// its end reports in the status line.
func TestUndoRunsOffTheUIGoroutine(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	typeCommand(m, "advance 10s")
	typeCommand(m, "cordon node1")
	before := m.View().Content
	_, cmd := m.Update(keyMsg("u"))
	if cmd == nil || m.busy == nil {
		t.Fatal("u starts the undo as a command, off the UI goroutine")
	}
	if got := m.View().Content; got != before {
		t.Fatalf("while the undo runs the frame is the last one drawn:\n%s", got)
	}
	m.busy.since = time.Now().Add(-time.Second) // a slow undo
	if got := m.View().Content; !strings.Contains(got, "undo… 1.0s") {
		t.Fatalf("a slow undo shows its progress in the status line:\n%s", got)
	}
	now, history := m.sess.Now(), len(m.sess.History())
	m.Update(keyMsg("c"))
	m.Update(tickMsg{id: m.tickID})
	if m.sess.Now() != now || len(m.sess.History()) != history {
		t.Fatal("keys and ticks wait while the undo runs")
	}
	m.Update(cmd())
	if m.busy != nil || !strings.Contains(screen(m), "undid: cordon node1") || strings.Contains(screen(m), "node1 ⊘") {
		t.Fatalf("the undo's end shows in the status line and the frame:\n%s", screen(m))
	}
	if m.Update(pressKey(t, "ctrl+c")); m.top == nil {
		t.Fatal("after the undo keys work again (ctrl+c asks about the unsaved advance)")
	}
}

// The lab's progress reports show as a bar with the steps done.
func TestProgressShowsSteps(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	typeCommand(m, "cordon node1")
	_ = m.View()
	_, cmd := m.Update(keyMsg("u"))
	m.busy.since = time.Now().Add(-time.Second)
	m.Update(progressMsg{what: "undo", done: 3, total: 12})
	if got := m.View().Content; !strings.Contains(got, " 3/12") || !strings.Contains(got, "▰") {
		t.Fatalf("the progress line shows 3/12 with a bar:\n%s", got)
	}
	m.Update(cmd())
	if m.busy != nil {
		t.Fatal("the undo ended")
	}
}

// Opening a file runs off the UI goroutine: a big import's progress
// shows in the status line, and a file that fails to load leaves the lab
// as it was.
func TestOpenShowsImportProgress(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	_ = m.View()
	before := m.sess
	path := filepath.Join(t.TempDir(), "missing.yaml")
	cmd := m.openFileCmd(path)
	if m.busy == nil {
		t.Fatal("opening a file is a long operation")
	}
	m.busy.since = time.Now().Add(-time.Second) // a big import
	m.Update(progressMsg{what: "opening missing.yaml", done: 4000, total: 10000})
	got := m.View().Content
	if !strings.Contains(got, "opening missing.yaml…") || !strings.Contains(got, " 4000/10000") || !strings.Contains(got, "▰") {
		t.Fatalf("the status line shows the import's progress with a bar:\n%s", got)
	}
	m.Update(cmd())
	if m.busy != nil || m.sess != before || !strings.Contains(screen(m), "keeps its current state") {
		t.Fatalf("a failed open ends the progress line and keeps the lab:\n%s", screen(m))
	}
}

// bigNodeList is a `kubectl get nodes -o yaml` List of n nodes whose
// managedFields make it big enough (> 4 MiB) for the item-by-item import
// that reports progress.
func bigNodeList(n int) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nitems:\n")
	pad := strings.Repeat("          f:padding-field-of-the-kubelet: {}\n", 60)
	for i := range n {
		fmt.Fprintf(&b, "- apiVersion: v1\n  kind: Node\n  metadata:\n    labels:\n      topology.kubernetes.io/zone: zone-a\n"+
			"    managedFields:\n    - apiVersion: v1\n      fieldsType: FieldsV1\n      fieldsV1:\n        f:status:\n%s"+
			"      manager: kubelet\n      operation: Update\n    name: node-%d\n"+
			"  status:\n    allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n    capacity: {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n", pad, i)
	}
	b.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	return b.String()
}

// Opening a big kubectl List reports its progress to the program (the
// lab's callback, run on the loading goroutine, sends progressMsg).
func TestOpenSendsImportProgress(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	path := filepath.Join(t.TempDir(), "nodes.yaml")
	if err := os.WriteFile(path, []byte(bigNodeList(2000)), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []progressMsg
	m.send = func(msg tea.Msg) {
		if p, ok := msg.(progressMsg); ok {
			got = append(got, p)
		}
	}
	m.Update(m.openFileCmd(path)())
	if len(got) == 0 || got[len(got)-1].done != 2000 || got[len(got)-1].total != 2000 || got[0].what != "opening nodes.yaml" {
		t.Fatalf("progress sent while loading: %+v (status %q)", got, m.status)
	}
	if m.busy != nil || m.sess.Engine().Node("node-1999") == nil {
		t.Fatalf("the List opened: %s", m.status)
	}
}

// `advance 8760h` froze the screen for the seconds a virtual year takes,
// with the palette open and no word of what was going on: a long advance
// runs off the UI goroutine with the progress line, as undo does.
func TestLongAdvanceRunsOffTheUIGoroutine(t *testing.T) {
	m := newTestModel(t, "spread-basics", 100, 30)
	_ = m.View()
	press(m, ":")
	for _, r := range "advance 2h" {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	_, cmd := m.Update(keyMsg("enter"))
	if cmd == nil || m.busy == nil {
		t.Fatal("a long advance starts as a command, off the UI goroutine")
	}
	if m.sess.Now() != 0 {
		t.Fatalf("the clock moved on the UI goroutine: %s", m.sess.Now())
	}
	m.busy.since = time.Now().Add(-time.Second)
	if got := m.View().Content; !strings.Contains(got, "advance 2h… 1.0s") {
		t.Fatalf("a long advance shows its progress:\n%s", got)
	}
	m.Update(cmd())
	if m.busy != nil || m.sess.Now() < 2*3600e9 || !strings.Contains(screen(m), "advance 2h") {
		t.Fatalf("the advance ended and says so:\n%s", screen(m))
	}
	// a short one still runs at once, and a bad one keeps the palette open
	typeCommand(m, "advance 10s")
	if m.busy != nil {
		t.Fatal("advance 10s runs at once")
	}
}
