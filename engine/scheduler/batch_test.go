package scheduler

import (
	"fmt"
	"testing"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// batchFilter adds the batch fast path to a fakeFilter.
type batchFilter struct{ *fakeFilter }

func (f batchFilter) FilterBatch(state *framework.CycleState, pi *framework.PodInfo, nodes []*framework.NodeInfo, cand []int32, reject func(int32, *framework.Status)) []int32 {
	j := 0
	for _, k := range cand {
		if st := f.filter(pi, nodes[k]); !st.IsSuccess() {
			reject(k, st)
			continue
		}
		cand[j] = k
		j++
	}
	return cand[:j]
}

// batchScore adds the batch fast path to a fakeScore.
type batchScore struct{ *fakeScore }

func (f batchScore) ScoreBatch(_ *framework.CycleState, _ *framework.PodInfo, nodes []*framework.NodeInfo, scores []framework.NodeScore) *framework.Status {
	for i, ni := range nodes {
		scores[i].Score = f.score(ni)
	}
	return nil
}

func TestBatchFastPathsGiveTheSameDecisions(t *testing.T) {
	nodes := nodeNames(700)
	mk := func(batch bool) *Scheduler {
		taint := &fakeFilter{name: "TaintToleration", filter: func(_ *framework.PodInfo, ni *framework.NodeInfo) *framework.Status {
			if ni.Index%9 == 0 {
				return framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint(s)")
			}
			return nil
		}}
		fit := fitFilter()
		sc := &fakeScore{name: "NodeResourcesFit", normalize: true, score: func(ni *framework.NodeInfo) int64 {
			return 4000 - ni.Requested.MilliCPU + int64(ni.Index%13)
		}}
		if batch {
			return testScheduler(Config{Seed: 3}, mkSnapshot(nodes...), batchFilter{taint}, batchFilter{fit}, batchScore{sc})
		}
		return testScheduler(Config{Seed: 3}, mkSnapshot(nodes...), taint, fit, sc)
	}
	perNode, batched := mk(false), mk(true)
	for i := 0; i < 2000; i++ {
		pi := mkPod(fmt.Sprintf("p%d", i), 700, 0)
		a, b := perNode.ScheduleOne(pi), batched.ScheduleOne(pi)
		if a.Node != b.Node || a.Message != b.Message {
			t.Fatalf("pod %d: per-node %q %q, batch %q %q", i, a.Node, a.Message, b.Node, b.Message)
		}
		if a.Node == "" {
			break
		}
		bind(perNode.Snapshot(), pi, a.Node)
		bind(batched.Snapshot(), pi, b.Node)
	}
	e1, e2 := perNode.Explain(mkPod("x", 700, 0)), batched.Explain(mkPod("x", 700, 0))
	for i := range e1.Nodes {
		if fmt.Sprint(e1.Nodes[i]) != fmt.Sprint(e2.Nodes[i]) {
			t.Fatalf("explain differs on %s: %+v vs %+v", e1.Nodes[i].Node, e1.Nodes[i], e2.Nodes[i])
		}
	}
}
