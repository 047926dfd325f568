package kubelet

import (
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

func s(n float64) api.Time { return api.Time(time.Duration(n * float64(time.Second))) }

func i64(v int64) *int64 { return &v }

// podBuilder keeps test cases to a line or two.
type podBuilder struct{ p *api.Pod }

func pod(name string) *podBuilder {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Annotations: map[string]string{}}}
	p.Spec.TerminationGracePeriodSeconds = i64(30)
	return &podBuilder{p}
}

func (b *podBuilder) grace(g int64) *podBuilder {
	b.p.Spec.TerminationGracePeriodSeconds = i64(g)
	return b
}
func (b *podBuilder) ann(k, v string) *podBuilder {
	b.p.Annotations[k] = v
	return b
}
func (b *podBuilder) container(name string, preStopSleep int64) *podBuilder {
	c := api.Container{Name: name}
	if preStopSleep >= 0 {
		c.Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{SleepSeconds: i64(preStopSleep)}}
	}
	b.p.Spec.Containers = append(b.p.Spec.Containers, c)
	return b
}
func (b *podBuilder) sidecar(name string, preStopSleep int64) *podBuilder {
	c := api.Container{Name: name, RestartPolicy: "Always"}
	if preStopSleep >= 0 {
		c.Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{SleepSeconds: i64(preStopSleep)}}
	}
	b.p.Spec.InitContainers = append(b.p.Spec.InitContainers, c)
	return b
}

func spans(ss []Span) string {
	var out []string
	for _, x := range ss {
		out = append(out, x.String())
	}
	return strings.Join(out, " ")
}

