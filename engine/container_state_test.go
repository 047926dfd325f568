package engine

import (
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

// A started container without modelled probes reports State.Running with
// the instant it started, as the kubelet's status does (kubectl describe
// prints "State: Running, Started: …"); it used to report no state, which
// describe printed as Waiting beside Ready: True.
func TestStartedContainerIsRunningSinceItsStart(t *testing.T) {
	e := newDefaultEngine()
	must(t, e.AddNode(node("n1", "4", "8Gi")))
	must(t, e.RunUntil(api.Time(5*time.Second)))
	must(t, e.CreatePod(pod("p").obj()))
	must(t, e.RunUntil(api.Time(time.Minute)))
	p := e.Pod("default/p")
	if len(p.Status.ContainerStatuses) != 1 {
		t.Fatalf("container statuses %+v", p.Status.ContainerStatuses)
	}
	cs := p.Status.ContainerStatuses[0]
	if cs.State.Running == nil || !cs.Ready || p.Status.StartTime == nil {
		t.Fatalf("container status %+v, start time %v: want running and ready", cs, p.Status.StartTime)
	}
	if started := p.Condition(api.PodReady).LastTransitionTime; cs.State.Running.StartedAt != started {
		t.Errorf("running since %v, want %v (when it became ready)", cs.State.Running.StartedAt, started)
	}
}

// A restored pod whose status records startTime but no container
// statuses runs since that start, not since t=0.
func TestRestoredContainerRunsSinceTheRecordedStart(t *testing.T) {
	e := newDefaultEngine()
	must(t, e.AddNode(node("n1", "4", "8Gi")))
	p := pod("p").on("n1").obj()
	start := api.Time(-90 * time.Second)
	p.Status.Phase = api.PodRunning
	p.Status.StartTime = &start
	must(t, e.RestorePod(p))
	cs := e.Pod("default/p").Status.ContainerStatuses
	if len(cs) != 1 || cs[0].State.Running == nil || cs[0].State.Running.StartedAt != start || !cs[0].Ready {
		t.Fatalf("container statuses %+v, want running since %v and ready", cs, start)
	}
}
