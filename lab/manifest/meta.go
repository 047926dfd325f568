package manifest

import (
	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/api"
)

// generateNameAlphabet is the one apiserver's names.SimpleNameGenerator
// draws from (no vowels, no confusable digits).
const generateNameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// meta decodes metadata at path into m. A namespace on a cluster-scoped
// object is dropped, as the API server ignores it.
func (d *decoder) meta(n *yaml.Node, path string, m *api.ObjectMeta, namespaced bool) {
	generateName := ""
	d.fields(n, path, schemaObjectMeta, func(key string, v *yaml.Node, p string) {
		switch key {
		case "name":
			m.Name = d.str(v, p)
		case "generateName":
			generateName = d.str(v, p)
		case "namespace":
			m.Namespace = d.str(v, p)
		case "uid":
			m.UID = d.str(v, p)
		case "labels":
			m.Labels = d.stringMap(v, p)
		case "annotations":
			m.Annotations = d.stringMap(v, p)
			// kubectl apply's copy of the whole object: large and of no use.
			delete(m.Annotations, "kubectl.kubernetes.io/last-applied-configuration")
		case "ownerReferences":
			d.seq(v, p, func(_ int, e *yaml.Node, p string) {
				m.OwnerReferences = append(m.OwnerReferences, d.ownerReference(e, p))
			})
		case "creationTimestamp":
			d.timestamp(v, p, true, func(t api.Time) { m.CreationTimestamp = t })
		case "deletionTimestamp":
			d.timestamp(v, p, false, func(t api.Time) { m.DeletionTimestamp = &t })
		case "deletionGracePeriodSeconds":
			m.DeletionGracePeriodSeconds = d.int64p(v, p)
		case "generation":
			m.Generation, _ = d.int64(v, p)
		case "managedFields":
			if v.Kind == yaml.SequenceNode {
				d.managedFields += len(v.Content)
			}
		}
	})
	if m.Name == "" && generateName != "" {
		m.Name = generateName + d.nameSuffix()
	}
	if !namespaced {
		m.Namespace = ""
	}
}

// defaultNamespace gives a namespaced object without one "default", as
// kubectl does (also when metadata is missing altogether).
func defaultNamespace(m *api.ObjectMeta) {
	if m.Namespace == "" {
		m.Namespace = "default"
	}
}

// nameSuffix is a deterministic stand-in for generateName's random suffix.
func (d *decoder) nameSuffix() string {
	d.generated++
	n := d.generated
	b := make([]byte, 5)
	for i := 4; i >= 0; i-- {
		b[i] = generateNameAlphabet[n%len(generateNameAlphabet)]
		n /= len(generateNameAlphabet)
	}
	return string(b)
}

func (d *decoder) ownerReference(n *yaml.Node, path string) api.OwnerReference {
	var r api.OwnerReference
	d.fields(n, path, schemaOwnerReference, func(key string, v *yaml.Node, p string) {
		switch key {
		case "apiVersion":
			r.APIVersion = d.str(v, p)
		case "kind":
			r.Kind = d.str(v, p)
		case "name":
			r.Name = d.str(v, p)
		case "uid":
			r.UID = d.str(v, p)
		case "controller":
			r.Controller = d.boolean(v, p)
		case "blockOwnerDeletion":
			r.BlockOwnerDeletion = d.boolean(v, p)
		}
	})
	return r
}

// labelSelector decodes a metav1.LabelSelector.
func (d *decoder) labelSelector(n *yaml.Node, path string) *api.LabelSelector {
	s := &api.LabelSelector{}
	d.fields(n, path, schemaLabelSelector, func(key string, v *yaml.Node, p string) {
		switch key {
		case "matchLabels":
			s.MatchLabels = d.stringMap(v, p)
		case "matchExpressions":
			d.seq(v, p, func(_ int, e *yaml.Node, p string) {
				var r api.LabelSelectorRequirement
				d.fields(e, p, schemaRequirement, func(key string, v *yaml.Node, p string) {
					switch key {
					case "key":
						r.Key = d.str(v, p)
					case "operator":
						r.Operator = d.str(v, p)
					case "values":
						r.Values = d.strings(v, p)
					}
				})
				s.MatchExpressions = append(s.MatchExpressions, r)
			})
		}
	})
	return s
}
