package api

import "strings"

// Well-known resource names.
const (
	ResourceCPU              = "cpu"
	ResourceMemory           = "memory"
	ResourcePods             = "pods"
	ResourceEphemeralStorage = "ephemeral-storage"
)

// ResourceList maps a resource name to an amount, as v1.ResourceList.
type ResourceList map[string]Quantity

// Clone returns a copy.
func (rl ResourceList) Clone() ResourceList {
	if rl == nil {
		return nil
	}
	out := make(ResourceList, len(rl))
	for k, v := range rl {
		out[k] = v
	}
	return out
}

// Resources is the scheduler's flat view of a ResourceList: the fields it
// compares on every node, without map lookups. Scalar holds extended
// resources (e.g. nvidia.com/gpu) in whole units, nil when there are none.
type Resources struct {
	MilliCPU         int64
	Memory           int64
	EphemeralStorage int64
	AllowedPods      int64
	Scalar           map[string]int64
}

// ResourcesOf flattens a ResourceList.
func ResourcesOf(rl ResourceList) Resources {
	var r Resources
	for name, q := range rl {
		switch name {
		case ResourceCPU:
			r.MilliCPU = q.MilliValue()
		case ResourceMemory:
			r.Memory = q.Value()
		case ResourceEphemeralStorage:
			r.EphemeralStorage = q.Value()
		case ResourcePods:
			r.AllowedPods = q.Value()
		default:
			if IsScalarResourceName(name) {
				if r.Scalar == nil {
					r.Scalar = map[string]int64{}
				}
				r.Scalar[name] = q.Value()
			}
		}
	}
	return r
}

// Add adds o to r.
func (r *Resources) Add(o Resources) {
	r.MilliCPU += o.MilliCPU
	r.Memory += o.Memory
	r.EphemeralStorage += o.EphemeralStorage
	r.AllowedPods += o.AllowedPods
	for k, v := range o.Scalar {
		if r.Scalar == nil {
			r.Scalar = map[string]int64{}
		}
		r.Scalar[k] += v
	}
}

// Sub subtracts o from r.
func (r *Resources) Sub(o Resources) {
	r.MilliCPU -= o.MilliCPU
	r.Memory -= o.Memory
	r.EphemeralStorage -= o.EphemeralStorage
	r.AllowedPods -= o.AllowedPods
	for k, v := range o.Scalar {
		if r.Scalar == nil {
			r.Scalar = map[string]int64{}
		}
		r.Scalar[k] -= v
		if r.Scalar[k] == 0 {
			delete(r.Scalar, k)
		}
	}
}

// IsScalarResourceName reports whether the name is an extended,
// hugepages or prefixed native resource (v1helper.IsScalarResourceName):
// the resources the scheduler tracks by name rather than in a fixed field.
func IsScalarResourceName(name string) bool {
	return strings.HasPrefix(name, "hugepages-") ||
		(strings.Contains(name, "/") && !strings.HasPrefix(name, "requests."))
}

// addResourceList adds b into a (a must not be nil).
func addResourceList(a, b ResourceList) {
	for k, v := range b {
		a[k] += v
	}
}

// maxResourceList sets a[k] = max(a[k], b[k]) for every k in b.
func maxResourceList(a, b ResourceList) {
	for k, v := range b {
		if cur, ok := a[k]; !ok || v > cur {
			a[k] = v
		}
	}
}

// PodRequestsOptions mirror k8s.io/component-helpers/resource.PodResourcesOptions
// for the parts the lab models.
type PodRequestsOptions struct {
	// NonMissingContainerRequests fills in a request a container does not
	// set (the scheduler's scoring uses 100m cpu / 200Mi memory).
	NonMissingContainerRequests ResourceList
	// SkipPodLevelResources ignores spec.resources.
	SkipPodLevelResources bool
}

// Defaults the scheduler assumes for containers with no request when it
// scores (pkg/scheduler/util: DefaultMilliCPURequest, DefaultMemoryRequest).
const (
	DefaultMilliCPURequest = 100
	DefaultMemoryRequest   = 200 * 1024 * 1024
)

