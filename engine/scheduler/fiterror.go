package scheduler

import (
	"sort"
	"strconv"
	"strings"
)

// fitErrorMessage formats the unschedulable message exactly as
// framework.FitError.Error() (pkg/scheduler/framework/types.go):
// "0/N nodes are available:", then either the PreFilter rejection's
// message or the reason histogram — "<count> <reason>" entries sorted with
// a plain string sort (so "10 …" sorts before "2 …") joined by ", " — and
// ".", then " " + the PostFilter (preemption) message when there is one.
func fitErrorMessage(numAllNodes int, preFilterMsg string, reasons map[string]int, postFilterMsg string) string {
	var b strings.Builder
	b.WriteString("0/")
	b.WriteString(strconv.Itoa(numAllNodes))
	b.WriteString(" nodes are available:")
	if preFilterMsg != "" {
		b.WriteString(" ")
		b.WriteString(preFilterMsg)
		b.WriteString(".")
	} else if len(reasons) > 0 {
		entries := make([]string, 0, len(reasons))
		for reason, count := range reasons {
			entries = append(entries, strconv.Itoa(count)+" "+reason)
		}
		sort.Strings(entries)
		b.WriteString(" ")
		b.WriteString(strings.Join(entries, ", "))
		b.WriteString(".")
	}
	if postFilterMsg != "" {
		b.WriteString(" ")
		b.WriteString(postFilterMsg)
	}
	return b.String()
}
