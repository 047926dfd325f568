package controllers

// deploymentStatusEqual is reflect.DeepEqual for DeploymentStatus, without
// reflection: a Deployment's sync compares its computed status with the
// stored one every time one of its ReplicaSets' status changes (several
// times a virtual second in a busy cluster). As DeepEqual, a nil and an
// empty Conditions differ, and CollisionCount compares what it points to.
// TestDeploymentStatusEqualIsDeepEqual pins the two together.
func deploymentStatusEqual(a, b DeploymentStatus) bool {
	if a.ObservedGeneration != b.ObservedGeneration || a.Replicas != b.Replicas ||
		a.UpdatedReplicas != b.UpdatedReplicas || a.ReadyReplicas != b.ReadyReplicas ||
		a.AvailableReplicas != b.AvailableReplicas || a.UnavailableReplicas != b.UnavailableReplicas ||
		a.TerminatingReplicas != b.TerminatingReplicas {
		return false
	}
	if (a.Conditions == nil) != (b.Conditions == nil) || len(a.Conditions) != len(b.Conditions) {
		return false
	}
	for i := range a.Conditions {
		if a.Conditions[i] != b.Conditions[i] {
			return false
		}
	}
	if (a.CollisionCount == nil) != (b.CollisionCount == nil) {
		return false
	}
	return a.CollisionCount == nil || *a.CollisionCount == *b.CollisionCount
}
