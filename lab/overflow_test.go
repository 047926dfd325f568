package lab

import (
	"io"
	"strings"
	"testing"
	"time"
)

// Issue 17 point 6 through the session: the command language refuses what
// the loader refuses, and the engine's saturating time keeps a huge grace
// period's timeline in order.
func TestSessionRefusesOutOfRangeNumbers(t *testing.T) {
	f, err := LoadPreset("graceful-termination")
	if err != nil {
		t.Fatal(err)
	}
	// --for -5s was accepted and ran nothing
	if err := Run(io.Discard, f, RunOptions{For: -5 * time.Second}); err == nil || !strings.Contains(err.Error(), "--for -5s: must be greater than or equal to 0") {
		t.Fatalf("Run --for -5s: %v", err)
	}
	// and past the end of the clock, before running anything
	if err := Run(io.Discard, f, RunOptions{For: 1_000_000 * time.Hour}); err == nil || !strings.Contains(err.Error(), "--for 1000000h0m0s: the virtual clock stops at 100 years") {
		t.Fatalf("Run --for 1000000h: %v", err)
	}
	if err := Describe(io.Discard, f, DescribeOptions{Pod: "drainer", At: -time.Second}); err == nil || !strings.Contains(err.Error(), "--at -1s: must be greater than or equal to 0") {
		t.Fatalf("Describe --at -1s: %v", err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ cmd, want string }{
		{"usage pod/drainer memory=1e30%", "give a percentage from 0% to 10000%"},
		{"usage pod/drainer memory=2Pi", "more than the lab models (at most 1Pi)"},
		{"set spread pod/drainer maxSkew=2147483648", "maxSkew: integer 2147483648 is out of range"},
		{"advance -5s", "must not be negative"},
	} {
		if _, err := s.Apply(tc.cmd); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.cmd, err, tc.want)
		}
	}
	if _, err := s.Apply("advance 5s"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("delete pod stubborn --grace-period=9223372036854775807"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("advance 1m"); err != nil {
		t.Fatal(err)
	}
	tl, ok := s.Engine().Timeline("default/stubborn")
	if !ok {
		t.Fatal("no timeline for stubborn")
	}
	for _, c := range tl.Containers {
		for _, sp := range c.Spans {
			if sp.End < sp.Start {
				t.Errorf("%s %s–%s ends before it starts", sp.Phase, sp.Start, sp.End)
			}
		}
	}
}

func TestWorkloadCPULoadIsRangeChecked(t *testing.T) {
	f, err := LoadPreset("spread-basics")
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ cmd, want string }{
		{"usage deployment/web cpu=5e12", "more than the lab models"},
		{"usage deployment/web cpu=NaN%", "give a percentage from 0% to 10000%"},
		{"scale deployment/web --replicas=2147483647", "exceeded quota: podlab-object-budget"},
	} {
		if _, err := s.Apply(tc.cmd); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.cmd, err, tc.want)
		}
	}
}

// A grace period beyond the clock's end (100 years) never ends: the
// timeline showed "SIGTERM 5s–9223372036.854776s · SIGKILL 9223372036.854776s
// · Gone 9223372036.854776s" and the TUI "gone 92233720…" for a pod that
// is still terminating. Phases past the clock's end are left out and the
// one that reaches it stays open.
func TestGracePeriodBeyondClockNeverEnds(t *testing.T) {
	f, err := LoadPreset("graceful-termination")
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"advance 5s", "delete pod stubborn --grace-period=9223372036854775807", "advance 1m"} {
		if _, err := s.Apply(cmd); err != nil {
			t.Fatal(err)
		}
	}
	tl, ok := s.Engine().Timeline("default/stubborn")
	if !ok {
		t.Fatal("no timeline for stubborn")
	}
	got := FormatSpans(tl.Pod)
	if want := "Running 2s–5s · SIGTERM 5s–…"; !strings.HasSuffix(got, want) {
		t.Errorf("pod timeline %q, want it to end %q", got, want)
	}
	for _, c := range tl.Containers {
		if got := FormatSpans(c.Spans); !strings.HasSuffix(got, "SIGTERM 5s–…") {
			t.Errorf("container %s: %q", c.Name, got)
		}
	}
	// a grace period inside the clock keeps its planned end
	s2, _ := NewSession(f, SessionOptions{})
	for _, cmd := range []string{"advance 5s", "delete pod stubborn --grace-period=2147483648", "advance 1m"} {
		if _, err := s2.Apply(cmd); err != nil {
			t.Fatal(err)
		}
	}
	tl, _ = s2.Engine().Timeline("default/stubborn")
	if got, want := FormatSpans(tl.Pod), "SIGTERM 5s–2147483653s · SIGKILL 2147483653s · Gone 2147483653s"; !strings.HasSuffix(got, want) {
		t.Errorf("pod timeline %q, want it to end %q", got, want)
	}
}
