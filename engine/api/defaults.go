package api

// DefaultTerminationGracePeriodSeconds is v1.DefaultTerminationGracePeriodSeconds.
const DefaultTerminationGracePeriodSeconds int64 = 30

// DefaultSchedulerName is the default profile's scheduler name.
const DefaultSchedulerName = "default-scheduler"

// DefaultPod applies the API server's defaulting to a pod as
// pkg/apis/core/v1/defaults.go SetDefaults_Pod does for the fields the lab
// models, before anything (scheduler, QoS, kubelet) looks at it:
// namespace "default"; container (and init container) requests copied from
// limits where unset; then, with pod-level limits set (PodLevelResources,
// on by default since 1.34), pod-level requests defaulted from the
// containers' aggregate requests and then from the pod-level limits;
// terminationGracePeriodSeconds 30; restartPolicy Always; schedulerName;
// phase Pending; status.qosClass. It is idempotent.
func DefaultPod(p *Pod) {
	if p.Namespace == "" {
		p.Namespace = "default"
	}
	defaultContainerRequests(p.Spec.Containers)
	defaultContainerRequests(p.Spec.InitContainers)
	defaultPodLevelRequests(p)
	if p.Spec.TerminationGracePeriodSeconds == nil {
		g := DefaultTerminationGracePeriodSeconds
		p.Spec.TerminationGracePeriodSeconds = &g
	}
	if p.Spec.RestartPolicy == "" {
		p.Spec.RestartPolicy = "Always"
	}
	if p.Spec.SchedulerName == "" {
		p.Spec.SchedulerName = DefaultSchedulerName
	}
	if p.Status.Phase == "" {
		p.Status.Phase = PodPending
	}
	p.Status.QOSClass = ComputePodQOS(p)
}

func defaultContainerRequests(cs []Container) {
	for i := range cs {
		c := &cs[i]
		if len(c.Resources.Limits) == 0 {
			continue
		}
		if c.Resources.Requests == nil {
			c.Resources.Requests = ResourceList{}
		}
		for k, v := range c.Resources.Limits {
			if _, ok := c.Resources.Requests[k]; !ok {
				c.Resources.Requests[k] = v
			}
		}
	}
}

// defaultPodLevelRequests is defaultPodRequests of pkg/apis/core/v1/defaults.go.
func defaultPodLevelRequests(p *Pod) {
	r := p.Spec.Resources
	if r == nil || len(r.Limits) == 0 {
		return
	}
	reqs := r.Requests
	if reqs == nil {
		reqs = ResourceList{}
	}
	for k, v := range aggregateContainerRequests(p, PodRequestsOptions{}) {
		if _, ok := reqs[k]; !ok && IsSupportedPodLevelResource(k) && !isHugePages(k) {
			reqs[k] = v
		}
	}
	for k, v := range r.Limits {
		if _, ok := reqs[k]; !ok && IsSupportedPodLevelResource(k) {
			reqs[k] = v
		}
	}
	if len(reqs) > 0 {
		r.Requests = reqs
	}
}

func isHugePages(name string) bool { return len(name) > 10 && name[:10] == "hugepages-" }

// DefaultNode fills node fields a real API server / kubelet would have:
// allocatable copied from capacity when it is missing, as
// SetDefaults_NodeStatus does (and, for display only, capacity from
// allocatable, so a hand-written node needs only one of them).
func DefaultNode(n *Node) {
	if n.Status.Allocatable == nil && n.Status.Capacity != nil {
		n.Status.Allocatable = n.Status.Capacity.Clone()
	}
	if n.Status.Capacity == nil && n.Status.Allocatable != nil {
		n.Status.Capacity = n.Status.Allocatable.Clone()
	}
}
