package manifest

import (
	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/api"
)

func (d *decoder) affinity(n *yaml.Node, path string) *api.Affinity {
	a := &api.Affinity{}
	d.fields(n, path, schemaAffinity, func(key string, v *yaml.Node, p string) {
		switch key {
		case "nodeAffinity":
			a.NodeAffinity = d.nodeAffinity(v, p)
		case "podAffinity":
			req, pref := d.podAffinity(v, p)
			a.PodAffinity = &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: req, PreferredDuringSchedulingIgnoredDuringExecution: pref}
		case "podAntiAffinity":
			req, pref := d.podAffinity(v, p)
			a.PodAntiAffinity = &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: req, PreferredDuringSchedulingIgnoredDuringExecution: pref}
		}
	})
	return a
}

func (d *decoder) nodeAffinity(n *yaml.Node, path string) *api.NodeAffinity {
	na := &api.NodeAffinity{}
	d.fields(n, path, schemaNodeAffinity, func(key string, v *yaml.Node, p string) {
		switch key {
		case "requiredDuringSchedulingIgnoredDuringExecution":
			ns := &api.NodeSelector{}
			d.fields(v, p, schemaNodeSelector, func(_ string, v *yaml.Node, p string) {
				d.seq(v, p, func(_ int, e *yaml.Node, p string) {
					ns.NodeSelectorTerms = append(ns.NodeSelectorTerms, d.nodeSelectorTerm(e, p))
				})
			})
			na.RequiredDuringSchedulingIgnoredDuringExecution = ns
		case "preferredDuringSchedulingIgnoredDuringExecution":
			d.seq(v, p, func(_ int, e *yaml.Node, p string) {
				var t api.PreferredSchedulingTerm
				d.fields(e, p, schemaPreferredTerm, func(key string, v *yaml.Node, p string) {
					switch key {
					case "weight":
						t.Weight, _ = d.int32(v, p)
					case "preference":
						t.Preference = d.nodeSelectorTerm(v, p)
					}
				})
				na.PreferredDuringSchedulingIgnoredDuringExecution = append(na.PreferredDuringSchedulingIgnoredDuringExecution, t)
			})
		}
	})
	return na
}

func (d *decoder) nodeSelectorTerm(n *yaml.Node, path string) api.NodeSelectorTerm {
	var t api.NodeSelectorTerm
	d.fields(n, path, schemaNodeSelectorTerm, func(key string, v *yaml.Node, p string) {
		reqs := d.nodeSelectorRequirements(v, p)
		if key == "matchExpressions" {
			t.MatchExpressions = reqs
		} else {
			t.MatchFields = reqs
		}
	})
	return t
}

func (d *decoder) nodeSelectorRequirements(n *yaml.Node, path string) []api.NodeSelectorRequirement {
	var out []api.NodeSelectorRequirement
	d.seq(n, path, func(_ int, e *yaml.Node, p string) {
		var r api.NodeSelectorRequirement
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
		out = append(out, r)
	})
	return out
}

func (d *decoder) podAffinity(n *yaml.Node, path string) (req []api.PodAffinityTerm, pref []api.WeightedPodAffinityTerm) {
	d.fields(n, path, schemaPodAffinity, func(key string, v *yaml.Node, p string) {
		switch key {
		case "requiredDuringSchedulingIgnoredDuringExecution":
			d.seq(v, p, func(_ int, e *yaml.Node, p string) {
				req = append(req, d.podAffinityTerm(e, p))
			})
		case "preferredDuringSchedulingIgnoredDuringExecution":
			d.seq(v, p, func(_ int, e *yaml.Node, p string) {
				var w api.WeightedPodAffinityTerm
				d.fields(e, p, schemaWeightedTerm, func(key string, v *yaml.Node, p string) {
					switch key {
					case "weight":
						w.Weight, _ = d.int32(v, p)
					case "podAffinityTerm":
						w.PodAffinityTerm = d.podAffinityTerm(v, p)
					}
				})
				pref = append(pref, w)
			})
		}
	})
	return req, pref
}

func (d *decoder) podAffinityTerm(n *yaml.Node, path string) api.PodAffinityTerm {
	var t api.PodAffinityTerm
	d.fields(n, path, schemaPodAffinityTerm, func(key string, v *yaml.Node, p string) {
		switch key {
		case "labelSelector":
			t.LabelSelector = d.labelSelector(v, p)
		case "namespaces":
			t.Namespaces = d.strings(v, p)
		case "topologyKey":
			t.TopologyKey = d.str(v, p)
		case "namespaceSelector":
			t.NamespaceSelector = d.labelSelector(v, p)
		case "matchLabelKeys":
			t.MatchLabelKeys = d.strings(v, p)
		case "mismatchLabelKeys":
			t.MismatchLabelKeys = d.strings(v, p)
		}
	})
	return t
}

func (d *decoder) toleration(n *yaml.Node, path string) api.Toleration {
	var t api.Toleration
	d.fields(n, path, schemaToleration, func(key string, v *yaml.Node, p string) {
		switch key {
		case "key":
			t.Key = d.str(v, p)
		case "operator":
			t.Operator = d.str(v, p)
		case "value":
			t.Value = d.str(v, p)
		case "effect":
			t.Effect = d.str(v, p)
		case "tolerationSeconds":
			t.TolerationSeconds = d.int64p(v, p)
		}
	})
	return t
}

func (d *decoder) spreadConstraint(n *yaml.Node, path string) api.TopologySpreadConstraint {
	var c api.TopologySpreadConstraint
	d.fields(n, path, schemaSpreadConstraint, func(key string, v *yaml.Node, p string) {
		switch key {
		case "maxSkew":
			c.MaxSkew, _ = d.int32(v, p)
		case "topologyKey":
			c.TopologyKey = d.str(v, p)
		case "whenUnsatisfiable":
			c.WhenUnsatisfiable = d.str(v, p)
		case "labelSelector":
			c.LabelSelector = d.labelSelector(v, p)
		case "minDomains":
			c.MinDomains = d.int32p(v, p)
		case "nodeAffinityPolicy":
			c.NodeAffinityPolicy = d.strp(v, p)
		case "nodeTaintsPolicy":
			c.NodeTaintsPolicy = d.strp(v, p)
		case "matchLabelKeys":
			c.MatchLabelKeys = d.strings(v, p)
		}
	})
	return c
}
