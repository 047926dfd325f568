package descheduler

import (
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// TestUpstreamNewPodEvictor ports TestNewPodEvictor
// (pkg/descheduler/evictions/evictions_test.go:173), its 12 cases: one
// pod "pod" on node "node", the three limits, an eviction API that
// accepts or fails with "eviction error", and the events recorded with
// and without evictionFailureEventNotification. podlab's dry run judges
// with the caller's EvictFunc, so the dry-run cases (:255, :318) use one
// that accepts, as upstream's dry run never calls the API.
func TestUpstreamNewPodEvictor(t *testing.T) {
	u := func(v uint) *uint { return &v }
	const (
		ok       = "Normal NotSet pod eviction from node node by sigs.k8s.io/descheduler"
		failedTo = "Warning EvictionFailed pod eviction from node node by sigs.k8s.io/descheduler failed: "
	)
	cases := []struct {
		name                string
		line                int
		dryRun, notify      bool
		total, node, ns     *uint
		apiErr              string
		wantNode, wantTotal uint
		wantErr, wantEvent  string
	}{
		{"one eviction expected with eviction failure event notification", 195, false, true, u(1), u(1), u(1), "", 1, 1, "", ok},
		{"eviction limit exceeded on total with eviction failure event notification", 207, false, true, u(0), u(1), u(1), "", 0, 0, "total eviction limit exceeded (0)", failedTo + "total eviction limit exceeded (0)"},
		{"eviction limit exceeded on node with eviction failure event notification", 219, false, true, u(1), u(0), u(1), "", 0, 0, "node eviction limit exceeded (0)", failedTo + "node eviction limit exceeded (0)"},
		{"eviction limit exceeded on namespace with eviction failure event notification", 231, false, true, u(1), u(1), u(0), "", 0, 0, "namespace eviction limit exceeded (0)", failedTo + "namespace eviction limit exceeded (0)"},
		{"eviction error with eviction failure event notification", 243, false, true, u(1), u(1), u(1), "eviction error", 0, 0, "eviction error", failedTo + "eviction error"},
		{"eviction with dryRun with eviction failure event notification", 255, true, true, u(1), u(1), u(1), "", 1, 1, "", ""},
		{"one eviction expected without eviction failure event notification", 267, false, false, u(1), u(1), u(1), "", 1, 1, "", ok},
		{"eviction limit exceeded on total without eviction failure event notification", 278, false, false, u(0), u(1), u(1), "", 0, 0, "total eviction limit exceeded (0)", ""},
		{"eviction limit exceeded on node without eviction failure event notification", 288, false, false, u(1), u(0), u(1), "", 0, 0, "node eviction limit exceeded (0)", ""},
		{"eviction limit exceeded on namespace without eviction failure event notification", 298, false, false, u(1), u(1), u(0), "", 0, 0, "namespace eviction limit exceeded (0)", ""},
		{"eviction error without eviction failure event notification", 308, false, false, u(1), u(1), u(1), "eviction error", 0, 0, "eviction error", ""},
		{"eviction without dryRun with eviction failure event notification", 318, true, false, u(1), u(1), u(1), "", 1, 1, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pod := buildPod("pod", 400, 0, "node")
			pol := &Policy{MaxNoOfPodsToEvictTotal: tc.total, MaxNoOfPodsToEvictPerNode: tc.node, MaxNoOfPodsToEvictPerNamespace: tc.ns,
				EvictionFailureEventNotification: tc.notify, Profiles: []Profile{{Name: "p"}}}
			v := newView(&State{Now: upstreamNow, Nodes: []*api.Node{buildNode("node", 2000, 3000, 10)}, Pods: []*api.Pod{pod}}, nil)
			res := &Result{DryRun: tc.dryRun}
			ps := &pass{policy: pol, v: v, res: res, perNode: map[string]uint{}, perNS: map[string]uint{},
				evictFn: func(*api.Pod, *Eviction) string { return tc.apiErr }}
			var hooked []string // what Deschedule records at the attempt
			ps.attempted = func(ev *Eviction) {
				if pe, ok := eventFor(ev, pol); ok {
					hooked = append(hooked, pe.Type+" "+pe.Reason+" "+pe.Message)
				}
			}
			c := &pluginCtx{pass: ps, profile: &pol.Profiles[0], name: "NotSet"}
			err := c.evict(pod, "test")
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.wantErr {
				t.Fatalf("evictions_test.go:%d: error %q, want %q", tc.line, got, tc.wantErr)
			}
			if ps.perNode["node"] != tc.wantNode || ps.total != tc.wantTotal {
				t.Fatalf("evictions_test.go:%d: node evictions %d, total %d; want %d, %d", tc.line, ps.perNode["node"], ps.total, tc.wantNode, tc.wantTotal)
			}
			var events []string
			if !tc.dryRun {
				events = eventLines(res, pol)
			}
			if !tc.dryRun && strings.Join(hooked, "|") != tc.wantEvent {
				t.Fatalf("evictions_test.go:%d: events at the attempt %q, want %q", tc.line, hooked, tc.wantEvent)
			}
			if strings.Join(events, "|") != tc.wantEvent {
				t.Fatalf("evictions_test.go:%d: events %q, want %q", tc.line, events, tc.wantEvent)
			}
		})
	}
}

// eventLines renders the events Deschedule records for res, as
// upstream's FakeRecorder does: "Type Reason Message".
func eventLines(res *Result, pol *Policy) []string {
	var out []string
	for _, ev := range evictionEvents(res, pol) {
		out = append(out, ev.Type+" "+ev.Reason+" "+ev.Message)
	}
	return out
}
