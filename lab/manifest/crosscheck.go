package manifest

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
)

// crossChecks finds what no single object shows: two objects of one kind
// with one name (the API server would answer "AlreadyExists"), and more
// than one globalDefault PriorityClass (priority admission's rule).
func (d *decoder) crossChecks(objs *Objects) {
	type id struct{ kind, key string }
	first := map[id]Position{}
	for _, obj := range objs.Order {
		kind, meta := KindAndMeta(obj)
		if meta == nil {
			continue
		}
		k := id{kind, meta.Key()}
		p := objs.Pos[obj]
		if prev, dup := first[k]; dup {
			d.diag(p, SeverityError, fmt.Sprintf("%s %q already exists (first defined at %s)", kind, meta.Key(), prev),
				"object names are unique per kind and namespace; rename one")
			continue
		}
		first[k] = p
	}
	var def *api.PriorityClass
	for _, pc := range objs.PriorityClasses {
		if !pc.GlobalDefault {
			continue
		}
		if def != nil {
			d.diag(objs.Pos[pc], SeverityError,
				fmt.Sprintf("PriorityClass %v is already marked as default. Only one default can exist", def.Name),
				"set globalDefault: true on one class only")
			continue
		}
		def = pc
	}
}

// KindAndMeta returns the kind and metadata of an object from Objects
// ("Pod", &pod.ObjectMeta), or "", nil for anything else.
func KindAndMeta(obj any) (string, *api.ObjectMeta) {
	switch v := obj.(type) {
	case *api.Node:
		return "Node", &v.ObjectMeta
	case *api.Pod:
		return "Pod", &v.ObjectMeta
	case *api.Namespace:
		return "Namespace", &v.ObjectMeta
	case *api.PriorityClass:
		return "PriorityClass", &v.ObjectMeta
	case *api.PodDisruptionBudget:
		return "PodDisruptionBudget", &v.ObjectMeta
	case *api.Deployment:
		return "Deployment", &v.ObjectMeta
	case *api.ReplicaSet:
		return "ReplicaSet", &v.ObjectMeta
	case *api.ReplicationController:
		return "ReplicationController", &v.ObjectMeta
	case *api.StatefulSet:
		return "StatefulSet", &v.ObjectMeta
	case *api.DaemonSet:
		return "DaemonSet", &v.ObjectMeta
	case *api.Job:
		return "Job", &v.ObjectMeta
	case *api.CronJob:
		return "CronJob", &v.ObjectMeta
	}
	return "", nil
}
