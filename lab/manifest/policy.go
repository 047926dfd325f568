package manifest

import (
	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/api"
)

func decodePriorityClass(d *decoder, n *yaml.Node) (any, []fieldError) {
	pc := &api.PriorityClass{}
	d.fields(n, "", schemaPriorityClassTop, func(key string, v *yaml.Node, path string) {
		switch key {
		case "metadata":
			d.meta(v, path, &pc.ObjectMeta, false)
		case "value":
			pc.Value, _ = d.int32(v, path)
		case "globalDefault":
			pc.GlobalDefault = d.boolean(v, path)
		case "preemptionPolicy":
			pc.PreemptionPolicy = d.strp(v, path)
		case "description":
			pc.Description = d.str(v, path)
		}
	})
	errs := validateObjectMeta(&pc.ObjectMeta, "metadata", false, subdomainName)
	return pc, append(errs, validatePriorityClass(pc)...)
}

func decodePDB(d *decoder, n *yaml.Node) (any, []fieldError) {
	pdb := &api.PodDisruptionBudget{}
	d.fields(n, "", schemaTop, func(key string, v *yaml.Node, path string) {
		switch key {
		case "metadata":
			d.meta(v, path, &pdb.ObjectMeta, true)
		case "spec":
			s := &pdb.Spec
			d.fields(v, path, schemaPDBSpec, func(key string, v *yaml.Node, p string) {
				switch key {
				case "minAvailable":
					s.MinAvailable = d.intOrString(v, p)
				case "maxUnavailable":
					s.MaxUnavailable = d.intOrString(v, p)
				case "selector":
					s.Selector = d.labelSelector(v, p)
				case "unhealthyPodEvictionPolicy":
					s.UnhealthyPodEvictionPolicy = d.strp(v, p)
				}
			})
		case "status":
			d.pdbStatus(v, path, &pdb.Status)
		}
	})
	defaultNamespace(&pdb.ObjectMeta)
	errs := validateObjectMeta(&pdb.ObjectMeta, "metadata", true, subdomainName)
	return pdb, append(errs, validatePDBSpec(&pdb.Spec, "spec")...)
}

func (d *decoder) pdbStatus(n *yaml.Node, path string, s *api.PDBStatus) {
	s.StatusGiven = true
	d.fields(n, path, schemaPDBStatus, func(key string, v *yaml.Node, p string) {
		switch key {
		case "disruptionsAllowed":
			s.DisruptionsAllowed, _ = d.int32(v, p)
		case "currentHealthy":
			s.CurrentHealthy, _ = d.int32(v, p)
		case "desiredHealthy":
			s.DesiredHealthy, _ = d.int32(v, p)
		case "expectedPods":
			s.ExpectedPods, _ = d.int32(v, p)
		case "disruptedPods":
			ps, _ := d.mapping(v, p)
			s.DisruptedPods = map[string]api.Time{}
			for _, kv := range ps {
				name := kv.key
				s.DisruptedPods[name] = 0
				d.timestamp(kv.value, keyed(p, name), true, func(t api.Time) { s.DisruptedPods[name] = t })
			}
		}
	})
}
