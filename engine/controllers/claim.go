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
	var claimed []*api.Pod
	ownerDeleting := owner.DeletionTimestamp != nil
	for _, p := range pods {
		matches := sel.Matches(p.Labels) && (filter == nil || filter(p))
		ref := p.ControllerRef()
		if ref != nil {
			if ref.UID != owner.UID {
				continue
			}
			if matches {
				claimed = appendClaimed(claimed, p, len(pods))
				continue
			}
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
			continue
		}
		// Adopt: add a controller reference to us.
		refs := append(append([]api.OwnerReference(nil), p.OwnerReferences...), controllerRef(kind, owner))
		if m.cluster.SetPodOwnership(p.Namespace, p.Name, p.Labels, refs) == nil {
			m.acted()
			claimed = appendClaimed(claimed, p, len(pods))
		}
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
