package engine

import (
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine/kubelet"
)

func spansString(ss []kubelet.Span) string {
	var out []string
	for _, s := range ss {
		out = append(out, s.String())
	}
	return strings.Join(out, " ")
}

// The seed's grace-period cases, end to end on the engine's clock: a pod
// running since t=0 is deleted at t=10.
func TestDeleteGracePeriodsOnTheTimeline(t *testing.T) {
	cases := []struct {
		name     string
		pod      *pb
		grace    int64 // kubectl --grace-period (-1: not given)
		force    bool
		deleted  string // when the object is removed
		timeline string
	}{
		{"default grace, app exits 1s after TERM", pod("a").on("n1"), -1, false, "11s",
			"Running[0s,10s) SIGTERM[10s,11s) Gone@11s"},
		{"preStop 5s then TERM", pod("a").on("n1").preStop(5), -1, false, "16s",
			"Running[0s,10s) PreStop[10s,15s) SIGTERM[15s,16s) Gone@16s"},
		{"preStop outlives grace 30: TERM at 40, KILL at 42", pod("a").on("n1").preStop(60).ann(kubelet.AnnotationTerminateAfter, "never"), -1, false, "42s",
			"Running[0s,10s) PreStop[10s,40s) SIGTERM[40s,42s) SIGKILL@42s Gone@42s"},
		{"--grace-period=5 shortens", pod("a").on("n1").ann(kubelet.AnnotationTerminateAfter, "never"), 5, false, "15s",
			"Running[0s,10s) SIGTERM[10s,15s) SIGKILL@15s Gone@15s"},
		{"--grace-period=0 without --force becomes 1, then the 2s floor", pod("a").on("n1").ann(kubelet.AnnotationTerminateAfter, "never"), 0, false, "12s",
			"Running[0s,10s) SIGTERM[10s,12s) SIGKILL@12s Gone@12s"},
		{"--force --grace-period=0 removes the object at once; the node still takes 2s", pod("a").on("n1").ann(kubelet.AnnotationTerminateAfter, "never"), 0, true, "10s",
			"Running[0s,10s) SIGTERM[10s,12s) SIGKILL@12s Gone@12s"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestEngine(t)
			must(t, e.AddNode(node("n1", "4", "8Gi")))
			must(t, e.CreatePod(tc.pod.obj()))
			must(t, e.Step(10*time.Second))
			must(t, e.DeletePod("default/a", KubectlDeleteOptions(tc.grace, tc.force)))
			must(t, e.Step(60*time.Second))
			del := eventLines(e.Events(), ReasonDeleted)
			if len(del) != 1 || !strings.HasPrefix(del[0], tc.deleted+" ") {
				t.Fatalf("deleted events %v, want one at %s", del, tc.deleted)
			}
			tl, ok := e.Timeline("default/a")
			if !ok {
				t.Fatal("no timeline")
			}
			if got := spansString(tl.Containers[0].Spans); got != tc.timeline {
				t.Fatalf("timeline\n got %s\nwant %s", got, tc.timeline)
			}
		})
	}
}

func TestDeleteUnscheduledPodIsImmediate(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.CreatePod(pod("p").req("1", "").obj())) // no nodes: pending
	must(t, e.Step(5*time.Second))
	must(t, e.DeletePod("default/p", DeleteOptions{}))
	wantLines(t, eventLines(e.Events(), ReasonDeleted), []string{"5s Deleted pod/default/p: pod removed"})
}

func TestSecondDeleteMayOnlyShorten(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.AddNode(node("n1", "4", "8Gi")))
	must(t, e.CreatePod(pod("a").on("n1").ann(kubelet.AnnotationTerminateAfter, "never").obj()))
	must(t, e.DeletePod("default/a", DeleteOptions{})) // 30s
	must(t, e.Step(5*time.Second))
	must(t, e.DeletePod("default/a", KubectlDeleteOptions(60, false))) // longer: ignored
	if g := *e.Pod("default/a").DeletionGracePeriodSeconds; g != 30 {
		t.Fatalf("grace %d after a longer second delete, want 30", g)
	}
	must(t, e.DeletePod("default/a", KubectlDeleteOptions(10, false))) // shorter: restarts the kill at 5s with 10s
	if ts := *e.Pod("default/a").DeletionTimestamp; ts != sec(10) {
		t.Fatalf("deletionTimestamp %s, want 0+10 = 10s", ts)
	}
	must(t, e.Step(30*time.Second))
	wantLines(t, eventLines(e.Events(), ReasonDeleted, ReasonKilling), []string{
		"0s Killing pod/default/a: Stopping container app",
		"15s Deleted pod/default/a: pod removed",
	})
	tl, _ := e.Timeline("default/a")
	if got := spansString(tl.Containers[0].Spans); got != "Running@0s SIGTERM[0s,15s) SIGKILL@15s Gone@15s" {
		t.Fatalf("timeline %s", got)
	}
}

func TestTerminatingPodHoldsItsResourcesUntilGone(t *testing.T) {
	e := newTestEngine(t)
	must(t, e.AddNode(node("n1", "2", "8Gi")))
	must(t, e.CreatePod(pod("old").on("n1").req("2", "").ann(kubelet.AnnotationTerminateAfter, "20s").obj()))
	must(t, e.DeletePod("default/old", DeleteOptions{}))
	must(t, e.CreatePod(pod("new").req("2", "").obj()))
	must(t, e.Step(19*time.Second))
	if st, _ := e.PodState("default/new"); st != StatePending {
		t.Fatalf("new pod %s while old one still terminating", st)
	}
	must(t, e.Step(2*time.Second))
	wantLines(t, eventLines(e.Events(), ReasonScheduled, ReasonDeleted), []string{
		"20s Deleted pod/default/old: pod removed",
		"20s Scheduled pod/default/new: Successfully assigned default/new to n1",
	})
	if st, _ := e.PodState("default/new"); st != StateStarting {
		t.Fatalf("new pod %s at 21s, want ContainerCreating (2s start-up)", st)
	}
	must(t, e.Step(2*time.Second))
	if st, _ := e.PodState("default/new"); st != StateRunning {
		t.Fatalf("new pod %s at 23s, want Running", st)
	}
}
