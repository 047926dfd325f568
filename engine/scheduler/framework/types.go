package framework

import "podlab.dev/podlab/engine/api"

// MaxNodeScore and MinNodeScore bound normalised scores (framework.MaxNodeScore).
const (
	MaxNodeScore int64 = 100
	MinNodeScore int64 = 0
)

// AffinityTerm is a compiled PodAffinityTerm (framework.AffinityTerm):
// matchLabelKeys/mismatchLabelKeys are already merged into Selector.
type AffinityTerm struct {
	Namespaces        map[string]struct{}
	Selector          api.Selector
	TopologyKey       string
	NamespaceSelector api.Selector
}

// WeightedAffinityTerm is a compiled preferred term.
type WeightedAffinityTerm struct {
	AffinityTerm
	Weight int32
}

// PodInfo is a pod plus what the scheduler derives from it once
// (framework.PodInfo / QueuedPodInfo): effective requests, compiled
// affinity terms. Build it with NewPodInfo; treat it as immutable.
type PodInfo struct {
	Pod *api.Pod
	// Priority is Pod.PriorityValue() (spec.priority is immutable once
	// admitted), kept here because preemption compares it for every pod
	// of hundreds of nodes.
	Priority int32
	// Requests are the effective requests (api.PodRequests).
	Requests api.Resources
	// NonZeroRequests fill cpu/memory for containers that set none with
	// 100m / 200Mi, as the scheduler's scoring does.
	NonZeroRequests api.Resources
	// ScoreRequests are NonZeroRequests without pod-level resources: what
	// NodeResourcesFit's LeastAllocated score counts for the incoming pod
	// in v1.36 (its scorer is built without the PodLevelResources gate,
	// fit.go getScorer / resource_allocation.go calculatePodResourceRequest).
	ScoreRequests api.Resources

	RequiredAffinityTerms      []AffinityTerm
	RequiredAntiAffinityTerms  []AffinityTerm
	PreferredAffinityTerms     []WeightedAffinityTerm
	PreferredAntiAffinityTerms []WeightedAffinityTerm
	// ParseError is set when a term's selector does not compile.
	ParseError error
	// Attempts counts scheduling attempts (queue bookkeeping).
	Attempts int
	// Seq is the arrival order in the queue (ties in priority go to the
	// earlier arrival).
	Seq int64
}

// NodeInfo aggregates a node and the pods assigned to it
// (framework.NodeInfo). Pods includes terminating pods (they hold resources
// until they are gone) but not terminal (Succeeded/Failed) ones.
type NodeInfo struct {
	Node *api.Node
	// Index is the node's position in Snapshot.Nodes (sorted by name).
	Index int

	Pods                         []*PodInfo
	PodsWithAffinity             []*PodInfo
	PodsWithRequiredAntiAffinity []*PodInfo
	// UsedPorts: "protocol/hostIP/port" keys of host ports in use.
	UsedPorts map[HostPort]struct{}

	Requested        api.Resources
	NonZeroRequested api.Resources
	Allocatable      api.Resources

	// Generation increases whenever the NodeInfo changes.
	Generation int64
}

// HostPort identifies a host port in use (NodePorts plugin).
type HostPort struct {
	IP       string
	Protocol string
	Port     int32
}

// NodeScore is a node's score from one plugin (or the total).
type NodeScore struct {
	Name  string
	Index int
	Score int64
}

// PreFilterResult narrows the nodes to evaluate; nil NodeNames means all.
type PreFilterResult struct {
	NodeNames map[string]struct{}
}

// AllNodes reports whether the result does not narrow.
func (r *PreFilterResult) AllNodes() bool { return r == nil || r.NodeNames == nil }