// PodRequests returns the effective requests of a pod exactly as
// k8s.io/component-helpers/resource.PodRequests computes them: pod-level
// requests (cpu, memory, hugepages) when spec.resources sets them, otherwise
// the containers' aggregate; the aggregate is max(sum of regular containers
// and restartable (sidecar) init containers, the largest of each init
// container plus the sidecars started before it); plus pod overhead.
func PodRequests(pod *Pod, opts PodRequestsOptions) ResourceList {
	podLevel := !opts.SkipPodLevelResources && pod.Spec.Resources != nil && len(pod.Spec.Resources.Requests) > 0
	if !podLevel {
		// the containers' aggregate is a new map: it is the result (most
		// pods; one map per call instead of two)
		reqs := aggregateContainerRequests(pod, opts)
		addResourceList(reqs, pod.Spec.Overhead)
		return reqs
	}
	reqs := ResourceList{}
	for name, q := range pod.Spec.Resources.Requests {
		if IsSupportedPodLevelResource(name) {
			reqs[name] = q
		}
	}
	for name, q := range aggregateContainerRequests(pod, opts) {
		if _, found := reqs[name]; !found {
			reqs[name] = q
		}
	}
	addResourceList(reqs, pod.Spec.Overhead)
	return reqs
}

// IsSupportedPodLevelResource reports the resources pod-level
// spec.resources may set (cpu, memory, hugepages-*).
func IsSupportedPodLevelResource(name string) bool {
	return name == ResourceCPU || name == ResourceMemory || (len(name) > 10 && name[:10] == "hugepages-")
}

func aggregateContainerRequests(pod *Pod, opts PodRequestsOptions) ResourceList {
	reqs := ResourceList{}
	for i := range pod.Spec.Containers {
		addResourceList(reqs, containerRequests(&pod.Spec.Containers[i], opts))
	}
	if len(pod.Spec.InitContainers) == 0 {
		return reqs
	}
	restartable := ResourceList{}
	initReqs := ResourceList{}
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		cr := containerRequests(c, opts)
		if c.IsSidecar() {
			addResourceList(reqs, cr)
			addResourceList(restartable, cr)
			cr = restartable
		} else {
			tmp := ResourceList{}
			addResourceList(tmp, cr)
			addResourceList(tmp, restartable)
			cr = tmp
		}
		maxResourceList(initReqs, cr)
	}
	maxResourceList(reqs, initReqs)
	return reqs
}

func containerRequests(c *Container, opts PodRequestsOptions) ResourceList {
	if len(opts.NonMissingContainerRequests) == 0 {
		return c.Resources.Requests
	}
	out := c.Resources.Requests.Clone()
	if out == nil {
		out = ResourceList{}
	}
	for k, v := range opts.NonMissingContainerRequests {
		if _, ok := out[k]; !ok {
			out[k] = v
		}
	}
	return out
}

// PodLimits returns the effective limits of a pod, as
// component-helpers' PodLimits: pod-level limits when set, else the
// containers' aggregate (same sidecar/init rule as requests), plus overhead.
func PodLimits(pod *Pod) ResourceList {
	limits := ResourceList{}
	if pod.Spec.Resources != nil && len(pod.Spec.Resources.Limits) > 0 {
		for name, q := range pod.Spec.Resources.Limits {
			if IsSupportedPodLevelResource(name) {
				limits[name] = q
			}
		}
	}
	agg := ResourceList{}
	for i := range pod.Spec.Containers {
		addResourceList(agg, pod.Spec.Containers[i].Resources.Limits)
	}
	restartable := ResourceList{}
	initLimits := ResourceList{}
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		cl := c.Resources.Limits
		if c.IsSidecar() {
			addResourceList(agg, cl)
			addResourceList(restartable, cl)
			cl = restartable
		} else {
			tmp := ResourceList{}
			addResourceList(tmp, cl)
			addResourceList(tmp, restartable)
			cl = tmp
		}
		maxResourceList(initLimits, cl)
	}
	maxResourceList(agg, initLimits)
	for name, q := range agg {
		if _, found := limits[name]; !found {
			limits[name] = q
		}
	}
	if len(pod.Spec.Overhead) > 0 {
		for k, v := range pod.Spec.Overhead {
			if _, ok := limits[k]; ok {
				limits[k] += v
			}
		}
	}
	return limits
}
