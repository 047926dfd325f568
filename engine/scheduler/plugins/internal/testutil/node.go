package testutil

import "podlab.dev/podlab/engine/api"

// Res is a resource map written as strings ("cpu": "500m", "memory": "1Gi").
type Res map[string]string

// List parses the map into an api.ResourceList; it panics on a malformed
// quantity (test input).
func (r Res) List() api.ResourceList {
	if r == nil {
		return nil
	}
	out := make(api.ResourceList, len(r))
	for k, v := range r {
		q, err := api.ParseQuantity(v)
		if err != nil {
			panic("testutil: " + err.Error())
		}
		out[k] = q
	}
	return out
}

// NodeWrapper builds an api.Node.
type NodeWrapper struct{ api.Node }

// MakeNode starts a node with no labels, resources or taints.
func MakeNode() *NodeWrapper {
	return &NodeWrapper{api.Node{ObjectMeta: api.ObjectMeta{Labels: map[string]string{}}}}
}

// Obj returns the node.
func (n *NodeWrapper) Obj() *api.Node { return &n.Node }

// Name sets the name and, as a kubelet would, the kubernetes.io/hostname label.
func (n *NodeWrapper) Name(s string) *NodeWrapper {
	n.Node.Name = s
	n.Node.Labels[api.LabelHostname] = s
	return n
}

// Label sets a label.
func (n *NodeWrapper) Label(k, v string) *NodeWrapper {
	n.Node.Labels[k] = v
	return n
}

// Capacity sets both capacity and allocatable, as the upstream wrapper does.
func (n *NodeWrapper) Capacity(r Res) *NodeWrapper {
	n.Status.Capacity = r.List()
	n.Status.Allocatable = r.List()
	return n
}

// Allocatable sets allocatable only (capacity stays as it is).
func (n *NodeWrapper) Allocatable(r Res) *NodeWrapper {
	n.Status.Allocatable = r.List()
	return n
}

// Images sets node.status.images, one name per entry (name → size in bytes).
func (n *NodeWrapper) Images(images map[string]int64) *NodeWrapper {
	n.Status.Images = nil
	for name, size := range images {
		n.Status.Images = append(n.Status.Images, api.ContainerImage{Names: []string{name}, SizeBytes: size})
	}
	return n
}

// Image appends one image entry with possibly several names.
func (n *NodeWrapper) Image(size int64, names ...string) *NodeWrapper {
	n.Status.Images = append(n.Status.Images, api.ContainerImage{Names: names, SizeBytes: size})
	return n
}

// Taint appends a taint.
func (n *NodeWrapper) Taint(key, value, effect string) *NodeWrapper {
	n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: key, Value: value, Effect: effect})
	return n
}

// Taints replaces the taints.
func (n *NodeWrapper) Taints(ts []api.Taint) *NodeWrapper {
	n.Spec.Taints = ts
	return n
}

// Unschedulable sets spec.unschedulable.
func (n *NodeWrapper) Unschedulable(u bool) *NodeWrapper {
	n.Spec.Unschedulable = u
	return n
}

// Condition appends a node condition.
func (n *NodeWrapper) Condition(typ, status string) *NodeWrapper {
	n.Status.Conditions = append(n.Status.Conditions, api.Condition{Type: typ, Status: status})
	return n
}
