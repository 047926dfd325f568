package engine

import (
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// PodState is where a pod is in its life; every pod is in exactly one.
type PodState int

const (
	// StatePending: not bound to a node (waiting in the scheduling queue).
	StatePending PodState = iota
	// StateStarting: bound; the kubelet is creating its containers.
	StateStarting
	// StateRunning: containers run (Ready after start-up).
	StateRunning
	// StateTerminating: being killed (deleted, evicted or preempted).
	StateTerminating
	// StateTerminated: phase Failed or Succeeded; the object stays (an
	// evicted pod) until something deletes it.
	StateTerminated
)

func (s PodState) String() string {
	switch s {
	case StatePending:
		return "Pending"
	case StateStarting:
		return "ContainerCreating"
	case StateRunning:
		return "Running"
	case StateTerminating:
		return "Terminating"
	case StateTerminated:
		return "Terminated"
	}
	return "Unknown"
}

type podState struct {
	// owner is the engine that may modify this state in place (cow.go).
	owner *owner
	// infoShared: info is shared with a clone's snapshot, so a change
	// replaces it instead of modifying it (setPodObject).
	infoShared bool
	pod        *api.Pod
	// id is the pod's number (watch_ids.go)
	id    PodID
	info  *framework.PodInfo
	state PodState
	// startGen guards the start-up action.
	startGen int64
	// usage is the modelled memory working set (bytes).
	usage int64
	kill  *killState
	// taint eviction scheduled by the taint manager
	taintGen     int64
	taintAt      *api.Time
	taintCreated api.Time
	// schedMessage is the last FailedScheduling message.
	schedMessage string
	// memCounted: usage is included in the node's podUsage (containers
	// started and not yet gone).
	memCounted bool
	// unready is the kubelet's own view that a container is not ready
	// (recorded so in the scenario, or a readiness probe failing): the pod
	// is not Ready even on a Ready node.
	unready bool
	// rt models the containers one by one (probes, restarts, init
	// containers); nil for pods without probes or behaviour annotations.
	rt *podRuntime
}

// killState is a termination in progress on the node.
type killState struct {
	gen   int64
	grace int64
	plan  kubelet.KillPlan
	// evicted: a kubelet eviction (the pod ends Failed, not deleted).
	evicted bool
	// awaitingKubelet: the node is unreachable; the kill starts when it
	// is back.
	awaitingKubelet bool
	// override is the kubelet's own grace override (eviction).
	override *int64
}

// podTimeline is what the UI's Gantt bar needs; it outlives the pod.
type podTimeline struct {
	owner     *owner // the engine that may modify it in place (cow.go)
	created   api.Time
	scheduled *api.Time
	running   *api.Time
	node      string
	plans     []kubelet.KillPlan // a shortened grace restarts the kill
	killGen   int64              // the kill in progress (0: none)
	gone      *api.Time
}

type nodeState struct {
	node *api.Node
	// systemUsage is non-pod memory use (bytes), set by SetNodePressure.
	systemUsage int64
	// podUsage sums the usage of the pods whose containers run here.
	podUsage int64
	pressure kubelet.PressureState
	// lastPass is the eviction manager's last pass; passGen guards the
	// scheduled one (0: none scheduled).
	lastPass api.Time
	passGen  int64
	// memoryPressure is the reported MemoryPressure condition.
	memoryPressure bool
}

// copyPod returns a shallow copy whose status conditions can be changed
// (pod objects are never modified once shared: snapshots keep them).
func copyPod(p *api.Pod) *api.Pod {
	c := *p
	c.Status.Conditions = append([]api.Condition(nil), p.Status.Conditions...)
	return &c
}

// copyNode returns a copy whose taints, labels and conditions can change.
func copyNode(n *api.Node) *api.Node {
	c := *n
	c.Spec.Taints = append([]api.Taint(nil), n.Spec.Taints...)
	c.Status.Conditions = append([]api.Condition(nil), n.Status.Conditions...)
	// UpdateNode compares allocatable before and after the mutation: the
	// copy must own its resource maps
	c.Status.Capacity, c.Status.Allocatable = n.Status.Capacity.Clone(), n.Status.Allocatable.Clone()
	if n.Labels != nil {
		c.Labels = make(map[string]string, len(n.Labels))
		for k, v := range n.Labels {
			c.Labels[k] = v
		}
	}
	return &c
}

// setCondition sets (or adds) a condition, keeping LastTransitionTime
// when the status does not change; it reports a status change.
func setCondition(conds []api.Condition, c api.Condition) ([]api.Condition, bool) {
	for i := range conds {
		if conds[i].Type == c.Type {
			changed := conds[i].Status != c.Status
			if !changed {
				c.LastTransitionTime = conds[i].LastTransitionTime
			}
			conds[i] = c
			return conds, changed
		}
	}
	return append(conds, c), true
}

func secondsDur(n int64) time.Duration { return api.SecondsDuration(n) }
