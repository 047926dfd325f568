package lab

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/kubelet"
	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/engine/scheduler/plugins/podtopologyspread"
)

// The terminal lab's view model: what ui draws, with every Kubernetes rule
// (which label is the zone, what a node's usage is, which kinds scale,
// what a node's badges are) answered here, so ui imports lab only. The
// engine's read-only views are re-exported as aliases: ui reads them, it
// never builds or changes them.
type (
	// Engine is the cluster a session runs (read through its methods).
	Engine = engine.Engine
	// Snapshot is the cluster at one instant, as drawn.
	Snapshot = engine.Snapshot
	// NodeView is a node, its pods and its memory signal.
	NodeView = engine.NodeView
	// PodView is a pod and where it is in its life.
	PodView = engine.PodView
	// PendingPod is a pod waiting for the scheduler, with its message.
	PendingPod = engine.PendingPod
	// Counts are the cluster's pod and node counts.
	Counts = engine.Counts
	// Event is one event of the log.
	Event = engine.Event
	// Pod is a pod object.
	Pod = api.Pod
	// Node is a node object.
	Node = api.Node
	// Time is virtual time.
	Time = api.Time
	// Span is one phase of a pod's or container's termination timeline.
	Span = kubelet.Span
	// RankEntry is one pod of the kubelet's eviction ranking.
	RankEntry = kubelet.RankEntry
	// NodeVerdict is the scheduler's verdict on one node for one pod.
	NodeVerdict = scheduler.NodeVerdict
)

// Termination phases of a timeline span (kubelet's names).
const (
	PhasePending           = kubelet.PhasePending
	PhaseContainerCreating = kubelet.PhaseContainerCreating
	PhaseRunning           = kubelet.PhaseRunning
	PhasePreStop           = kubelet.PhasePreStop
	PhaseSIGTERM           = kubelet.PhaseSIGTERM
	PhaseSIGKILL           = kubelet.PhaseSIGKILL
	PhaseGone              = kubelet.PhaseGone
)

// EventWarning is the type of a warning event.
const EventWarning = engine.EventWarning

// ZoneLabel is the node label this scenario names zones with
// (cluster.zoneLabel, topology.kubernetes.io/zone by default).
func (s *Session) ZoneLabel() string { return s.zoneLabel() }

// NodeZone is the zone a node is in ("" when it has no zone label).
func (s *Session) NodeZone(n *api.Node) string {
	if n == nil {
		return ""
	}
	return n.Labels[s.zoneLabel()]
}

// GroupKeys are the topology keys the cluster view can group nodes by:
// the scenario's zone label, the hostname, then every other label some
// node has (sorted; os and arch left out, every node has them).
func (s *Session) GroupKeys(nodes []NodeView) []string {
	keys := []string{s.zoneLabel(), api.LabelHostname}
	seen := map[string]bool{keys[0]: true, keys[1]: true, "kubernetes.io/os": true, "kubernetes.io/arch": true}
	var extra []string
	for _, nv := range nodes {
		for k := range nv.Node.Labels {
			if !seen[k] {
				seen[k] = true
				extra = append(extra, k)
			}
		}
	}
	sort.Strings(extra)
	return append(keys, extra...)
}

// ShortKey is a topology key as a heading shows it: "zone" for the zone
// label (whatever it is called), "hostname", else the key itself.
func (s *Session) ShortKey(k string) string {
	switch k {
	case s.zoneLabel(), api.LabelTopologyZone:
		return "zone"
	case api.LabelHostname:
		return "hostname"
	}
	return k
}

// NextZoneName is a zone name no node has yet: zone-a, zone-b, …
func (s *Session) NextZoneName() string {
	have := map[string]bool{}
	for _, n := range s.eng.Nodes() {
		have[n.Labels[s.zoneLabel()]] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		if name := "zone-" + string(c); !have[name] {
			return name
		}
	}
	return "zone-new"
}

