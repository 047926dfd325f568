package api

import "sort"

// Service is a v1 Service as far as scheduling sees it: the label
// selector of its endpoints. PodTopologySpread's default constraints and
// the other spreading defaults count pods with the selectors of the
// Services selecting a pod (helper.DefaultSelector).
type Service struct {
	ObjectMeta
	Spec ServiceSpec
}

// ServiceSpec holds the selector (nil selects nothing; an empty map, as
// labels.Set{}.AsSelector, selects every pod of the namespace).
type ServiceSpec struct {
	Selector map[string]string
}

// And returns a selector requiring both s and o (labels.Selector.Add with
// o's requirements; requirements are kept sorted by key, as
// internalSelector.Add sorts them). Nothing with anything is Nothing.
func (s Selector) And(o Selector) Selector {
	if !s.valid || !o.valid {
		return Nothing()
	}
	out := Selector{valid: true, reqs: make([]requirement, 0, len(s.reqs)+len(o.reqs))}
	out.reqs = append(append(out.reqs, s.reqs...), o.reqs...)
	sort.SliceStable(out.reqs, func(i, j int) bool { return out.reqs[i].key < out.reqs[j].key })
	return out
}

// DefaultSelector is pkg/scheduler/framework/plugins/helper.DefaultSelector:
// the selectors of the Services in the pod's namespace that select it
// (merged as one label set; a Service without a selector selects nothing),
// and with them the selector of its controlling ReplicaSet or StatefulSet
// (owner; nil when the pod has none the caller knows). An Empty result
// means nothing selects the pod.
func DefaultSelector(pod *Pod, services []*Service, owner *Selector) Selector {
	set := map[string]string{}
	for _, svc := range services {
		if svc.Namespace != pod.Namespace || svc.Spec.Selector == nil {
			continue
		}
		if SelectorFromSet(svc.Spec.Selector).Matches(pod.Labels) {
			// services selecting the same pod cannot conflict: merging
			// is safe (labels.Merge, later keys win)
			for k, v := range svc.Spec.Selector {
				set[k] = v
			}
		}
	}
	sel := SelectorFromSet(set)
	if owner != nil {
		sel = sel.And(*owner)
	}
	return sel
}
