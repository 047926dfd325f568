// Package nodeports is kube-scheduler's NodePorts filter
// (pkg/scheduler/framework/plugins/nodeports): a pod asking for host ports
// fits only nodes where no assigned pod holds a conflicting one.
package nodeports

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
)

// Name is the plugin's name in profiles and explanations.
const Name = "NodePorts"

// ErrReason rejects a node whose host ports are taken (resolvable:
// evicting the holder frees them).
const ErrReason = "node(s) didn't have free ports for the requested pod ports"

const preFilterStateKey framework.StateKey = "PreFilter" + Name

const bindAllHostIP = "0.0.0.0"

// Plugin is the NodePorts filter.
type Plugin struct {
	preFilter cyclecache.Cache[preFilterState]
}

var (
	_ framework.PreFilterPlugin = (*Plugin)(nil)
	_ framework.FilterPlugin    = (*Plugin)(nil)
)

// New returns the plugin.
func New() *Plugin { return &Plugin{} }

// Name implements framework.Plugin.
func (*Plugin) Name() string { return Name }

// preFilterState is the pod's host ports.
type preFilterState []framework.HostPort

// Clone implements framework.StateData; the state is immutable.
func (s preFilterState) Clone() framework.StateData { return s }

// HostPorts lists the host ports a pod holds while it runs, as
// pkg/scheduler/util GetHostPorts: restartable (sidecar) init containers
// first, then the containers; regular init containers are not counted
// because they are gone before the pod runs. Empty host IPs read as
// 0.0.0.0 and empty protocols as TCP (HostPortInfo.sanitize).
//
// framework.HostPortsOf (which fills NodeInfo.UsedPorts) also counts
// regular init containers; Filter corrects for that (see conflicts).
func HostPorts(pod *api.Pod) []framework.HostPort {
	var out []framework.HostPort
	for i := range pod.Spec.InitContainers {
		if c := &pod.Spec.InitContainers[i]; c.IsSidecar() {
			out = appendHostPorts(out, c)
		}
	}
	for i := range pod.Spec.Containers {
		out = appendHostPorts(out, &pod.Spec.Containers[i])
	}
	return out
}

func appendHostPorts(out []framework.HostPort, c *api.Container) []framework.HostPort {
	for _, p := range c.Ports {
		if p.HostPort <= 0 {
			continue
		}
		out = append(out, sanitize(p))
	}
	return out
}

func sanitize(p api.ContainerPort) framework.HostPort {
	hp := framework.HostPort{IP: p.HostIP, Protocol: p.Protocol, Port: p.HostPort}
	if hp.IP == "" {
		hp.IP = bindAllHostIP
	}
	if hp.Protocol == "" {
		hp.Protocol = "TCP"
	}
	return hp
}

// PreFilter implements framework.PreFilterPlugin: Skip for a pod without
// host ports.
func (p *Plugin) PreFilter(state *framework.CycleState, pod *framework.PodInfo, _ *framework.Snapshot) (*framework.PreFilterResult, *framework.Status) {
	ports := HostPorts(pod.Pod)
	if len(ports) == 0 {
		p.preFilter.Store(state, nil)
		return nil, framework.SkipStatus
	}
	s := preFilterState(ports)
	state.Write(preFilterStateKey, s)
	p.preFilter.Store(state, s)
	return nil, nil
}

// PreFilterExtensions implements framework.PreFilterPlugin: none (the
// used ports live in the NodeInfo a dry run edits).
func (*Plugin) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter implements framework.FilterPlugin (node_ports.go fitsPorts).
func (p *Plugin) Filter(state *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	want, ok := cyclecache.Get(&p.preFilter, state, preFilterStateKey)
	if !ok {
		want = HostPorts(pod.Pod)
	}
	if len(want) == 0 || len(node.UsedPorts) == 0 {
		return nil
	}
	if !Fits(want, node) {
		return framework.NewStatus(framework.Unschedulable, ErrReason)
	}
	return nil
}

// Fits reports whether none of the wanted host ports conflicts with one an
// assigned pod of the node holds.
func Fits(want []framework.HostPort, node *framework.NodeInfo) bool {
	for _, w := range want {
		if !usedPortsConflict(node.UsedPorts, w) {
			continue
		}
		// NodeInfo.UsedPorts is a superset of the ports pods hold (it
		// also counts regular init containers): confirm on the pods.
		if podsConflict(node.Pods, w) {
			return false
		}
	}
	return true
}

// usedPortsConflict is HostPortInfo.CheckConflict: 0.0.0.0 conflicts with
// the same protocol/port on any IP; another IP with itself and 0.0.0.0.
func usedPortsConflict(used map[framework.HostPort]struct{}, w framework.HostPort) bool {
	if w.Port <= 0 {
		return false
	}
	if w.IP == bindAllHostIP {
		for u := range used {
			if u.Port == w.Port && u.Protocol == w.Protocol {
				return true
			}
		}
		return false
	}
	if _, ok := used[framework.HostPort{IP: bindAllHostIP, Protocol: w.Protocol, Port: w.Port}]; ok {
		return true
	}
	_, ok := used[w]
	return ok
}

func podsConflict(pods []*framework.PodInfo, w framework.HostPort) bool {
	for _, pi := range pods {
		for _, u := range HostPorts(pi.Pod) {
			if u.Port == w.Port && u.Protocol == w.Protocol &&
				(w.IP == bindAllHostIP || u.IP == bindAllHostIP || u.IP == w.IP) {
				return true
			}
		}
	}
	return false
}