var numberedName = regexp.MustCompile(`^(.*?)(\d+)$`)

// NextNodeName is a free node name that follows the cluster's naming:
// after node1…node5 comes node6, after node-1 node-2; node-N otherwise.
func (s *Session) NextNodeName() string {
	have := map[string]bool{}
	prefixes := map[string]int{} // prefix → highest number
	best, bestCount := "node-", 0
	counts := map[string]int{}
	for _, n := range s.eng.Nodes() {
		have[n.Name] = true
		if m := numberedName.FindStringSubmatch(n.Name); m != nil {
			k, _ := strconv.Atoi(m[2])
			prefixes[m[1]] = max(prefixes[m[1]], k)
			counts[m[1]]++
			if c := counts[m[1]]; c > bestCount || (c == bestCount && m[1] < best) {
				best, bestCount = m[1], c
			}
		}
	}
	for k := prefixes[best] + 1; ; k++ {
		if name := best + strconv.Itoa(k); !have[name] {
			return name
		}
	}
}

// Scalable reports whether the scale verb takes this workload.
func (w Workload) Scalable() bool {
	switch w.Kind {
	case "deployment", "statefulset", "replicaset":
		return true
	}
	return false
}

// NodeUsage is a node's requested share of its allocatable, as the
// scheduler counts it (terminating pods hold their requests).
type NodeUsage struct{ CPU, Memory, Pods float64 }

// NodeUsage is what the pods on a node request over its allocatable, from
// the scheduler's incrementally kept sums (counted from the view when the
// session has no scheduler).
func (s *Session) NodeUsage(nv NodeView) NodeUsage {
	req, n, ok := s.NodeRequested(nv.Node.Name)
	if !ok {
		for _, pv := range nv.Pods {
			if pv.State == engine.StateTerminated {
				continue
			}
			req.Add(api.ResourcesOf(api.PodRequests(pv.Pod, api.PodRequestsOptions{})))
			n++
		}
	}
	alloc := api.ResourcesOf(nv.Node.Status.Allocatable)
	return NodeUsage{CPU: fraction(req.MilliCPU, alloc.MilliCPU), Memory: fraction(req.Memory, alloc.Memory), Pods: fraction(int64(n), alloc.AllowedPods)}
}

func fraction(used, total int64) float64 {
	if total <= 0 {
		return 0
	}
	return float64(used) / float64(total)
}

// NodeFlags are the marks a node carries in the cluster view.
type NodeFlags struct {
	Cordoned       bool
	Taints         int // taints other than the cordon's
	MemoryPressure bool
	// NotReady is "NotReady" or "Unreachable" when the Ready condition
	// is False or Unknown, else "".
	NotReady string
}

// FlagsOf reads a node's marks.
func FlagsOf(nv NodeView) NodeFlags {
	n := nv.Node
	f := NodeFlags{Cordoned: n.Spec.Unschedulable, MemoryPressure: nv.MemoryPressure}
	for _, t := range n.Spec.Taints {
		if t.Key != api.TaintNodeUnschedulable {
			f.Taints++
		}
	}
	if c := n.Condition(api.NodeReady); c != nil {
		switch c.Status {
		case api.ConditionFalse:
			f.NotReady = "NotReady"
		case api.ConditionUnknown:
			f.NotReady = "Unreachable"
		}
	}
	return f
}

// PodLook is how a pod is drawn: its life state, with evictions (a
// DisruptionTarget condition) told apart from plain terminations.
type PodLook int

// The looks of a pod.
const (
	LookPending PodLook = iota
	LookStarting
	LookRunning
	LookTerminating
	LookEvicting
	LookFailed
	// LookNotReady is running with Ready false (a failing probe);
	// LookCrashLoop is waiting in CrashLoopBackOff (PodHealth).
	LookNotReady
	LookCrashLoop
)

