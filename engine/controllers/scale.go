package controllers

import "podlab.dev/podlab/engine/api"

// ScaleOf is the disruption controller's scale finders
// (pkg/controller/disruption getPodDeployment, getPodReplicaSet,
// getPodStatefulSet): for a pod's controller reference it returns the
// workload whose scale a percentage PodDisruptionBudget uses: a
// ReplicaSet owned by a Deployment answers with the Deployment. It has the
// signature of disruption.ScaleFunc.
func (m *Manager) ScaleOf(namespace string, ref api.OwnerReference) (uid string, scale int32, ok bool) {
	switch ref.Kind {
	case KindReplicaSet:
		rs := m.ReplicaSet(namespace, ref.Name)
		if rs == nil || rs.UID != ref.UID {
			return "", 0, false
		}
		if owner := rs.ControllerRef(); owner != nil && owner.Kind == KindDeployment {
			d := m.Deployment(namespace, owner.Name)
			if d == nil || d.UID != owner.UID {
				return "", 0, false
			}
			return d.UID, *d.Spec.Replicas, true
		}
		return rs.UID, *rs.Spec.Replicas, true
	case KindReplicationController:
		rc := m.ReplicationController(namespace, ref.Name)
		if rc == nil || rc.UID != ref.UID {
			return "", 0, false
		}
		return rc.UID, *rc.Spec.Replicas, true
	case KindStatefulSet:
		s := m.StatefulSet(namespace, ref.Name)
		if s == nil || s.UID != ref.UID {
			return "", 0, false
		}
		return s.UID, *s.Spec.Replicas, true
	}
	return "", 0, false
}
