package lab

import (
	"fmt"
	"io"
	"podlab.dev/podlab/lab/textsafe"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
)

// isDefaultProfile reports whether the explanation comes from the default
// profile with default settings (the explain views then say nothing about
// the policy, as before configurations existed).
func isDefaultProfile(ex *scheduler.Explanation) bool {
	return (ex.Profile == "" || ex.Profile == api.DefaultSchedulerName) && len(ex.Policy) == 0
}

// writeExplainProfile prints the profile in force and what it does
// differently from the default one, under explain's first line.
func writeExplainProfile(w io.Writer, ex *scheduler.Explanation) {
	if isDefaultProfile(ex) {
		return
	}
	fmt.Fprintf(w, "profile %s\n", textsafe.Line(ex.Profile))
	for _, p := range ex.Policy {
		fmt.Fprintf(w, "  %s\n", textsafe.Line(p))
	}
}

// ExplainProfileLines is the explain views' profile block, for the UI: the
// profile's name and what it does differently from the default profile,
// sanitized; nil for the default profile.
func ExplainProfileLines(ex *scheduler.Explanation) []string {
	if isDefaultProfile(ex) {
		return nil
	}
	out := []string{"profile " + textsafe.Line(ex.Profile)}
	for _, p := range ex.Policy {
		out = append(out, "  "+textsafe.Line(p))
	}
	return out
}
