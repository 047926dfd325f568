package noderesources

import (
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
)

// Score implements framework.ScorePlugin with the LeastAllocated strategy
// (least_allocated.go): per resource (capacity − requested) × 100 /
// capacity in integer math, 0 when over capacity; the weighted mean over
// resources the node has. Requests are the non-zero ones (a container
// without requests counts 100m cpu and 200Mi memory) on the node and for
// the pod.
func (f *Fit) Score(state *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) (int64, *framework.Status) {
	s, _ := cyclecache.Get(&f.preScore, state, fitPreScoreStateKey)
	if f.custom != nil {
		return f.custom.nodeScore(f.podRequests(s, pod), node), nil
	}
	return s.score(pod, node), nil
}

// podRequests is the pod's request list for the configured scorer, from
// PreScore's state when it ran.
func (f *Fit) podRequests(s *fitPreScoreState, pod *framework.PodInfo) []int64 {
	if s != nil && s.podReq != nil {
		return s.podReq
	}
	return f.custom.podRequests(pod)
}

// score is Score with the cycle's state (nil when PreScore did not run).
func (s *fitPreScoreState) score(pod *framework.PodInfo, node *framework.NodeInfo) int64 {
	podCPU, podMem := pod.ScoreRequests.MilliCPU, pod.ScoreRequests.Memory
	if s != nil {
		if e := s.index.entry(node); e != nil {
			var a allocation
			if e.allocCPU != 0 {
				a.allocatable[cpuIdx], a.requested[cpuIdx] = e.allocCPU, e.nzCPU+podCPU
			}
			if e.allocMem != 0 {
				a.allocatable[memIdx], a.requested[memIdx] = e.allocMem, e.nzMem+podMem
			}
			return leastAllocatedScore(&a)
		}
	}
	a := nodeAllocation(node, podCPU, podMem, false)
	return leastAllocatedScore(&a)
}

// fitPreScoreState carries the snapshot's allocation index to Score.
type fitPreScoreState struct {
	index *allocIndex
	// epoch is the index's memo epoch for this pod's non-zero requests
	// (0: no index).
	epoch uint32
	// podReq is the pod's request per configured resource (configured
	// scorer only).
	podReq []int64
}

// Clone implements framework.StateData; the state is immutable.
func (s *fitPreScoreState) Clone() framework.StateData { return s }

const fitPreScoreStateKey framework.StateKey = "PreScore" + Name

// PreScore implements framework.PreScorePlugin. As upstream it never
// skips; the pod's non-zero requests are already in framework.PodInfo, so
// it only fetches the snapshot's allocation index for Score.
func (f *Fit) PreScore(state *framework.CycleState, pod *framework.PodInfo, snap *framework.Snapshot, _ []*framework.NodeInfo) *framework.Status {
	s := &fitPreScoreState{}
	if f.custom != nil {
		s.podReq = f.custom.podRequests(pod)
		if snap != nil && f.custom.cpuMemOnly {
			s.index = allocIndexOf(snap)
			s.epoch = s.index.customFit.epochFor(len(s.index.nodes), f.custom, s.podReq)
		}
		state.Write(fitPreScoreStateKey, s)
		f.preScore.Store(state, s)
		return nil
	}
	if snap != nil {
		s.index = allocIndexOf(snap)
		s.epoch = s.index.epochFor(&s.index.fitKey, pod.ScoreRequests.MilliCPU, pod.ScoreRequests.Memory)
	}
	state.Write(fitPreScoreStateKey, s)
	f.preScore.Store(state, s)
	return nil
}

// ScoreExtensions implements framework.ScorePlugin: none (scores are
// already in [0, 100]).
func (*Fit) ScoreExtensions() framework.ScoreExtensions { return nil }

func leastAllocatedScore(a *allocation) int64 {
	var nodeScore, weightSum int64
	for i := 0; i < numResources; i++ {
		if a.allocatable[i] == 0 {
			continue
		}
		const weight = 1
		nodeScore += leastRequestedScore(a.requested[i], a.allocatable[i]) * weight
		weightSum += weight
	}
	if weightSum == 0 {
		return 0
	}
	return nodeScore / weightSum
}

// leastRequestedScore is upstream's: the unused share of capacity on a
// 0..100 scale.
func leastRequestedScore(requested, capacity int64) int64 {
	if capacity == 0 || requested > capacity {
		return 0
	}
	return (capacity - requested) * framework.MaxNodeScore / capacity
}
