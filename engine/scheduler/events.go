package scheduler

// ClusterEvent is a change in the cluster that may make unschedulable pods
// schedulable (upstream fwk.ClusterEvent, reduced to what the lab emits).
type ClusterEvent int

const (
	// NodeAdd: a node joined.
	NodeAdd ClusterEvent = iota
	// NodeDelete: a node left.
	NodeDelete
	// NodeLabelChange: a node's labels changed.
	NodeLabelChange
	// NodeTaintChange: a node's taints or spec.unschedulable changed
	// (upstream reports both as UpdateNodeTaint).
	NodeTaintChange
	// NodeAllocatableChange: a node's allocatable changed.
	NodeAllocatableChange
	// AssignedPodAdd: a pod was bound to a node.
	AssignedPodAdd
	// AssignedPodLabelChange: an assigned pod's labels changed.
	AssignedPodLabelChange
	// AssignedPodScaleDown: an assigned pod's requests went down.
	AssignedPodScaleDown
	// AssignedPodDelete: an assigned pod is gone (deleted, or terminal,
	// which frees its resources).
	AssignedPodDelete
	// UnschedulableTimeout: the pod waited the maximum time in the
	// unschedulable pool (internal).
	UnschedulableTimeout
)

func (e ClusterEvent) String() string {
	switch e {
	case NodeAdd:
		return "NodeAdd"
	case NodeDelete:
		return "NodeDelete"
	case NodeLabelChange:
		return "NodeLabelChange"
	case NodeTaintChange:
		return "NodeTaintChange"
	case NodeAllocatableChange:
		return "NodeAllocatableChange"
	case AssignedPodAdd:
		return "AssignedPodAdd"
	case AssignedPodLabelChange:
		return "AssignedPodLabelChange"
	case AssignedPodScaleDown:
		return "AssignedPodScaleDown"
	case AssignedPodDelete:
		return "AssignedPodDelete"
	case UnschedulableTimeout:
		return "UnschedulableTimeout"
	}
	return "Unknown"
}

// pluginEvents lists, per filter plugin, the events that may make a pod
// it rejected schedulable: the EventsToRegister of each plugin in
// pkg/scheduler/framework/plugins/* (v1.36, queueing hints on). The
// plugins' QueueingHint functions, which look at the changed object to
// skip irrelevant events, are not modelled: any event of a registered
// kind requeues the pod (to backoffQ while it is still backing off), so
// the lab may retry a pod earlier than upstream but never later.
var pluginEvents = map[string][]ClusterEvent{
	"NodeUnschedulable": {NodeAdd, NodeTaintChange},
	"NodeName":          {NodeAdd},
	"TaintToleration":   {NodeAdd, NodeTaintChange},
	"NodeAffinity":      {NodeAdd, NodeLabelChange},
	"NodePorts":         {AssignedPodDelete, NodeAdd},
	"NodeResourcesFit":  {AssignedPodDelete, AssignedPodScaleDown, NodeAdd, NodeAllocatableChange},
	"PodTopologySpread": {AssignedPodAdd, AssignedPodLabelChange, AssignedPodDelete, NodeAdd, NodeDelete, NodeLabelChange, NodeTaintChange},
	"InterPodAffinity":  {AssignedPodAdd, AssignedPodLabelChange, AssignedPodDelete, NodeAdd, NodeLabelChange},
}

// worthRequeuing reports whether the event may help a pod rejected by
// plugins. A pod with no recorded plugin (it failed with an error, or
// the plugin is unknown) is requeued by any event.
func worthRequeuing(plugins []string, e ClusterEvent) bool {
	if len(plugins) == 0 || e == UnschedulableTimeout {
		return true
	}
	for _, p := range plugins {
		evs, ok := pluginEvents[p]
		if !ok {
			return true
		}
		for _, x := range evs {
			if x == e {
				return true
			}
		}
	}
	return false
}
