package scheduler

import (
	"fmt"
	"math/rand"
	"testing"

	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/noderesources"
)

// FilterRunner, which preemption's in-place dry runs use, gives every node
// the verdict runFilterPlugins gives it, with the cycle's skips and with
// NodeResourcesFit skipped as well.
func TestFilterRunnerEqualsRunFilterPlugins(t *testing.T) {
	compared, rejected := 0, 0
	for seed := int64(1); seed <= 6; seed++ {
		rng := rand.New(rand.NewSource(seed))
		s := New(Config{Seed: seed}, randomEquivCluster(rng, 30+rng.Intn(60)))
		for i := 0; i < 40; i++ {
			pi := framework.NewPodInfo(randomEquivPod(rng, fmt.Sprintf("pod-%d", i), rng.Intn(4) == 0))
			state := framework.NewCycleState()
			if _, st, _ := s.runPreFilter(state, pi); !st.IsSuccess() {
				continue
			}
			for _, st := range []*framework.CycleState{state, state.WithFilterSkipped(noderesources.Name)} {
				run := s.FilterRunner(st)
				for _, ni := range s.snap.Nodes() {
					got, want := run(pi, ni), s.runFilterPlugins(st, pi, ni)
					if fmt.Sprint(got) != fmt.Sprint(want) {
						t.Fatalf("seed %d pod %d node %s: FilterRunner %+v, runFilterPlugins %+v", seed, i, ni.Node.Name, got, want)
					}
					compared++
					if want != nil {
						rejected++
					}
				}
			}
		}
	}
	if rejected < compared/10 || rejected == compared {
		t.Errorf("%d of %d verdicts were rejections: the clusters do not exercise the filters", rejected, compared)
	}
}
