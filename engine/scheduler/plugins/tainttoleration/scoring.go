package tainttoleration

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/helper"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/nodetraits"
)

// preScoreState holds the pod's tolerations that can tolerate a
// PreferNoSchedule taint.
type preScoreState struct {
	tolerationsPreferNoSchedule []api.Toleration
	traits                      *nodetraits.Index
}

// Clone implements framework.StateData; the state is immutable.
func (s *preScoreState) Clone() framework.StateData { return s }

// tolerationsPreferNoSchedule keeps tolerations with effect
// PreferNoSchedule or no effect (which means every effect), as
// getAllTolerationPreferNoSchedule.
func tolerationsPreferNoSchedule(ts []api.Toleration) []api.Toleration {
	var out []api.Toleration
	for _, t := range ts {
		if t.Effect == "" || t.Effect == api.TaintEffectPreferNoSchedule {
			out = append(out, t)
		}
	}
	return out
}

// PreScore implements framework.PreScorePlugin. Upstream never skips.
func (p *Plugin) PreScore(state *framework.CycleState, pod *framework.PodInfo, snap *framework.Snapshot, _ []*framework.NodeInfo) *framework.Status {
	s := &preScoreState{tolerationsPreferNoSchedule: tolerationsPreferNoSchedule(pod.Pod.Spec.Tolerations)}
	if snap != nil {
		s.traits = nodetraits.Of(snap)
	}
	state.Write(preScoreStateKey, s)
	p.preScore.Store(state, s)
	return nil
}

// Score implements framework.ScorePlugin: the raw score is the number of
// PreferNoSchedule taints the pod does not tolerate
// (countIntolerableTaintsPreferNoSchedule); NormalizeScore reverses it.
func (p *Plugin) Score(state *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) (int64, *framework.Status) {
	s, ok := cyclecache.Get(&p.preScore, state, preScoreStateKey)
	if !ok || s == nil {
		return 0, framework.AsStatus(fmt.Errorf("%s: reading %q from cycle state: PreScore did not run", Name, preScoreStateKey))
	}
	if t, ok := s.traits.Get(node); ok && t&nodetraits.PreferTaints == 0 {
		return 0, nil
	}
	return countIntolerable(node.Node.Spec.Taints, s.tolerationsPreferNoSchedule), nil
}

func countIntolerable(taints []api.Taint, tolerations []api.Toleration) int64 {
	var n int64
	for i := range taints {
		if taints[i].Effect != api.TaintEffectPreferNoSchedule {
			continue
		}
		if !api.TolerationsTolerateTaint(tolerations, &taints[i]) {
			n++
		}
	}
	return n
}

// ScoreExtensions implements framework.ScorePlugin.
func (p *Plugin) ScoreExtensions() framework.ScoreExtensions { return p }

// NormalizeScore implements framework.ScoreExtensions: fewer intolerable
// taints score higher (DefaultNormalizeScore with reverse).
func (*Plugin) NormalizeScore(_ *framework.CycleState, _ *framework.PodInfo, scores []framework.NodeScore) *framework.Status {
	return helper.DefaultNormalizeScore(framework.MaxNodeScore, true, scores)
}
