package framework

import "podlab.dev/podlab/engine/api"

// Plugin is the base of every plugin.
type Plugin interface {
	Name() string
}

// PreEnqueuePlugin decides whether a pod may enter activeQ at all
// (fwk.PreEnqueuePlugin): a pod it rejects stays gated in the
// unschedulable pool and is never attempted. It sees only the pod.
type PreEnqueuePlugin interface {
	Plugin
	PreEnqueue(pod *api.Pod) *Status
}

// PreFilterPlugin runs once per pod before Filter.
type PreFilterPlugin interface {
	Plugin
	PreFilter(state *CycleState, pod *PodInfo, snap *Snapshot) (*PreFilterResult, *Status)
	// PreFilterExtensions may be nil.
	PreFilterExtensions() PreFilterExtensions
}

// PreFilterExtensions update a plugin's PreFilter state when the runtime
// hypothetically adds or removes a pod (nominated pods, preemption dry runs).
type PreFilterExtensions interface {
	AddPod(state *CycleState, podToSchedule, podToAdd *PodInfo, node *NodeInfo) *Status
	RemovePod(state *CycleState, podToSchedule, podToRemove *PodInfo, node *NodeInfo) *Status
}

// FilterPlugin decides whether a node can run the pod.
type FilterPlugin interface {
	Plugin
	Filter(state *CycleState, pod *PodInfo, node *NodeInfo) *Status
}

// PreScorePlugin runs once per pod over the feasible nodes.
type PreScorePlugin interface {
	Plugin
	PreScore(state *CycleState, pod *PodInfo, snap *Snapshot, feasible []*NodeInfo) *Status
}

// ScorePlugin ranks feasible nodes.
type ScorePlugin interface {
	Plugin
	Score(state *CycleState, pod *PodInfo, node *NodeInfo) (int64, *Status)
	// ScoreExtensions may be nil (no normalisation).
	ScoreExtensions() ScoreExtensions
}

// ScoreExtensions normalise a plugin's scores to [0, MaxNodeScore].
type ScoreExtensions interface {
	NormalizeScore(state *CycleState, pod *PodInfo, scores []NodeScore) *Status
}

// Explainer is implemented by plugins that can show the arithmetic behind
// their verdict on a node (PodTopologySpread's per-domain counts). The
// value is plugin-specific and meant for display; it must not be mutated.
type Explainer interface {
	Plugin
	ExplainNode(state *CycleState, pod *PodInfo, node *NodeInfo) any
}

// Handle is what plugins and the preemption evaluator may call back into
// (framework.Handle, reduced to what the lab needs).
type Handle interface {
	// Snapshot is the state the current cycle reads.
	Snapshot() *Snapshot
	// RunFilterPlugins runs every filter plugin on one node with the given
	// state, stopping at the first rejection, as
	// RunFilterPluginsWithNominatedPods does.
	RunFilterPlugins(state *CycleState, pod *PodInfo, node *NodeInfo) *Status
	// RunPreFilterExtensionAddPod / RemovePod call every plugin's extension.
	RunPreFilterExtensionAddPod(state *CycleState, podToSchedule, podToAdd *PodInfo, node *NodeInfo) *Status
	RunPreFilterExtensionRemovePod(state *CycleState, podToSchedule, podToRemove *PodInfo, node *NodeInfo) *Status
}
