package noderesources

import (
	"math"

	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
)

// BalancedAllocationName is NodeResourcesBalancedAllocation's name.
const BalancedAllocationName = "NodeResourcesBalancedAllocation"

const balancedPreScoreStateKey framework.StateKey = "PreScore" + BalancedAllocationName

// BalancedAllocation is the NodeResourcesBalancedAllocation score plugin.
type BalancedAllocation struct {
	preScore cyclecache.Cache[*balancedPreScoreState]
	// custom scores configured resources (nil: cpu and memory, the
	// allocation-index fast paths).
	custom    *resourceScorer
	resources []ResourceSpec
}

var (
	_ framework.PreScorePlugin = (*BalancedAllocation)(nil)
	_ framework.ScorePlugin    = (*BalancedAllocation)(nil)
	_ framework.Explainer      = (*BalancedAllocation)(nil)
)

// NewBalancedAllocation returns the plugin (cpu and memory, weight 1).
func NewBalancedAllocation() *BalancedAllocation {
	return &BalancedAllocation{resources: DefaultResources()}
}

// NewBalancedAllocationWithArgs returns the plugin over args.Resources
// (defaulted and valid: every weight 1).
func NewBalancedAllocationWithArgs(args BalancedAllocationArgs) *BalancedAllocation {
	b := &BalancedAllocation{resources: args.Resources}
	if !isDefaultResources(args.Resources) {
		b.custom = newBalancedScorer(args.Resources)
	}
	return b
}

// Args returns the plugin's arguments.
func (b *BalancedAllocation) Args() BalancedAllocationArgs {
	return BalancedAllocationArgs{Resources: b.resources}
}

// Name implements framework.Plugin.
func (*BalancedAllocation) Name() string { return BalancedAllocationName }

// balancedPreScoreState is the pod's plain cpu and memory requests.
type balancedPreScoreState struct {
	cpu, mem int64
	index    *allocIndex
	// podReq is the pod's request per configured resource (configured
	// scorer only).
	podReq []int64
	// epoch is the index's memo epoch for cpu and mem (0: no index).
	epoch uint32
}

// Clone implements framework.StateData; the state is immutable.
func (s *balancedPreScoreState) Clone() framework.StateData { return s }

// PreScore implements framework.PreScorePlugin: Skip for a pod requesting
// neither cpu nor memory ("best effort" for this plugin, so such pods do
// not pile onto one node: kubernetes/kubernetes#129138).
func (b *BalancedAllocation) PreScore(state *framework.CycleState, pod *framework.PodInfo, snap *framework.Snapshot, _ []*framework.NodeInfo) *framework.Status {
	if b.custom != nil {
		req := b.custom.podRequests(pod)
		if isBestEffort(req) {
			b.preScore.Store(state, nil)
			return framework.SkipStatus
		}
		s := &balancedPreScoreState{podReq: req}
		if snap != nil && b.custom.cpuMemOnly {
			s.index = allocIndexOf(snap)
			s.epoch = s.index.customBalanced.epochFor(len(s.index.nodes), b.custom, req)
		}
		state.Write(balancedPreScoreStateKey, s)
		b.preScore.Store(state, s)
		return nil
	}
	if pod.Requests.MilliCPU == 0 && pod.Requests.Memory == 0 {
		b.preScore.Store(state, nil)
		return framework.SkipStatus
	}
	s := &balancedPreScoreState{cpu: pod.Requests.MilliCPU, mem: pod.Requests.Memory}
	if snap != nil {
		s.index = allocIndexOf(snap)
		s.epoch = s.index.epochFor(&s.index.balancedKey, s.cpu, s.mem)
	}
	state.Write(balancedPreScoreStateKey, s)
	b.preScore.Store(state, s)
	return nil
}

// Score implements framework.ScorePlugin (balanced_allocation.go Score).
func (b *BalancedAllocation) Score(state *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) (int64, *framework.Status) {
	s, _ := cyclecache.Get(&b.preScore, state, balancedPreScoreStateKey)
	if b.custom != nil {
		if s == nil {
			req := b.custom.podRequests(pod)
			if isBestEffort(req) {
				return 0, nil
			}
			return b.custom.nodeScore(req, node), nil
		}
		return b.custom.nodeScore(s.podReq, node), nil
	}
	return s.score(pod, node), nil
}

// isBestEffort is resourceAllocationScorer.isBestEffortPod: the pod
// requests none of the configured resources.
func isBestEffort(req []int64) bool {
	for _, r := range req {
		if r != 0 {
			return false
		}
	}
	return true
}

// score is Score with the cycle's state (nil when PreScore did not run or
// skipped).
func (s *balancedPreScoreState) score(pod *framework.PodInfo, node *framework.NodeInfo) int64 {
	if s != nil {
		if e := s.index.entry(node); e != nil {
			var a allocation
			if e.allocCPU != 0 {
				a.allocatable[cpuIdx], a.requested[cpuIdx] = e.allocCPU, e.reqCPU+s.cpu
			}
			if e.allocMem != 0 {
				a.allocatable[memIdx], a.requested[memIdx] = e.allocMem, e.reqMem+s.mem
			}
			return improvementScore(balancedResourceScore(&a.requested, &a.allocatable), e.balanceWithout)
		}
	}
	cpu, mem := pod.Requests.MilliCPU, pod.Requests.Memory
	if cpu == 0 && mem == 0 {
		return 0
	}
	a := nodeAllocation(node, cpu, mem, true)
	return balancedResourceScorer(&a)
}

// ScoreExtensions implements framework.ScorePlugin: none.
func (*BalancedAllocation) ScoreExtensions() framework.ScoreExtensions { return nil }

// balancedResourceScorer scores how placing the pod changes the node's
// balance, as v1.36's balancedResourceScorer: both balance scores lie in
// [50, 100], so their difference lies in [−50, 50] and the result in
// [50, 100]: about 75 when the pod barely changes the balance, towards
// 100 when it improves it, towards 50 when it worsens it. Integer
// division as upstream.
func balancedResourceScorer(a *allocation) int64 {
	scoreWithPod := balancedResourceScore(&a.requested, &a.allocatable)
	scoreWithoutPod := balancedResourceScore(&a.allocated, &a.allocatable)
	return improvementScore(scoreWithPod, scoreWithoutPod)
}

func improvementScore(scoreWithPod, scoreWithoutPod int64) int64 {
	return framework.MaxNodeScore/2 + (framework.MaxNodeScore/2+scoreWithPod-scoreWithoutPod)/2
}

// balancedResourceScore is (1 − std) × 100 truncated, std being the
// standard deviation of the requested fractions (capped at 1) of the
// resources the node has; for two resources |f1 − f2| / 2, for one or
// none 0. The float expressions follow upstream exactly so results round
// identically.
func balancedResourceScore(requested, allocatable *[numResources]int64) int64 {
	var fractions [numResources]float64
	n := 0
	for i := 0; i < numResources; i++ {
		if allocatable[i] == 0 {
			continue
		}
		fraction := float64(requested[i]) / float64(allocatable[i])
		if fraction > 1 {
			fraction = 1
		}
		fractions[n] = fraction
		n++
	}
	std := 0.0
	if n == 2 {
		std = math.Abs((fractions[0] - fractions[1]) / 2)
	}
	return int64((1 - std) * float64(framework.MaxNodeScore))
}
