package lab

import (
	"fmt"
	"strconv"
	"strings"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab/command"
)

// Default node shape of the cluster shorthand and of `add zone`/`add node`.
const (
	DefaultNodeCPU    = "4"
	DefaultNodeMemory = "16Gi"
	DefaultNodePods   = "110"
	DefaultNodeNames  = "node-{n}"
	// MaxNodes bounds the autoscaler's node groups (Kubernetes supports
	// 5,000 nodes per cluster); the cluster shorthand and `add zone` are
	// bounded by the object budget (ObjectBudget).
	MaxNodes = 5000
)

// ZoneLabel returns the label naming a node's zone.
func (c *ClusterSpec) zoneLabel() string {
	if c.ZoneLabel == "" {
		return api.LabelTopologyZone
	}
	return c.ZoneLabel
}

// nodeNameFrom is a generated node name: pattern (cluster.nodeNames)
// with {n} the node's number in the cluster, {i} its number in its zone
// and {zone} the zone. The shorthand, add zone and validate name nodes
// alike through it.
func nodeNameFrom(pattern string, n, i int, zone string) string {
	return strings.NewReplacer("{n}", strconv.Itoa(n), "{i}", strconv.Itoa(i), "{zone}", zone).Replace(pattern)
}

// Nodes expands the shorthand into Node objects, in zone order.
func (c *ClusterSpec) Nodes() ([]*api.Node, error) {
	pattern := c.NodeNames
	if pattern == "" {
		pattern = DefaultNodeNames
	}
	total := 0
	for _, z := range c.Zones {
		total += max(z.Nodes, len(z.Names), 1)
	}
	if total > ObjectBudget {
		// the object budget's refusal (LoadFile reports it first, at the
		// zone that crosses it)
		return nil, fmt.Errorf("the cluster shorthand makes %d nodes: %w", total,
			&engine.BudgetError{Resource: "nodes", Requested: int64(total), Limit: ObjectBudget})
	}
	var out []*api.Node
	seen := map[string]bool{}
	n := 0
	for _, z := range c.Zones {
		shape := mergeShape(c.Node, z.NodeShape)
		names := z.Names
		count := z.Nodes
		if count < 0 {
			count = len(names)
			if count == 0 {
				count = 1
			}
		}
		if len(names) > 0 && len(names) != count {
			return nil, fmt.Errorf("%s: zone %s lists %d names for %d nodes", z.Pos, z.Name, len(names), count)
		}
		for i := 1; i <= count; i++ {
			n++
			var name string
			if len(names) > 0 {
				name = names[i-1]
			} else {
				name = nodeNameFrom(pattern, n, i, z.Name)
			}
			if seen[name] {
				return nil, fmt.Errorf("%s: node name %q is generated twice; give the zones distinct names or use {zone} in cluster.nodeNames", z.Pos, name)
			}
			seen[name] = true
			node, err := NewNode(name, c.zoneLabel(), z.Name, shape)
			if err != nil {
				return nil, fmt.Errorf("%s: zone %s: %w", z.Pos, z.Name, err)
			}
			out = append(out, node)
		}
	}
	return out, nil
}

func mergeShape(base, over NodeShape) NodeShape {
	out := base
	if over.CPU != "" {
		out.CPU = over.CPU
	}
	if over.Memory != "" {
		out.Memory = over.Memory
	}
	if over.Pods != "" {
		out.Pods = over.Pods
	}
	if len(over.Labels) > 0 {
		out.Labels = map[string]string{}
		for k, v := range base.Labels {
			out.Labels[k] = v
		}
		for k, v := range over.Labels {
			out.Labels[k] = v
		}
	}
	out.Taints = append(append([]string(nil), base.Taints...), over.Taints...)
	return out
}

// NewNode builds a Ready node the way a kubelet registers one: hostname
// and zone labels, capacity = allocatable.
func NewNode(name, zoneLabel, zone string, shape NodeShape) (*api.Node, error) {
	cpu, mem, pods := orStr(shape.CPU, DefaultNodeCPU), orStr(shape.Memory, DefaultNodeMemory), orStr(shape.Pods, DefaultNodePods)
	rl := api.ResourceList{}
	// in this order, so that the first bad one is always the one named
	for _, r := range [...]struct{ res, s string }{{api.ResourceCPU, cpu}, {api.ResourceMemory, mem}, {api.ResourcePods, pods}} {
		q, err := api.ParseQuantity(r.s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.res, err)
		}
		if q < 0 { // ValidateNodeResources: a capacity is never negative
			return nil, fmt.Errorf("%s: Invalid value: %q: must be greater than or equal to 0", r.res, r.s)
		}
		rl[r.res] = q
	}
	labels := map[string]string{
		api.LabelHostname:    name,
		"kubernetes.io/os":   "linux",
		"kubernetes.io/arch": "amd64",
	}
	if zone != "" {
		labels[zoneLabel] = zone
	}
	for k, v := range shape.Labels {
		labels[k] = v
	}
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}}
	n.Status.Capacity = rl
	n.Status.Allocatable = rl.Clone()
	n.Status.Conditions = []api.Condition{{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady", Message: "kubelet is posting ready status"}}
	for _, t := range shape.Taints {
		ts, err := command.ParseTaint(t)
		if err != nil {
			return nil, fmt.Errorf("taint %q: %w", t, err)
		}
		n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: ts.Key, Value: ts.Value, Effect: ts.Effect})
	}
	return n, nil
}

func orStr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