// LookOf is a pod's look.
func LookOf(pv PodView) PodLook {
	switch pv.State {
	case engine.StateStarting:
		return LookStarting
	case engine.StateRunning:
		switch PodHealth(pv.Pod) {
		case "crash-loop":
			return LookCrashLoop
		case "not-ready":
			return LookNotReady
		}
		return LookRunning
	case engine.StateTerminating:
		if pv.Pod.Condition(api.DisruptionTarget) != nil {
			return LookEvicting
		}
		return LookTerminating
	case engine.StateTerminated:
		return LookFailed
	}
	return LookPending
}

// SpreadLine is one hard spread constraint's arithmetic on a node.
type SpreadLine struct {
	Text string
	Pass bool
}

// HardSpread is the arithmetic of the pod's hard topology spread
// constraints on the node of a verdict (none when it has none).
func HardSpread(v NodeVerdict) []SpreadLine {
	sp, _ := v.Details[podtopologyspread.Name].(*podtopologyspread.Explanation)
	if sp == nil {
		return nil
	}
	out := make([]SpreadLine, len(sp.Hard))
	for i, c := range sp.Hard {
		out[i] = SpreadLine{Text: SpreadArithmetic(c), Pass: c.Pass}
	}
	return out
}

// HardSpreadCount is len(HardSpread(v)) without building the lines.
func HardSpreadCount(v NodeVerdict) int {
	sp, _ := v.Details[podtopologyspread.Name].(*podtopologyspread.Explanation)
	if sp == nil {
		return 0
	}
	return len(sp.Hard)
}

// EvictionThreshold is the kubelet's hard memory.available threshold.
func (s *Session) EvictionThreshold() string {
	if sc := s.file.Scenario; sc != nil {
		if v, ok := sc.Kubelet.EvictionHard["memory.available"]; ok {
			return v
		}
	}
	return "100Mi"
}

// HumanBytes prints a byte count approximately ("1.2Gi").
func HumanBytes(b int64) string { return api.HumanBytes(api.Units(b)) }

// PressureCommand is the command the pressure key offers for a node:
// memory pressure on, or off when the node already has memory set.
func PressureCommand(nv NodeView) string {
	if nv.Memory.System > 0 {
		return fmt.Sprintf("pressure node %s memory=off", nv.Node.Name)
	}
	return fmt.Sprintf("pressure node %s memory=95%%", nv.Node.Name)
}

// Bare reports the pseudo-workload of the pods no controller owns.
func (w Workload) Bare() bool { return w.Kind == "pods" }

// Key identifies a workload among Workloads() ("kind/namespace/name").
func (w Workload) Key() string { return w.Kind + "/" + w.Namespace + "/" + w.Name }

// WorkloadKey is the Key of the workload a pod belongs to (the bare pods
// of its namespace when no controller owns it).
func (s *Session) WorkloadKey(p *api.Pod) string {
	kind, name := s.WorkloadOf(p)
	if kind == "" {
		return Workload{Kind: "pods", Namespace: p.Namespace, Name: "(no controller)"}.Key()
	}
	return Workload{Kind: kind, Namespace: p.Namespace, Name: name}.Key()
}

// HasOwnSpread reports a workload whose pod template declares topology
// spread constraints (without, its pods get the cluster's defaults).
func (w Workload) HasOwnSpread() bool {
	return w.Template == nil || len(w.Template.Spec.TopologySpreadConstraints) > 0
}

// CordonCommand is the command the cordon key runs on a node: cordon, or
// uncordon when it is cordoned.
func CordonCommand(nv NodeView) string {
	if nv.Node.Spec.Unschedulable {
		return "uncordon " + nv.Node.Name
	}
	return "cordon " + nv.Node.Name
}

// MemoryPressured reports a node the eviction view shows: under memory
// pressure, or with memory use set by a pressure command.
func MemoryPressured(nv NodeView) bool { return nv.MemoryPressure || nv.Memory.System > 0 }