// The graceful-termination seed's cases, in v1.36's order, to the second.
// The kill starts at 100s; the pod ran since 0s.
func TestPlanKillTimelines(t *testing.T) {
	cases := []struct {
		name string
		pod  *api.Pod
		// deletion is the API server's deletionGracePeriodSeconds, override
		// the kubelet's (eviction); nil when absent.
		deletion, override *int64
		wantGrace          int64
		want               string // the first container's spans
	}{
		{"no preStop: SIGTERM at once, app exits after 1s",
			pod("a").container("app", -1).p, i64(30), nil, 30,
			"Running[0s,100s) SIGTERM[100s,101s) Gone@101s"},
		{"preStop shorter than grace consumes it, then SIGTERM",
			pod("a").container("app", 10).p, i64(30), nil, 30,
			"Running[0s,100s) PreStop[100s,110s) SIGTERM[110s,111s) Gone@111s"},
		{"preStop longer than grace: TERM at the deadline, KILL 2s later",
			pod("a").container("app", 60).ann(AnnotationTerminateAfter, "never").p, i64(30), nil, 30,
			"Running[0s,100s) PreStop[100s,130s) SIGTERM[130s,132s) SIGKILL@132s Gone@132s"},
		{"app ignoring SIGTERM is killed when the grace runs out",
			pod("a").container("app", -1).ann(AnnotationTerminateAfter, "never").p, i64(30), nil, 30,
			"Running[0s,100s) SIGTERM[100s,130s) SIGKILL@130s Gone@130s"},
		{"slow app (45s) outlives the grace period",
			pod("a").container("app", 5).ann(AnnotationTerminateAfter, "45s").p, i64(30), nil, 30,
			"Running[0s,100s) PreStop[100s,105s) SIGTERM[105s,130s) SIGKILL@130s Gone@130s"},
		{"grace 0 (force) becomes 1; preStop cut at 1s; then the 2s floor",
			pod("a").container("app", 10).ann(AnnotationTerminateAfter, "never").p, i64(0), nil, 1,
			"Running[0s,100s) PreStop[100s,101s) SIGTERM[101s,103s) SIGKILL@103s Gone@103s"},
		{"delete grace smaller than spec wins",
			pod("a").container("app", -1).ann(AnnotationTerminateAfter, "never").p, i64(10), nil, 10,
			"Running[0s,100s) SIGTERM[100s,110s) SIGKILL@110s Gone@110s"},
		{"hard eviction (override 0) still gives 1s + the 2s floor",
			pod("a").container("app", 5).ann(AnnotationTerminateAfter, "never").p, nil, i64(0), 1,
			"Running[0s,100s) PreStop[100s,101s) SIGTERM[101s,103s) SIGKILL@103s Gone@103s"},
		{"soft eviction: min(evictionMaxPodGracePeriod 20, pod's 30)",
			pod("a").container("app", -1).ann(AnnotationTerminateAfter, "never").p, nil, i64(20), 20,
			"Running[0s,100s) SIGTERM[100s,120s) SIGKILL@120s Gone@120s"},
		{"override larger than the delete grace does not lengthen it",
			pod("a").container("app", -1).ann(AnnotationTerminateAfter, "never").p, i64(10), i64(25), 10,
			"Running[0s,100s) SIGTERM[100s,110s) SIGKILL@110s Gone@110s"},
		{"preStop of 29s leaves 1s, raised to 2s",
			pod("a").container("app", 29).ann(AnnotationTerminateAfter, "never").p, i64(30), nil, 30,
			"Running[0s,100s) PreStop[100s,129s) SIGTERM[129s,131s) SIGKILL@131s Gone@131s"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, _ := EffectiveGracePeriod(0, tc.deletion, tc.override, tc.pod.Spec.TerminationGracePeriodSeconds)
			if g != tc.wantGrace {
				t.Fatalf("effective grace = %d, want %d", g, tc.wantGrace)
			}
			plan, err := PlanKill(tc.pod, s(100), g)
			if err != nil {
				t.Fatal(err)
			}
			got := spans(plan.Timeline(0).Containers[0].Spans)
			if got != tc.want {
				t.Fatalf("timeline\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestSidecarsGetTermAfterMainContainersInReverseOrder(t *testing.T) {
	p := pod("web").sidecar("log", 3).sidecar("proxy", -1).container("app", 5).p
	plan, err := PlanKill(p, 0, 30)
	if err != nil {
		t.Fatal(err)
	}
	tl := plan.Timeline(0)
	got := map[string]string{}
	for _, c := range tl.Containers {
		got[c.Name] = spans(c.Spans)
	}
	want := map[string]string{
		// main: preStop 5s, TERM at 5, exits at 6
		"app": "Running@0s PreStop[0s,5s) SIGTERM[5s,6s) Gone@6s",
		// proxy (declared last): waits for app, TERM at 6, exits at 7
		"proxy": "Running[0s,6s) SIGTERM[6s,7s) Gone@7s",
		// log: preStop alongside app, then waits for proxy, TERM at 7
		"log": "Running@0s PreStop[0s,3s) Running[3s,7s) SIGTERM[7s,8s) Gone@8s",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s:\n got %s\nwant %s", k, got[k], w)
		}
	}
	if plan.Gone != s(8) {
		t.Errorf("pod gone at %s, want 8s", plan.Gone)
	}
	if pods := spans(tl.Pod); pods != "Running@0s PreStop[0s,5s) SIGTERM[5s,8s) Gone@8s" {
		t.Errorf("pod bar %s", pods)
	}
}

func TestSidecarWithNoGraceLeftDoesNotWait(t *testing.T) {
	// Grace 1 (force delete): the sidecar's preStop eats the whole second,
	// so waitForTurn gets 0 and the sidecar is TERMed before the app exits.
	p := pod("web").sidecar("proxy", 5).container("app", -1).ann(AnnotationTerminateAfter, "never").p
	plan, _ := PlanKill(p, 0, 1)
	byName := map[string]ContainerKill{}
	for _, k := range plan.Containers {
		byName[k.Name] = k
	}
	if byName["app"].Exit != s(2) || !byName["app"].Killed {
		t.Errorf("app: %+v", byName["app"])
	}
	if byName["proxy"].Term != s(1) || byName["proxy"].Exit != s(3) {
		t.Errorf("proxy: term %s exit %s, want 1s and 3s", byName["proxy"].Term, byName["proxy"].Exit)
	}
}

func TestEffectiveGracePeriodOnlyDecreases(t *testing.T) {
	cases := []struct {
		name               string
		previous           int64
		deletion, override *int64
		spec               *int64
		want               int64
		wantChanged        bool
	}{
		{"first kill takes the API's value", 0, i64(30), nil, i64(30), 30, false},
		{"no API value: the spec's", 0, nil, nil, i64(45), 45, false},
		{"second delete shortening", 30, i64(5), nil, i64(30), 5, true},
		{"second delete lengthening is ignored", 5, i64(30), nil, i64(30), 5, false},
		{"eviction override 0 on a running pod", 0, nil, i64(0), i64(30), 1, false},
		{"nothing at all", 0, nil, nil, nil, 1, false},
	}
	for _, tc := range cases {
		got, changed := EffectiveGracePeriod(tc.previous, tc.deletion, tc.override, tc.spec)
		if got != tc.want || changed != tc.wantChanged {
			t.Errorf("%s: got %d,%v want %d,%v", tc.name, got, changed, tc.want, tc.wantChanged)
		}
	}
}

func TestContainerGracePeriodForProbeKills(t *testing.T) {
	p := pod("a").grace(60).container("app", -1).p
	c := &p.Spec.Containers[0]
	c.ProbeTerminationGracePeriodSeconds = i64(7)
	if g := ContainerGracePeriod(p, c, ReasonLivenessProbe, nil); g != 7 {
		t.Errorf("liveness kill grace %d, want the probe's 7", g)
	}
	if g := ContainerGracePeriod(p, c, ReasonUnknown, nil); g != 60 {
		t.Errorf("plain kill grace %d, want the pod's 60", g)
	}
	if g := ContainerGracePeriod(p, c, ReasonLivenessProbe, i64(3)); g != 3 {
		t.Errorf("override %d, want 3", g)
	}
}

func TestPreStopDurationFromRealFields(t *testing.T) {
	cases := []struct {
		name string
		h    *api.LifecycleHandler
		want time.Duration
	}{
		{"sleep action", &api.LifecycleHandler{SleepSeconds: i64(7)}, 7 * time.Second},
		{"exec sleep", &api.LifecycleHandler{ExecCommand: []string{"/bin/sleep", "15"}}, 15 * time.Second},
		{"sh -c last command", &api.LifecycleHandler{ExecCommand: []string{"/bin/sh", "-c", "nginx -s quit; sleep 20"}}, 20 * time.Second},
		{"sh -c with &&", &api.LifecycleHandler{ExecCommand: []string{"sh", "-c", "echo bye && sleep 2m"}}, 2 * time.Minute},
		{"sh -c ending in something else", &api.LifecycleHandler{ExecCommand: []string{"sh", "-c", "sleep 5; nginx -s quit"}}, 0},
		{"httpGet", &api.LifecycleHandler{HTTPGetPath: "/shutdown"}, 0},
	}
	for _, tc := range cases {
		c := &api.Container{Lifecycle: &api.Lifecycle{PreStop: tc.h}}
		got, ok := PreStopDuration(c)
		if !ok || got != tc.want {
			t.Errorf("%s: got %s,%v want %s", tc.name, got, ok, tc.want)
		}
	}
	if _, ok := PreStopDuration(&api.Container{}); ok {
		t.Error("container without hook reported one")
	}
}
