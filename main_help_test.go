package main

import (
	"bytes"
	"strings"
	"testing"
)

// A check that does not parse points at `podlab help checks`
// (lab/scenario_parse.go): it lists every check function with its usage.
func TestHelpChecks(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"help", "checks"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"status(pod/NAME)", "kubectl get pods", "max_over_time(", "skew(", "operators"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("help checks lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "Usage:") {
		t.Errorf("help checks prints the general usage:\n%s", out.String())
	}
}
