package imagelocality

import "podlab.dev/podlab/engine/scheduler/framework"

var _ framework.BatchScorePlugin = (*Plugin)(nil)

// ScoreBatch implements framework.BatchScorePlugin with Score's values.
func (p *Plugin) ScoreBatch(state *framework.CycleState, pod *framework.PodInfo, nodes []*framework.NodeInfo, scores []framework.NodeScore) *framework.Status {
	for i, ni := range nodes {
		sc, st := p.Score(state, pod, ni)
		if !st.IsSuccess() {
			return st
		}
		scores[i].Score = sc
	}
	return nil
}
