package controllers

import "podlab.dev/podlab/engine/api"

// claimPods is PodControllerRefManager.ClaimPods with ClaimObject
// (pkg/controller/controller_ref_manager.go): a pod controlled by the owner
// is kept while it matches the selector and released when it no longer
// does; an orphan (no controller) that matches, is not being deleted and is
// in the owner's namespace is adopted; pods of other controllers are left
// alone. A deleting owner neither adopts nor releases.
//
// filter, when set, is ANDed into the match (the StatefulSet's isMemberOf).
func (m *Manager) claimPods(kind string, owner *api.ObjectMeta, sel api.Selector, pods []*api.Pod, filter func(*api.Pod) bool) []*api.Pod {
	claimed := m.claimPodsShared(kind, owner, sel, pods, filter)
	if len(claimed) > 0 && &claimed[0] == &pods[0] {
		// the callers may sort their claimed pods in place
		return append(make([]*api.Pod, 0, len(pods)), claimed...)
	}
	return claimed
}

// claimPodsShared is claimPods returning pods itself (capped, so that an
// append copies) when it claims every one of them, which is what a
// ReplicaSet's sync finds on nearly every pass: the caller must not edit
// the result in place.
func (m *Manager) claimPodsShared(kind string, owner *api.ObjectMeta, sel api.Selector, pods []*api.Pod, filter func(*api.Pod) bool) []*api.Pod {
	var claimed []*api.Pod
	// all: claimed is pods[:i] so far, not yet copied
	all := true
	skip := func(i int) {
		if all {
			all = false
			if i > 0 {
				claimed = append(make([]*api.Pod, 0, len(pods)), pods[:i]...)
			}
		}
	}
	claim := func(p *api.Pod) {
		if !all {
			claimed = appendClaimed(claimed, p, len(pods))
		}
	}
	ownerDeleting := owner.DeletionTimestamp != nil
	for i, p := range pods {
		matches := sel.Matches(p.Labels) && (filter == nil || filter(p))
		ref := p.ControllerRef()
		if ref != nil {
			if ref.UID != owner.UID {
				skip(i)
				continue
			}
			if matches {
				claim(p)
				continue
			}
			skip(i)
			if ownerDeleting {
				continue
			}
			// Release: drop our owner reference.
			var refs []api.OwnerReference
			for _, r := range p.OwnerReferences {
				if r.UID != owner.UID {
					refs = append(refs, r)
				}
			}
			if m.cluster.SetPodOwnership(p.Namespace, p.Name, p.Labels, refs) == nil {
				m.acted()
			}
			continue
		}
		if ownerDeleting || !matches || p.DeletionTimestamp != nil || p.Namespace != owner.Namespace {
			skip(i)
			continue
		}
		// Adopt: add a controller reference to us.
		refs := append(append([]api.OwnerReference(nil), p.OwnerReferences...), controllerRef(kind, owner))
		if m.cluster.SetPodOwnership(p.Namespace, p.Name, p.Labels, refs) == nil {
			m.acted()
			claim(p)
		} else {
			skip(i)
		}
	}
	if all && len(pods) > 0 {
		return pods[:len(pods):len(pods)]
	}
	return claimed
}

// appendClaimed appends p, allocating room for all n candidates on the
// first claim: one allocation instead of growing through a hundred pods,
// and still nil when nothing is claimed.
func appendClaimed(claimed []*api.Pod, p *api.Pod, n int) []*api.Pod {
	if claimed == nil {
		claimed = make([]*api.Pod, 0, n)
	}
	return append(claimed, p)
}
