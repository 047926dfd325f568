package kubelet

import (
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

func memPod(name string, prio int32, req, lim string) *api.Pod {
	p := pod(name).container("app", -1).p
	p.Spec.Priority = &prio
	if req != "" {
		q, _ := api.ParseQuantity(req)
		c, _ := api.ParseQuantity("100m")
		p.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceMemory: q, api.ResourceCPU: c}
	}
	if lim != "" {
		q, _ := api.ParseQuantity(lim)
		c, _ := api.ParseQuantity("100m")
		p.Spec.Containers[0].Resources.Limits = api.ResourceList{api.ResourceMemory: q, api.ResourceCPU: c}
	}
	return p
}

const mi = 1 << 20

func TestRankMemoryPressureFollowsKubeletOrder(t *testing.T) {
	pods := []PodMemory{
		{memPod("guaranteed", 0, "1Gi", "1Gi"), 900 * mi},
		{memPod("burstable-below", 0, "512Mi", ""), 256 * mi},
		{memPod("burstable-above-high", 1000, "256Mi", ""), 1024 * mi},
		{memPod("besteffort", 0, "", ""), 300 * mi},
		{memPod("burstable-above", 0, "128Mi", ""), 400 * mi},
	}
	got := RankMemoryPressure(pods)
	want := []struct {
		pod     string
		qos     string
		exceeds bool
	}{
		{"default/besteffort", api.QOSBestEffort, true},          // exceeds, prio 0, +300Mi
		{"default/burstable-above", api.QOSBurstable, true},      // exceeds, prio 0, +272Mi
		{"default/burstable-above-high", api.QOSBurstable, true}, // exceeds, prio 1000
		{"default/guaranteed", api.QOSGuaranteed, false},         // below, prio 0, −124Mi
		{"default/burstable-below", api.QOSBurstable, false},     // below, prio 0, −256Mi
	}
	if len(got) != len(want) {
		t.Fatalf("got %d entries", len(got))
	}
	for i, w := range want {
		g := got[i]
		if g.Pod != w.pod || g.QOS != w.qos || g.Exceeds != w.exceeds || g.Rank != i+1 {
			t.Errorf("rank %d: got %+v, want %s %s exceeds=%v", i+1, g, w.pod, w.qos, w.exceeds)
		}
	}
	if got[0].Key != "exceeds-request=true priority=0 usage-above-request=300Mi" {
		t.Errorf("key %q", got[0].Key)
	}
	if got[3].Key != "exceeds-request=false priority=0 usage-above-request=-124Mi" {
		t.Errorf("key %q", got[3].Key)
	}
}

func TestCriticalPodsAreFlagged(t *testing.T) {
	p := memPod("dns", api.SystemCriticalPriority, "", "")
	if r := RankMemoryPressure([]PodMemory{{p, 10 * mi}}); !r[0].Critical {
		t.Fatal("system-critical pod not flagged critical")
	}
}

func TestEvictionMessageMatchesUpstreamFormat(t *testing.T) {
	p := memPod("web", 0, "256Mi", "")
	got := EvictionMessage(p, 1024*mi, 100*mi, 50*mi)
	want := "The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. " +
		"Container app was using 1Gi, request is 256Mi, has larger consumption of memory. "
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	be := memPod("be", 0, "", "")
	got = EvictionMessage(be, 300*mi, 100*mi, 51200*1024+1)
	want = "The node was low on resource: memory. Threshold quantity: 100Mi, available: 52428801. " +
		"Container app was using 300Mi, request is 0, has larger consumption of memory. "
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	// A container within its request is not named.
	ok := memPod("ok", 0, "1Gi", "")
	if got := EvictionMessage(ok, 512*mi, 100*mi, 50*mi); got != "The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. " {
		t.Fatalf("got %q", got)
	}
}

func TestSynchronizeHardSoftAndTransition(t *testing.T) {
	soft, _ := ParseThreshold("memory.available<1Gi")
	soft.GracePeriod = 30 * time.Second
	cfg := DefaultEvictionConfig()
	cfg.Soft = []Threshold{soft}
	cfg.MaxPodGracePeriodSeconds = 20
	capacity := int64(8 << 30)
	var st PressureState
	steps := []struct {
		at        float64
		available int64
		pressure  bool
		reclaim   bool
		hard      bool
	}{
		{0, 2 << 30, false, false, false},   // fine
		{10, 900 * mi, true, false, false},  // soft met, grace not yet held
		{30, 900 * mi, true, false, false},  // 20s
		{40, 900 * mi, true, true, false},   // held 30s: reclaim with soft grace
		{50, 50 * mi, true, true, true},     // hard met too: hard drives
		{60, 2 << 30, true, false, false},   // cleared, condition stays for 5m
		{360, 2 << 30, false, false, false}, // 5m after the last observation
	}
	for _, st2 := range steps {
		d := cfg.Synchronize(&st, capacity, st2.available, s(st2.at))
		if d.MemoryPressure != st2.pressure || d.Reclaim != st2.reclaim || (d.Reclaim && d.Threshold.IsHard() != st2.hard) {
			t.Fatalf("at %vs: got %+v", st2.at, d)
		}
	}
	p := memPod("x", 0, "", "")
	if g := cfg.GraceOverride(soft, p); g != 20 {
		t.Errorf("soft override %d, want min(20, 30)=20", g)
	}
	if g := cfg.GraceOverride(cfg.Hard[0], p); g != 0 {
		t.Errorf("hard override %d, want 0", g)
	}
	pct, err := ParseThreshold("memory.available<10%")
	if err != nil || pct.Value(capacity) != capacity/10 {
		t.Errorf("percentage threshold %+v %v", pct, err)
	}
	if _, err := ParseThreshold("nodefs.available<10%"); err == nil {
		t.Error("unmodelled signal accepted")
	}
}

func TestMemoryUsageAnnotation(t *testing.T) {
	p := memPod("a", 0, "512Mi", "1Gi")
	cases := []struct {
		ann  string
		want int64
	}{
		{"", 512 * mi},
		{"900Mi", 900 * mi},
		{"150%", 768 * mi},
	}
	for _, tc := range cases {
		delete(p.Annotations, AnnotationMemoryUsage)
		if tc.ann != "" {
			p.Annotations[AnnotationMemoryUsage] = tc.ann
		}
		got, err := MemoryUsage(p)
		if err != nil || got != tc.want {
			t.Errorf("%q: got %d %v, want %d", tc.ann, got, err, tc.want)
		}
	}
	lim := memPod("b", 0, "", "")
	lim.Spec.Containers[0].Resources.Limits = api.ResourceList{api.ResourceMemory: api.Units(1 << 30)}
	if u, err := ParseMemoryUsage(lim, "50%"); err != nil || u != 512*mi {
		t.Errorf("percent of limit: %d %v", u, err)
	}
	if _, err := ParseMemoryUsage(memPod("c", 0, "", ""), "50%"); err == nil {
		t.Error("percentage of nothing accepted")
	}
}
