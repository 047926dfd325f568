package autoscaler

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"podlab.dev/podlab/engine"
)

// TestCloneDrivenApartLeavesTheOriginAlone clones a cluster whose
// autoscaler keeps its simulation between loops, drives the clone
// differently (pods created and deleted: scale-ups, scale-downs) while the
// original runs on, and requires the original's events to be those of a
// twin that was never cloned: the two share pod states, the snapshot's pod
// index and the autoscaler's PodInfo cache.
func TestCloneDrivenApartLeavesTheOriginAlone(t *testing.T) {
	ref := cloneApartScenario(t, 0)
	for seed := uint64(1); seed <= 4; seed++ {
		got := cloneApartScenario(t, seed)
		if !reflect.DeepEqual(got, ref) {
			for i := range min(len(got), len(ref)) {
				if got[i] != ref[i] {
					t.Fatalf("seed %d: event %d differs:\n cloned:       %+v\n never cloned: %+v", seed, i, got[i], ref[i])
				}
			}
			t.Fatalf("seed %d: %d events with a clone alongside, %d without", seed, len(got), len(ref))
		}
	}
}

// cloneApartScenario returns the original's events; asideSeed 0 makes no
// clone.
func cloneApartScenario(t *testing.T, asideSeed uint64) []engine.Event {
	e, _ := cluster(t, []NodeGroup{group("a", 1, 6, template("2", "4Gi", "zone-a")), group("b", 0, 6, template("2", "4Gi", "zone-b"))},
		Options{ScaleDownUnneededTime: 2 * time.Minute, ScaleDownDelayAfterAdd: time.Minute})
	for i := range 8 {
		create(t, e, pod(fmt.Sprintf("p%d", i), "1200m", "1Gi", "rs"))
	}
	var aside *engine.Engine
	ra := rand.New(rand.NewPCG(asideSeed, 5))
	made := 0
	for s := 1; s <= 240; s++ {
		if aside != nil {
			run(t, aside, 10*time.Second)
			switch ra.IntN(3) {
			case 0:
				made++
				create(t, aside, pod(fmt.Sprintf("q%d", made), "700m", "1Gi", "rs"))
			case 1:
				if pods := aside.Pods(); len(pods) > 0 {
					_ = aside.DeletePod(pods[ra.IntN(len(pods))].Key(), engine.DeleteOptions{})
				}
			}
		}
		run(t, e, 10*time.Second)
		switch s {
		case 30:
			if asideSeed != 0 {
				aside = e.Clone()
			}
		case 40, 41, 42, 43, 44:
			// the original's load drops: nodes become unneeded
			_ = e.DeletePod(fmt.Sprintf("default/p%d", s-40), engine.DeleteOptions{})
		}
	}
	return e.Events()
}
