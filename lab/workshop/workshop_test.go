package workshop

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/lab"
)

func session(t *testing.T, l Limits, noFiles bool) *lab.Session {
	t.Helper()
	f, err := lab.LoadPreset("spread-basics")
	if err != nil {
		t.Fatal(err)
	}
	s, err := lab.NewSession(f, lab.SessionOptions{Guard: l.Guard(), NoFiles: noFiles})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestLimitsRefuseAndLeaveNoTrace(t *testing.T) {
	l := Limits{Nodes: 6, Pods: 20, Objects: 40, Advance: time.Hour}
	cases := []struct {
		line, what string
	}{
		{"scale deployment/web --replicas=21", "pods"},
		{"add zone zone-c --nodes 3", "nodes"},
		{"advance 2h", "advance"},
		// a DaemonSet's pods are only known after it ran: After undoes it
		{`apply --inline 'apiVersion: apps/v1
kind: Deployment
metadata: {name: big}
spec:
  replicas: 30
  selector: {matchLabels: {app: big}}
  template:
    metadata: {labels: {app: big}}
    spec: {containers: [{name: c, image: x}]}'`, "pods"},
	}
	for _, c := range cases {
		t.Run(c.what, func(t *testing.T) {
			s := session(t, l, false)
			before := Count(s)
			_, err := s.Apply(c.line)
			var le *LimitError
			if !errors.As(err, &le) {
				t.Fatalf("%s: want a limit error, got %v", c.line, err)
			}
			if !strings.Contains(err.Error(), "workshop limit") || !strings.Contains(le.What, c.what) {
				t.Errorf("message %q does not name the %s limit", err, c.what)
			}
			if got := Count(s); got != before || len(s.History()) != 0 {
				t.Errorf("refused command left a trace: %+v → %+v, history %v", before, got, s.History())
			}
		})
	}
	s := session(t, l, false)
	if _, err := s.Apply("scale deployment/web --replicas=6"); err != nil {
		t.Fatalf("within the limits: %v", err)
	}
}

func TestLimitCommandsKeepsUndoCheap(t *testing.T) {
	s := session(t, Limits{Commands: 2}, false)
	for _, line := range []string{"cordon node1", "cordon node2"} {
		if _, err := s.Apply(line); err != nil {
			t.Fatal(err)
		}
	}
	_, err := s.Apply("cordon node3")
	var le *LimitError
	if !errors.As(err, &le) || le.What != "commands" || !strings.Contains(err.Error(), "fresh lab") {
		t.Fatalf("third command: %v", err)
	}
	if _, err := s.Apply("undo"); err != nil {
		t.Errorf("undo past the limit: %v", err)
	}
}

func TestLimitAfterUndoesWhatOnlyTheClusterKnows(t *testing.T) {
	// 4 nodes, a DaemonSet puts one pod on each: 4 + existing pods > 5
	s := session(t, Limits{Pods: 5}, false)
	_, err := s.Apply(`apply --inline 'apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: c, image: x}]}'`)
	var le *LimitError
	if !errors.As(err, &le) || le.What != "pods" {
		t.Fatalf("want the pods limit, got %v", err)
	}
	for _, w := range s.Workloads() {
		if w.Name == "agent" {
			t.Fatalf("the DaemonSet is still there after the refusal")
		}
	}
}

func TestNoFilesRefusesApplyFile(t *testing.T) {
	s := session(t, Limits{}, true)
	if _, err := s.Apply("apply -f /etc/passwd"); !errors.Is(err, lab.ErrNoFiles) {
		t.Fatalf("apply -f in a served session: want ErrNoFiles, got %v", err)
	}
	s = session(t, Limits{}, false)
	if _, err := s.Apply("apply -f /nonexistent/x.yaml"); err == nil || errors.Is(err, lab.ErrNoFiles) {
		t.Fatalf("a normal session reads files: got %v", err)
	}
}

func TestTrackerFollowsStepsChecksAndCommands(t *testing.T) {
	s := session(t, DefaultLimits, true)
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	tr := NewTracker("ada", t0)
	tr.Observe(s, t0, time.Second)
	p := tr.Progress()
	if p.Step != 0 || p.Steps != 4 || p.Total != 1 || p.Passed != 1 || p.Done != 1 {
		t.Fatalf("step 1: %+v", p)
	}
	s.SetStep(1)
	t1 := t0.Add(time.Minute)
	if !tr.Observe(s, t1, time.Second) {
		t.Fatal("a step change is a change")
	}
	p = tr.Progress()
	if p.Step != 1 || p.Passed != 1 || p.Total != 2 || !p.StepSince.Equal(t1) {
		t.Fatalf("step 2 before scaling: %+v", p)
	}
	if _, err := s.Apply("scale deployment/web --replicas=6"); err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(2 * time.Minute); err != nil {
		t.Fatal(err)
	}
	t2 := t1.Add(time.Minute)
	tr.Observe(s, t2, time.Second)
	p = tr.Progress()
	if p.Passed != 2 || p.Commands != 1 || p.LastCommand != "scale deployment/web --replicas=6" || !p.LastProgress.Equal(t2) || p.Done != 2 {
		t.Fatalf("step 2 after scaling: %+v", p)
	}
	// nothing changed and within `every`: no re-evaluation
	if tr.Observe(s, t2.Add(100*time.Millisecond), time.Second) {
		t.Fatal("observed a change where there was none")
	}
}

func TestStatusOf(t *testing.T) {
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	m := Markers{IdleAfter: 2 * time.Minute, StuckAfter: 5 * time.Minute}
	base := Progress{Online: true, Step: 1, Steps: 4, Passed: 0, Total: 2, LastInput: now, LastProgress: now}
	cases := []struct {
		name string
		edit func(*Progress)
		want Status
	}{
		{"working", func(p *Progress) {}, StatusOK},
		{"offline", func(p *Progress) { p.Online = false }, StatusOffline},
		{"idle", func(p *Progress) { p.LastInput = now.Add(-3 * time.Minute) }, StatusIdle},
		{"stuck while typing", func(p *Progress) { p.LastProgress = now.Add(-6 * time.Minute) }, StatusStuck},
		{"stuck beats idle", func(p *Progress) {
			p.LastProgress, p.LastInput = now.Add(-6*time.Minute), now.Add(-6*time.Minute)
		}, StatusStuck},
		{"complete step is not stuck", func(p *Progress) { p.Passed, p.LastProgress = 2, now.Add(-time.Hour) }, StatusOK},
		{"done", func(p *Progress) { p.Step, p.Passed = 3, 2 }, StatusDone},
	}
	for _, c := range cases {
		p := base
		c.edit(&p)
		if got := m.StatusOf(p, now); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestSortAndSummary(t *testing.T) {
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	rows := []Progress{
		{Name: "cy", Step: 2, Steps: 3, Passed: 1, Total: 1, DoneMask: 0b101, StepSince: now.Add(-time.Minute), LastInput: now},
		{Name: "Ada", Step: 0, Steps: 3, Passed: 0, Total: 1, DoneMask: 0b001, StepSince: now.Add(-9 * time.Minute), LastInput: now.Add(-4 * time.Minute)},
		{Name: "bo", Step: 2, Steps: 3, Passed: 0, Total: 1, StepSince: now.Add(-3 * time.Minute), LastInput: now.Add(-time.Minute)},
	}
	order := func() string {
		var n []string
		for _, r := range rows {
			n = append(n, r.Name)
		}
		return strings.Join(n, ",")
	}
	for _, c := range []struct {
		key  SortKey
		want string
	}{{ByName, "Ada,bo,cy"}, {ByStep, "bo,cy,Ada"}, {ByChecks, "cy,bo,Ada"}, {ByTimeOnStep, "Ada,bo,cy"}, {ByIdle, "Ada,bo,cy"}} {
		Sort(rows, c.key, now)
		if got := order(); got != c.want {
			t.Errorf("by %s: %s, want %s", c.key, got, c.want)
		}
	}
	s := Summarize(rows)
	// bo was pushed to step 3 without passing a step: counts for none
	if s.Participants != 3 || s.Finished != 1 || len(s.StepsDone) != 3 || s.StepsDone[0] != 2 || s.StepsDone[1] != 0 || s.StepsDone[2] != 1 {
		t.Errorf("summary %+v", s)
	}
}

func TestWriteRecord(t *testing.T) {
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	rows := RecordRows([]Progress{{Name: "ada", Online: true, Step: 1, Steps: 4, StepTitle: "Scale, now", Passed: 1, Total: 2, LastCommand: "scale deployment/web --replicas=6", Joined: now, StepSince: now.Add(-90 * time.Second), LastInput: now, LastProgress: now}}, DefaultMarkers, now)
	var b bytes.Buffer
	if err := WriteRecord(&b, RecordFormat("notes.csv"), rows); err != nil {
		t.Fatal(err)
	}
	want := "name,step,step_title,checks_passed,checks_total,steps_done,steps,commands,last_command,status,joined,seconds_on_step\n" +
		"ada,2,\"Scale, now\",1,2,0,4,0,scale deployment/web --replicas=6,,2026-01-01T10:00:00Z,90\n"
	if b.String() != want {
		t.Errorf("csv:\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := WriteRecord(&b, RecordFormat("notes.JSON"), rows); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"name": "ada"`) || !strings.Contains(b.String(), `"secondsOnStep": 90`) {
		t.Errorf("json: %s", b.String())
	}
}

func TestOneLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"scale web", 50, "scale web"},
		{"apply --inline 'kind: Pod\nmetadata:\n\tname: x'", 50, "apply --inline 'kind: Pod metadata:  name: x'"},
		{"x\x1b]0;pwned\x07\x1b[2Jy", 50, "x]0;pwned[2Jy"},
		{"abcdef", 3, "abc…"},
	} {
		if got := OneLine(c.in, c.max); got != c.want {
			t.Errorf("OneLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ada", "ada"}, {"  Ada   Lovelace ", "Ada Lovelace"}, {"x\x1b[31mred", "x31mred"},
		{"averyveryverylongname-that-goes-on", "averyveryverylongnam"}, {"naïve_ü.2", "naïve_ü.2"},
	} {
		if got := CleanName(c.in); got != c.want {
			t.Errorf("CleanName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, u := range []string{"root", "Ubuntu", "", "ec2-user"} {
		if !IsGeneric(u) {
			t.Errorf("%q should be generic", u)
		}
	}
	if IsGeneric("ada") {
		t.Error("ada is a name")
	}
}

func TestCleanNameCutAtAWordGap(t *testing.T) {
	// 19 letters, a space, then a word: the cut falls on the space
	got := CleanName("abcdefghijklmnopqrs tuvw")
	if got != "abcdefghijklmnopqrs" || len([]rune(got)) > MaxNameLen {
		t.Fatalf("CleanName = %q (%d runes), want the first word only", got, len([]rune(got)))
	}
}
