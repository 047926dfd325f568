package manifest

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/api"
)

func decodeNode(d *decoder, n *yaml.Node) (any, []fieldError) {
	node := &api.Node{}
	d.fields(n, "", schemaTop, func(key string, v *yaml.Node, path string) {
		switch key {
		case "metadata":
			d.meta(v, path, &node.ObjectMeta, false)
		case "spec":
			d.fields(v, path, schemaNodeSpec, func(key string, v *yaml.Node, p string) {
				switch key {
				case "taints":
					d.seq(v, p, func(_ int, e *yaml.Node, p string) {
						node.Spec.Taints = append(node.Spec.Taints, d.taint(e, p))
					})
				case "unschedulable":
					node.Spec.Unschedulable = d.boolean(v, p)
				}
			})
		case "status":
			d.nodeStatus(v, path, &node.Status)
		}
	})
	errs := validateObjectMeta(&node.ObjectMeta, "metadata", false, subdomainName)
	// ValidateNodeResources: every capacity and allocatable is ≥ 0
	errs = append(errs, validateResourceList(node.Status.Capacity, "status.capacity")...)
	errs = append(errs, validateResourceList(node.Status.Allocatable, "status.allocatable")...)
	// ValidateNode names the taints "metadata.taints" (an upstream quirk
	// kept in the messages); positions point at spec.taints.
	for _, e := range validateTaints(node.Spec.Taints, "metadata.taints") {
		e.at = "spec" + strings.TrimPrefix(e.path, "metadata")
		errs = append(errs, e)
	}
	return node, errs
}

func (d *decoder) taint(n *yaml.Node, path string) api.Taint {
	var t api.Taint
	d.fields(n, path, schemaTaint, func(key string, v *yaml.Node, p string) {
		switch key {
		case "key":
			t.Key = d.str(v, p)
		case "value":
			t.Value = d.str(v, p)
		case "effect":
			t.Effect = d.str(v, p)
		case "timeAdded":
			added := new(api.Time)
			t.TimeAdded = added
			d.timestamp(v, p, true, func(at api.Time) { *added = at })
		}
	})
	return t
}

func (d *decoder) nodeStatus(n *yaml.Node, path string, s *api.NodeStatus) {
	d.fields(n, path, schemaNodeStatus, func(key string, v *yaml.Node, p string) {
		switch key {
		case "capacity":
			s.Capacity = d.resourceList(v, p)
		case "allocatable":
			s.Allocatable = d.resourceList(v, p)
		case "conditions":
			s.Conditions = d.conditions(v, p, schemaNodeCondition)
		case "images":
			d.seq(v, p, func(_ int, e *yaml.Node, p string) {
				var img api.ContainerImage
				d.fields(e, p, schemaContainerImage, func(key string, v *yaml.Node, p string) {
					switch key {
					case "names":
						img.Names = d.strings(v, p)
					case "sizeBytes":
						img.SizeBytes, _ = d.int64(v, p)
					}
				})
				s.Images = append(s.Images, img)
			})
		}
	})
}

func decodeNamespace(d *decoder, n *yaml.Node) (any, []fieldError) {
	ns := &api.Namespace{}
	d.fields(n, "", schemaTop, func(key string, v *yaml.Node, path string) {
		switch key {
		case "metadata":
			d.meta(v, path, &ns.ObjectMeta, false)
		case "spec":
			d.fields(v, path, schemaNamespaceSpec, func(string, *yaml.Node, string) {})
		case "status":
			// phase and conditions: nothing the lab models
		}
	})
	return ns, validateObjectMeta(&ns.ObjectMeta, "metadata", false, labelName)
}
