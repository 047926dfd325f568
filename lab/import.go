package lab

import (
	"sort"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab/manifest"
)

// missingReplicaSets rebuilds the ReplicaSets a captured cluster has but
// the capture left out. `kubectl get deployments,pods` (the usual import
// command) lists a Deployment's pods, whose controller is a ReplicaSet that
// is not in the file; without it the garbage collector would delete the
// pods (their owner is gone) and the Deployment would start over. A
// ReplicaSet is rebuilt for every such owner reference whose pods a
// Deployment of the file selects: same name and UID, the Deployment's
// template with the pods' pod-template-hash, as many replicas as it has
// pods, owned by the Deployment — what the real cluster holds.
func missingReplicaSets(objs *manifest.Objects) []*api.ReplicaSet {
	have := map[string]bool{}
	for _, rs := range objs.ReplicaSets {
		have[rs.Namespace+"/"+rs.Name] = true
	}
	type group struct {
		ref    api.OwnerReference
		ns     string
		hash   string
		pods   int
		oldest api.Time
		dep    *api.Deployment
	}
	groups := map[string]*group{}
	for _, p := range objs.Pods {
		ref := p.ControllerRef()
		if ref == nil || ref.Kind != "ReplicaSet" || have[p.Namespace+"/"+ref.Name] || p.IsTerminal() {
			continue
		}
		k := p.Namespace + "/" + ref.Name
		g := groups[k]
		if g == nil {
			dep := selectingDeployment(objs, p)
			if dep == nil || dep.UID == "" {
				continue
			}
			g = &group{ref: *ref, ns: p.Namespace, hash: p.Labels[api.LabelPodTemplateHash], oldest: p.CreationTimestamp, dep: dep}
			groups[k] = g
		}
		g.pods++
		g.oldest = min(g.oldest, p.CreationTimestamp)
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []*api.ReplicaSet
	for _, k := range keys {
		g := groups[k]
		d := g.dep
		n := int32(g.pods)
		tmpl := d.Spec.Template
		tmpl.Labels = copyMap(d.Spec.Template.Labels)
		sel := &api.LabelSelector{MatchLabels: map[string]string{}}
		if d.Spec.Selector != nil {
			for kk, v := range d.Spec.Selector.MatchLabels {
				sel.MatchLabels[kk] = v
			}
			sel.MatchExpressions = d.Spec.Selector.MatchExpressions
		}
		labels := copyMap(tmpl.Labels)
		if g.hash != "" {
			tmpl.Labels[api.LabelPodTemplateHash] = g.hash
			sel.MatchLabels[api.LabelPodTemplateHash] = g.hash
			labels[api.LabelPodTemplateHash] = g.hash
		}
		rs := &api.ReplicaSet{
			ObjectMeta: api.ObjectMeta{
				Name: g.ref.Name, Namespace: g.ns, UID: g.ref.UID, Labels: labels,
				Annotations:       map[string]string{},
				CreationTimestamp: g.oldest,
				OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID,
					Controller: true, BlockOwnerDeletion: true}},
			},
			Spec: api.ReplicaSetSpec{Replicas: &n, Selector: sel, Template: tmpl, MinReadySeconds: d.Spec.MinReadySeconds},
		}
		if rev, ok := d.Annotations["deployment.kubernetes.io/revision"]; ok {
			rs.Annotations["deployment.kubernetes.io/revision"] = rev
		}
		out = append(out, rs)
	}
	return out
}

func selectingDeployment(objs *manifest.Objects, p *api.Pod) *api.Deployment {
	for _, d := range objs.Deployments {
		if d.Namespace != p.Namespace {
			continue
		}
		sel, err := api.CompileSelector(d.Spec.Selector)
		if err == nil && !sel.Empty() && sel.Matches(p.Labels) {
			return d
		}
	}
	return nil
}
