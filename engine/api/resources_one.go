package api

// PodRequest is PodRequests(pod, PodRequestsOptions{})[name] without
// building the maps: the kubelet reads one pod's memory request on every
// creation (its usage model), and PodRequests allocated three maps for it.
// TestPodRequestIsPodRequests pins the two together.
func PodRequest(pod *Pod, name string) Quantity {
	var q Quantity
	if r := pod.Spec.Resources; r != nil && len(r.Requests) > 0 && IsSupportedPodLevelResource(name) {
		if v, ok := r.Requests[name]; ok {
			q = v
		} else {
			q, _ = aggregateContainerRequest(pod, name)
		}
	} else {
		q, _ = aggregateContainerRequest(pod, name)
	}
	return q + pod.Spec.Overhead[name]
}

// aggregateContainerRequest is aggregateContainerRequests for one
// resource: its value and whether the aggregate has it (maxResourceList
// takes any value over an absent one).
func aggregateContainerRequest(pod *Pod, name string) (Quantity, bool) {
	var sum Quantity
	has := false
	for i := range pod.Spec.Containers {
		if v, ok := pod.Spec.Containers[i].Resources.Requests[name]; ok {
			sum, has = sum+v, true
		}
	}
	if len(pod.Spec.InitContainers) == 0 {
		return sum, has
	}
	var restartable, initMax Quantity
	restartableHas, initHas := false, false
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		v, ok := c.Resources.Requests[name]
		var cr Quantity
		var crHas bool
		if c.IsSidecar() {
			if ok {
				sum, has = sum+v, true
				restartable, restartableHas = restartable+v, true
			}
			cr, crHas = restartable, restartableHas
		} else {
			cr, crHas = v+restartable, ok || restartableHas
		}
		if crHas && (!initHas || cr > initMax) {
			initMax, initHas = cr, true
		}
	}
	if initHas && (!has || initMax > sum) {
		sum, has = initMax, true
	}
	return sum, has
}
