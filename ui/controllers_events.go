package ui

import (
	"strings"

	"podlab.dev/podlab/lab"
)

// The controllers view lists each controller's latest decisions from the
// event stream, as `kubectl get events` would show them: the evictions a
// descheduler pass made, the autoscaler's TriggeredScaleUp,
// NotTriggerScaleUp and ScaleDown, the HPA's rescales.

// eventKind says which controller recorded an event ("" for none).
func eventKind(e lab.Event) string {
	switch e.Reason {
	case "TriggeredScaleUp", "NotTriggerScaleUp", "ScaleDown", "ScaleDownFailed":
		return "autoscaler"
	case "SuccessfulRescale", "FailedRescale", "FailedGetResourceMetric", "FailedComputeMetricsReplicas", "FailedGetScale":
		return "hpa"
	}
	if strings.HasSuffix(e.Message, "by sigs.k8s.io/descheduler") {
		return "descheduler"
	}
	return ""
}

// maxScan bounds how far back recentEvents looks: a day of a busy
// cluster records 100,000s of events, and the latest decisions are near
// the end.
const maxScan = 20000

// recentEvents is the latest n events of each controller, oldest first,
// repeats (same reason, object and message) counted once: NotTriggerScaleUp
// is recorded for the same pod on every loop.
func recentEvents(evs []lab.Event, n int) map[string][]lab.Event {
	out := map[string][]lab.Event{}
	seen := map[string]bool{}
	for i := len(evs) - 1; i >= 0 && i >= len(evs)-maxScan; i-- {
		e := evs[i]
		k := eventKind(e)
		if k == "" || len(out[k]) >= n {
			continue
		}
		id := e.Reason + "\x00" + e.Object + "\x00" + e.Message
		if seen[id] {
			continue
		}
		seen[id] = true
		out[k] = append(out[k], e)
	}
	for k, l := range out {
		for i, j := 0, len(l)-1; i < j; i, j = i+1, j-1 {
			l[i], l[j] = l[j], l[i]
		}
		out[k] = l
	}
	return out
}
