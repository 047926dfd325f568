package lab

import (
	"fmt"
	"io"
	"strings"
	"unicode"

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
	fmt.Fprintf(w, "profile %s\n", sanitize(ex.Profile))
	for _, p := range ex.Policy {
		fmt.Fprintf(w, "  %s\n", sanitize(p))
	}
}

// sanitize replaces control characters (terminal escapes in a
// user-written profile name) before printing.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return '?'
	}, s)
}

// ExplainProfileLines is the explain views' profile block, for the UI: the
// profile's name and what it does differently from the default profile,
// sanitized; nil for the default profile.
func ExplainProfileLines(ex *scheduler.Explanation) []string {
	if isDefaultProfile(ex) {
		return nil
	}
	out := []string{"profile " + sanitize(ex.Profile)}
	for _, p := range ex.Policy {
		out = append(out, "  "+sanitize(p))
	}
	return out
}
