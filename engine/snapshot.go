package engine

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
)

// Snapshot is an immutable view of the cluster for the UI. Objects are
// shared with the engine, which never modifies an object once it is
// published (it replaces it), so a snapshot stays valid as time moves.
type Snapshot struct {
	Time   api.Time
	Counts Counts
	// Nodes sorted by name, each with its pods.
	Nodes []NodeView
	// Pending pods in queue order… sorted by namespace/name, with the
	// last FailedScheduling message.
	Pending []PendingPod
	PDBs    []*api.PodDisruptionBudget
	Drains  []DrainView
	// Timelines of the pods terminating now.
	Timelines map[string]kubelet.Timeline
	// Events is the event log so far (shared, append-only).
	Events []Event
}

// Counts are the pods per state and the nodes.
type Counts struct {
	Nodes, Pending, Starting, Running, Terminating, Terminated int
}

// NodeView is a node, its pods and its memory signal.
type NodeView struct {
	Node           *api.Node
	Pods           []PodView
	Memory         NodeMemory
	MemoryPressure bool
	// Ranking is the eviction order, for nodes under memory pressure.
	Ranking []kubelet.RankEntry
}

// PodView is a pod and where it is in its life.
type PodView struct {
	Pod   *api.Pod
	State PodState
	Usage int64
}

// DrainView is a drain's progress.
type DrainView struct {
	Node    string
	Done    bool
	Err     string
	Lines   []DrainLine
	Blocked []BlockedEviction
	Waiting []string
}

// Snapshot returns the current view.
func (e *Engine) Snapshot() *Snapshot {
	s := &Snapshot{Time: e.Now(), Events: e.Events(), PDBs: e.PDBs(), Timelines: map[string]kubelet.Timeline{}}
	byNode := map[string][]PodView{}
	for _, key := range e.sortedPodKeys() {
		ps := e.pods.Get(key)
		v := PodView{Pod: ps.pod, State: ps.state, Usage: ps.usage}
		switch ps.state {
		case StatePending:
			s.Counts.Pending++
			msg := ps.schedMessage
			if g := e.queue.Gate(key); g != nil {
				msg = g.Message() // gated: never attempted, no FailedScheduling
			}
			s.Pending = append(s.Pending, PendingPod{Pod: key, Message: msg, NominatedNode: ps.pod.Status.NominatedNodeName})
		case StateStarting:
			s.Counts.Starting++
		case StateRunning:
			s.Counts.Running++
		case StateTerminating:
			s.Counts.Terminating++
			if t, ok := e.Timeline(key); ok {
				s.Timelines[key] = t
			}
		case StateTerminated:
			s.Counts.Terminated++
		}
		if n := ps.pod.Spec.NodeName; n != "" {
			byNode[n] = append(byNode[n], v)
		}
	}
	s.Counts.Nodes = len(e.nodes)
	for _, name := range e.sortedNodeNames() {
		ns := e.nodes[name]
		m, _ := e.NodeMemory(name)
		nv := NodeView{Node: ns.node, Pods: byNode[name], Memory: m, MemoryPressure: ns.memoryPressure}
		if ns.memoryPressure {
			nv.Ranking = e.EvictionRanking(name)
		}
		s.Nodes = append(s.Nodes, nv)
	}
	for _, d := range e.drains {
		s.Drains = append(s.Drains, DrainView{Node: d.Node, Done: d.Done, Err: d.Err, Lines: d.Lines[:len(d.Lines):len(d.Lines)], Blocked: d.Blocked(), Waiting: d.Waiting()})
	}
	return s
}
