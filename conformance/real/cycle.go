package real

import (
	"fmt"
	"sort"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	plfeature "k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
)

func frameworkFeatures() plfeature.Features {
	return plfeature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate)
}

// cycle is the outcome of one scheduling cycle.
type cycle struct {
	state    fwk.CycleState
	all      []fwk.NodeInfo
	feasible []fwk.NodeInfo
	statuses *framework.NodeToStatus
	preMsg   string
	// scores of the feasible nodes (nil when not scored).
	scores []fwk.NodePluginScores
	chosen string
}

// runCycle runs PreFilter → (nominated node) → Filter on every node →
// (PreScore → Score when scoring) for one pod on the current cache
// contents, as schedulePod/findNodesThatFitPod in
// pkg/scheduler/schedule_one.go. alwaysScore also scores a single feasible
// node (explain); otherwise one feasible node is taken unscored.
func (r *Runner) runCycle(pod *v1.Pod, alwaysScore bool) (*cycle, error) {
	if err := r.use(pod); err != nil {
		return nil, err
	}
	if err := r.cache.UpdateSnapshot(r.logger, r.snap); err != nil {
		return nil, fmt.Errorf("update snapshot: %w", err)
	}
	all, err := r.snap.NodeInfos().List()
	if err != nil {
		return nil, err
	}
	c := &cycle{state: framework.NewCycleState(), all: all, statuses: framework.NewDefaultNodeToStatus()}
	preRes, s, unsched := r.fw.RunPreFilterPlugins(r.ctx, c.state, pod)
	if !s.IsSuccess() {
		if !s.IsRejected() {
			return nil, fmt.Errorf("prefilter: %w", s.AsError())
		}
		c.statuses.SetAbsentNodesStatus(s)
		c.preMsg = s.Message()
		return c, nil
	}
	if nnn := pod.Status.NominatedNodeName; nnn != "" {
		if ni, err := r.snap.NodeInfos().Get(nnn); err == nil {
			if st := r.fw.RunFilterPluginsWithNominatedPods(r.ctx, c.state, pod, ni); st.IsSuccess() {
				c.feasible = []fwk.NodeInfo{ni}
				c.chosen = nnn
				return c, nil
			} else {
				c.statuses.Set(nnn, st)
			}
		}
	}
	nodes := all
	if !preRes.AllNodes() {
		nodes = nil
		for _, ni := range all {
			if preRes.NodeNames.Has(ni.Node().Name) {
				nodes = append(nodes, ni)
			}
		}
		c.statuses.SetAbsentNodesStatus(fwk.NewStatus(fwk.UnschedulableAndUnresolvable,
			fmt.Sprintf("node(s) didn't satisfy plugin(s) %v", sets.List(unsched))))
	}
	verdicts := make([]*fwk.Status, len(nodes))
	r.fw.Parallelizer().Until(r.ctx, len(nodes), func(i int) {
		verdicts[i] = r.fw.RunFilterPluginsWithNominatedPods(r.ctx, c.state, pod, nodes[i])
	}, "Filter")
	for i, st := range verdicts {
		switch {
		case st.IsSuccess():
			c.feasible = append(c.feasible, nodes[i])
		case st.IsRejected():
			c.statuses.Set(nodes[i].Node().Name, st)
		default:
			return nil, fmt.Errorf("filter on node %s: %w", nodes[i].Node().Name, st.AsError())
		}
	}
	switch {
	case len(c.feasible) == 0:
		return c, nil
	case len(c.feasible) == 1 && !alwaysScore:
		c.chosen = c.feasible[0].Node().Name
		return c, nil
	}
	if st := r.fw.RunPreScorePlugins(r.ctx, c.state, pod, c.feasible); !st.IsSuccess() {
		return nil, fmt.Errorf("prescore: %w", st.AsError())
	}
	scores, st := r.fw.RunScorePlugins(r.ctx, c.state, pod, c.feasible)
	if !st.IsSuccess() {
		return nil, fmt.Errorf("score: %w", st.AsError())
	}
	c.scores = scores
	c.chosen = bestByName(scores)
	return c, nil
}

// bestByName returns the highest total, ties to the smallest node name
// (upstream selectHost samples ties at random).
func bestByName(scores []fwk.NodePluginScores) string {
	best := -1
	for i := range scores {
		if best < 0 || scores[i].TotalScore > scores[best].TotalScore ||
			(scores[i].TotalScore == scores[best].TotalScore && scores[i].Name < scores[best].Name) {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return scores[best].Name
}

// fitError formats the cycle's failure as framework.FitError does.
func (c *cycle) fitError(pod *v1.Pod, postFilterMsg string) string {
	fe := &framework.FitError{
		Pod:         pod,
		NumAllNodes: len(c.all),
		Diagnosis: framework.Diagnosis{
			NodeToStatus:  c.statuses,
			PreFilterMsg:  c.preMsg,
			PostFilterMsg: postFilterMsg,
		},
	}
	return fe.Error()
}

// statusOf returns a node's filter status in this cycle (nil = passed).
func (c *cycle) statusOf(node string) *fwk.Status {
	for _, ni := range c.feasible {
		if ni.Node().Name == node {
			return nil
		}
	}
	return c.statuses.Get(node)
}

func sortedUnique(in []string) []string {
	set := sets.New(in...)
	out := sets.List(set)
	sort.Strings(out)
	return out
}
