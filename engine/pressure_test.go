package engine

import (
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
)

// One node under memory pressure with BestEffort, Burstable (below and
// above request) and Guaranteed pods of mixed priorities: the kubelet
// evicts them in rankMemoryPressure order, one per pass.
func TestMemoryPressureEvictsInKubeletOrder(t *testing.T) {
	e := newTestEngine(t)
	addPrioClasses(t, e, 100)
	must(t, e.AddNode(node("n1", "8", "4Gi")))
	pods := []*api.Pod{
		pod("besteffort").on("n1").ann(kubelet.AnnotationMemoryUsage, "600Mi").obj(),
		pod("burstable-below").on("n1").req("100m", "1Gi").ann(kubelet.AnnotationMemoryUsage, "50%").obj(),
		pod("burstable-above-high").on("n1").req("100m", "256Mi").prio(100).ann(kubelet.AnnotationMemoryUsage, "800Mi").obj(),
		pod("guaranteed").on("n1").req("100m", "1Gi").lim("100m", "1Gi").ann(kubelet.AnnotationMemoryUsage, "900Mi").obj(),
		pod("burstable-above").on("n1").req("100m", "128Mi").ann(kubelet.AnnotationMemoryUsage, "500Mi").obj(),
	}
	for _, p := range pods {
		must(t, e.CreatePod(p))
	}
	// total use 180% of capacity: every pod must go
	must(t, e.SetNodePressure("n1", 180, false))

	ranking := e.EvictionRanking("n1")
	var order []string
	for _, r := range ranking {
		order = append(order, r.Pod+" "+r.QOS+" "+r.Key)
	}
	wantOrder := []string{
		"default/besteffort BestEffort exceeds-request=true priority=0 usage-above-request=600Mi",
		"default/burstable-above Burstable exceeds-request=true priority=0 usage-above-request=372Mi",
		"default/burstable-above-high Burstable exceeds-request=true priority=100 usage-above-request=544Mi",
		"default/guaranteed Guaranteed exceeds-request=false priority=0 usage-above-request=-124Mi",
		"default/burstable-below Burstable exceeds-request=false priority=0 usage-above-request=-512Mi",
	}
	if strings.Join(order, "\n") != strings.Join(wantOrder, "\n") {
		t.Fatalf("ranking\n got:\n  %s\nwant:\n  %s", strings.Join(order, "\n  "), strings.Join(wantOrder, "\n  "))
	}

	must(t, e.Step(30*time.Second))
	var got []string
	for _, ev := range e.Events() {
		if ev.Reason == ReasonEvicted {
			got = append(got, ev.Time.String()+" "+ev.Object)
		}
	}
	// passes every 10 s; after an eviction the next pass runs when the
	// pod is gone (hard eviction: grace 1 → TERM, exits after 1 s) plus
	// the 1 s cleanup poll.
	wantLines(t, got, []string{
		"10s pod/default/besteffort",
		"12s pod/default/burstable-above",
		"14s pod/default/burstable-above-high",
		"16s pod/default/guaranteed",
		"18s pod/default/burstable-below",
	})
	be := e.Pod("default/besteffort")
	if be == nil || be.Status.Phase != api.PodFailed || be.Status.Reason != "Evicted" {
		t.Fatalf("evicted pod %+v", be)
	}
	if !strings.HasPrefix(be.Status.Message, "The node was low on resource: memory. Threshold quantity: 100Mi, available: ") ||
		!strings.HasSuffix(be.Status.Message, "Container app was using 600Mi, request is 0, has larger consumption of memory. ") {
		t.Fatalf("message %q", be.Status.Message)
	}
	if c := be.Condition(api.DisruptionTarget); c == nil || c.Reason != "TerminationByKubelet" {
		t.Fatalf("DisruptionTarget %+v", c)
	}
	n := e.Node("n1")
	if c := n.Condition(api.NodeMemoryPressure); c == nil || c.Status != api.ConditionTrue {
		t.Fatalf("MemoryPressure %+v", c)
	}
	hasTaint := false
	for _, tt := range n.Spec.Taints {
		hasTaint = hasTaint || (tt.Key == api.TaintNodeMemoryPressure && tt.Effect == api.TaintEffectNoSchedule)
	}
	if !hasTaint {
		t.Fatal("no memory-pressure taint")
	}
	tl, _ := e.Timeline("default/besteffort")
	if got := spansString(tl.Containers[0].Spans); got != "Running[0s,10s) SIGTERM[10s,11s) Gone@11s" {
		t.Fatalf("evicted pod timeline %s", got)
	}
	// pressure removed: the condition clears after the 5 min transition period
	must(t, e.SetNodePressure("n1", 0, true))
	must(t, e.Step(5*time.Minute))
	if c := e.Node("n1").Condition(api.NodeMemoryPressure); c == nil || c.Status != api.ConditionFalse {
		t.Fatalf("MemoryPressure after recovery %+v", c)
	}
}

func TestCriticalPodsAreNotEvictedAndSoftThresholdWaits(t *testing.T) {
	cfg := kubelet.DefaultEvictionConfig()
	soft, _ := kubelet.ParseThreshold("memory.available<1Gi")
	soft.GracePeriod = 30 * time.Second
	cfg.Soft = []kubelet.Threshold{soft}
	cfg.MaxPodGracePeriodSeconds = 5
	e := New(Config{Seed: 1, NewScheduler: newFitScheduler, Eviction: &cfg})
	must(t, e.AddNode(node("n1", "8", "4Gi")))
	must(t, e.CreatePod(pod("dns").on("n1").class(api.SystemClusterCritical).ann(kubelet.AnnotationMemoryUsage, "2Gi").obj()))
	must(t, e.CreatePod(pod("app").on("n1").ann(kubelet.AnnotationMemoryUsage, "100Mi").ann(kubelet.AnnotationTerminateAfter, "never").obj()))
	// available 4Gi − 2Gi − 100Mi − 1.5Gi ≈ 400Mi: soft met, hard not
	must(t, e.SetNodePressure("n1", 90, false))
	must(t, e.Step(35*time.Second))
	if len(eventLines(e.Events(), ReasonEvicted)) != 0 {
		t.Fatal("evicted before the soft grace period held")
	}
	must(t, e.Step(10*time.Second))
	ev := eventLines(e.Events(), ReasonEvicted)
	if len(ev) != 1 || !strings.HasPrefix(ev[0], "40s Evicted pod/default/app") {
		t.Fatalf("evictions %v", ev)
	}
	// soft: min(evictionMaxPodGracePeriod 5, pod's 30) = 5
	tl, _ := e.Timeline("default/app")
	if got := spansString(tl.Containers[0].Spans); got != "Running[0s,40s) SIGTERM[40s,45s) SIGKILL@45s Gone@45s" {
		t.Fatalf("timeline %s", got)
	}
	if e.Pod("default/dns").Status.Phase != api.PodRunning {
		t.Fatal("critical pod evicted")
	}
}
