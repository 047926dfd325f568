package preemption

import (
	"fmt"
	"sort"
	"strings"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// ReasonNotHelpful is the status of nodes preemption did not try (their
// filter failure was unresolvable) in the post-filter message.
const ReasonNotHelpful = "Preemption is not helpful for scheduling"

// Messages of PodEligibleToPreemptOthers.
const (
	MsgPreemptNever           = "not eligible due to preemptionPolicy=Never."
	MsgTerminatingOnNominated = "not eligible due to a terminating pod on the nominated node."
)

// FitMessage formats "0/N nodes are available: <histogram>." as
// framework.FitError.Error does: every reason of every explicit status
// counts once per node, nodes without a status count under absentReason,
// and the "<count> <reason>" entries are sorted as plain strings (so "10 …"
// sorts before "2 …") and joined with ", ". With no reasons at all only
// "0/N nodes are available:" remains, as upstream.
func FitMessage(numNodes int, statuses map[string]*framework.Status, absentReason string) string {
	hist := map[string]int{}
	for _, st := range statuses {
		if st == nil {
			continue
		}
		for _, r := range st.Reasons {
			hist[r]++
		}
	}
	if absent := numNodes - len(statuses); absent > 0 && absentReason != "" {
		hist[absentReason] += absent
	}
	msg := fmt.Sprintf("0/%d nodes are available:", numNodes)
	if len(hist) == 0 {
		return msg
	}
	entries := make([]string, 0, len(hist))
	for r, n := range hist {
		entries = append(entries, fmt.Sprintf("%d %s", n, r))
	}
	sort.Strings(entries)
	return msg + " " + strings.Join(entries, ", ") + "."
}

// postFilterMessage prefixes a message as DefaultPreemption.PostFilter does.
func postFilterMessage(msg string) string {
	if msg == "" {
		return ""
	}
	return "preemption: " + msg
}
