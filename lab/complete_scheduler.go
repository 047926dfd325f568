package lab

import (
	"strings"

	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/lab/command"
)

// schedulerCandidates completes `set scheduler`: first an action or a
// field (with the strategy values spelt out), then the plugin names an
// action takes (score plugins with "=" for weight).
func schedulerCandidates(args []string) []string {
	var words []string
	for _, w := range args {
		if !strings.HasPrefix(w, "-") {
			words = append(words, w)
		}
	}
	if len(words) > 0 {
		switch words[0] {
		case "weight":
			var out []string
			for _, n := range scorePlugins() {
				out = append(out, n+"=")
			}
			return out
		case "enable", "disable":
			return scheduler.RegisteredPlugins()
		case "reset", "add-profile":
			return nil
		}
	}
	out := []string{"weight", "enable", "disable", "add-profile", "reset"}
	for _, f := range command.SchedulerFields {
		switch f {
		case "scoringStrategy":
			for _, v := range command.ScoringStrategies {
				out = append(out, f+"="+v)
			}
		case "ignorePreferredTermsOfExistingPods":
			out = append(out, f+"=true", f+"=false")
		default:
			out = append(out, f+"=")
		}
	}
	return out
}
