package api

// supported QoS compute resources (pkg/apis/core/v1/helper/qos).
func isQOSResource(name string) bool { return name == ResourceCPU || name == ResourceMemory }

// ComputePodQOS returns the pod's QoS class exactly as v1.36's
// qos.ComputePodQOS: pod-level resources when spec.resources is set,
// otherwise every container, init containers included. Guaranteed needs cpu
// and memory limits everywhere with requests equal to limits; no cpu or
// memory request or limit anywhere is BestEffort; the rest is Burstable.
// It expects a defaulted pod (requests filled from limits).
func ComputePodQOS(pod *Pod) string {
	requests := map[string]Quantity{}
	limits := map[string]Quantity{}
	guaranteed := true
	if pod.Spec.Resources != nil && (len(pod.Spec.Resources.Requests) > 0 || len(pod.Spec.Resources.Limits) > 0) {
		for name, q := range pod.Spec.Resources.Requests {
			if isQOSResource(name) && q > 0 {
				requests[name] = q
			}
		}
		found := 0
		for name, q := range pod.Spec.Resources.Limits {
			if isQOSResource(name) && q > 0 {
				limits[name] = q
				found++
			}
		}
		if found != 2 {
			guaranteed = false
		}
	} else {
		each := func(cs []Container) {
			for i := range cs {
				c := &cs[i]
				for name, q := range c.Resources.Requests {
					if isQOSResource(name) && q > 0 {
						requests[name] += q
					}
				}
				found := 0
				for name, q := range c.Resources.Limits {
					if isQOSResource(name) && q > 0 {
						limits[name] += q
						found++
					}
				}
				if found != 2 {
					guaranteed = false
				}
			}
		}
		each(pod.Spec.Containers)
		each(pod.Spec.InitContainers)
	}
	if len(requests) == 0 && len(limits) == 0 {
		return QOSBestEffort
	}
	if guaranteed {
		for name, req := range requests {
			if lim, ok := limits[name]; !ok || lim != req {
				guaranteed = false
				break
			}
		}
	}
	if guaranteed && len(requests) == len(limits) {
		return QOSGuaranteed
	}
	return QOSBurstable
}
