package controllers

import "podlab.dev/podlab/engine/api"

// Cluster is what the controllers need from the engine: the API calls
// kube-controller-manager makes. Pods and nodes returned are the engine's
// objects and must not be modified by the controllers.
type Cluster interface {
	// Pods returns the namespace's pods, including terminating and
	// terminal ones ("" means all namespaces).
	Pods(namespace string) []*api.Pod
	// Nodes returns the cluster's nodes.
	Nodes() []*api.Node
	// CreatePod submits a new pod (name, labels, ownerReferences, UID and
	// creation time already set) as the API server would accept it. On
	// success the cluster may keep p itself: the caller reads it but
	// never changes it again.
	CreatePod(p *api.Pod) error
	// DeletePod starts graceful deletion with the pod's own grace period.
	DeletePod(namespace, name string) error
	// SetPodOwnership replaces a pod's labels and ownerReferences
	// (adoption, release, pod-template-hash labelling).
	SetPodOwnership(namespace, name string, labels map[string]string, refs []api.OwnerReference) error
	// FinishPod ends a running pod's containers: phase Succeeded or Failed
	// (the Job controller models a Job pod's run time; see docs/controllers.md).
	FinishPod(namespace, name, phase, reason string) error
	// Record publishes an event.
	Record(e Event)
}

// Event is a Kubernetes event (v1.Event) raised by a controller.
type Event struct {
	Time      api.Time
	Type      string // "Normal" or "Warning"
	Reason    string
	Message   string
	Kind      string // involved object's kind
	Namespace string
	Name      string
	Source    string // "deployment-controller", "replicaset-controller", ...
}

// Event types.
const (
	EventNormal  = "Normal"
	EventWarning = "Warning"
)

// objectBudget is implemented by a Cluster that bounds its objects (the
// engine's Config.MaxObjects): a controller sizes per-replica work by it.
type objectBudget interface{ MaxObjects() int }

// objectLimit is the cluster's object budget; 0 when it has none.
func (m *Manager) objectLimit() int {
	if b, ok := m.cluster.(objectBudget); ok {
		return b.MaxObjects()
	}
	return 0
}
