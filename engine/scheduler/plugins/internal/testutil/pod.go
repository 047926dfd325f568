package testutil

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// PodWrapper builds an api.Pod.
type PodWrapper struct{ api.Pod }

// MakePod starts a pod in namespace "default" with no containers.
func MakePod() *PodWrapper {
	return &PodWrapper{api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Labels: map[string]string{}}}}
}

// Obj returns the pod, defaulted as the API server would (api.DefaultPod).
func (p *PodWrapper) Obj() *api.Pod {
	api.DefaultPod(&p.Pod)
	return &p.Pod
}

// Info returns the defaulted pod's framework.PodInfo.
func (p *PodWrapper) Info() *framework.PodInfo { return framework.NewPodInfo(p.Obj()) }

// Name sets the name (and a matching UID when none is set).
func (p *PodWrapper) Name(s string) *PodWrapper {
	p.Pod.Name = s
	if p.Pod.UID == "" {
		p.Pod.UID = "uid-" + s
	}
	return p
}

// Namespace sets the namespace.
func (p *PodWrapper) Namespace(s string) *PodWrapper {
	p.Pod.Namespace = s
	return p
}

// UID sets the UID.
func (p *PodWrapper) UID(s string) *PodWrapper {
	p.Pod.UID = s
	return p
}

// Node sets spec.nodeName.
func (p *PodWrapper) Node(s string) *PodWrapper {
	p.Spec.NodeName = s
	return p
}

// Label sets a label.
func (p *PodWrapper) Label(k, v string) *PodWrapper {
	p.Pod.Labels[k] = v
	return p
}

// Labels sets several labels.
func (p *PodWrapper) Labels(m map[string]string) *PodWrapper {
	for k, v := range m {
		p.Pod.Labels[k] = v
	}
	return p
}

// Priority sets spec.priority.
func (p *PodWrapper) Priority(v int32) *PodWrapper {
	p.Spec.Priority = &v
	return p
}

// Phase sets status.phase.
func (p *PodWrapper) Phase(s string) *PodWrapper {
	p.Status.Phase = s
	return p
}

// Terminating sets a deletion timestamp.
func (p *PodWrapper) Terminating() *PodWrapper {
	var t api.Time
	p.DeletionTimestamp = &t
	return p
}

// Container appends a container running the image, with no requests.
func (p *PodWrapper) Container(image string) *PodWrapper {
	p.Spec.Containers = append(p.Spec.Containers, api.Container{
		Name: fmt.Sprintf("con%d", len(p.Spec.Containers)), Image: image,
	})
	return p
}

// Req appends a container with the given requests (upstream PodWrapper.Req).
func (p *PodWrapper) Req(r Res) *PodWrapper {
	if len(r) == 0 {
		return p
	}
	p.Spec.Containers = append(p.Spec.Containers, api.Container{
		Name: fmt.Sprintf("con%d", len(p.Spec.Containers)), Image: "pause",
		Resources: api.ResourceRequirements{Requests: r.List()},
	})
	return p
}

// Res appends a container whose requests and limits are both r
// (upstream PodWrapper.Res).
func (p *PodWrapper) Res(r Res) *PodWrapper {
	if len(r) == 0 {
		return p
	}
	p.Spec.Containers = append(p.Spec.Containers, api.Container{
		Name: fmt.Sprintf("con%d", len(p.Spec.Containers)), Image: "pause",
		Resources: api.ResourceRequirements{Requests: r.List(), Limits: r.List()},
	})
	return p
}

// Lim appends a container with the given limits only.
func (p *PodWrapper) Lim(r Res) *PodWrapper {
	p.Spec.Containers = append(p.Spec.Containers, api.Container{
		Name: fmt.Sprintf("con%d", len(p.Spec.Containers)), Image: "pause",
		Resources: api.ResourceRequirements{Limits: r.List()},
	})
	return p
}

// InitReq appends a regular init container with the given requests.
func (p *PodWrapper) InitReq(r Res) *PodWrapper {
	p.Spec.InitContainers = append(p.Spec.InitContainers, api.Container{
		Name: fmt.Sprintf("init-con%d", len(p.Spec.InitContainers)), Image: "pause",
		Resources: api.ResourceRequirements{Requests: r.List()},
	})
	return p
}

// SidecarReq appends a restartable (sidecar) init container with requests.
func (p *PodWrapper) SidecarReq(r Res) *PodWrapper {
	p.Spec.InitContainers = append(p.Spec.InitContainers, api.Container{
		Name: fmt.Sprintf("sidecar-con%d", len(p.Spec.InitContainers)), Image: "pause",
		Resources: api.ResourceRequirements{Requests: r.List()}, RestartPolicy: "Always",
	})
	return p
}

// PodLevelReq sets pod-level spec.resources.requests.
func (p *PodWrapper) PodLevelReq(r Res) *PodWrapper {
	p.Spec.Resources = &api.ResourceRequirements{Requests: r.List()}
	return p
}

// Overhead sets spec.overhead.
func (p *PodWrapper) Overhead(r Res) *PodWrapper {
	p.Spec.Overhead = r.List()
	return p
}

// HostPort appends a container asking for a TCP host port.
func (p *PodWrapper) HostPort(port int32) *PodWrapper {
	return p.ContainerPort(api.ContainerPort{ContainerPort: port, HostPort: port})
}

// ContainerPort appends a container with the given ports.
func (p *PodWrapper) ContainerPort(ports ...api.ContainerPort) *PodWrapper {
	p.Spec.Containers = append(p.Spec.Containers, api.Container{
		Name: fmt.Sprintf("con%d", len(p.Spec.Containers)), Image: "pause", Ports: ports,
	})
	return p
}

// InitContainerPort appends an init container (a sidecar when sidecar is
// true) with the given ports.
func (p *PodWrapper) InitContainerPort(sidecar bool, ports ...api.ContainerPort) *PodWrapper {
	c := api.Container{Name: fmt.Sprintf("init-con%d", len(p.Spec.InitContainers)), Image: "pause", Ports: ports}
	if sidecar {
		c.RestartPolicy = "Always"
	}
	p.Spec.InitContainers = append(p.Spec.InitContainers, c)
	return p
}

// Toleration appends an Exists toleration for key (any effect).
func (p *PodWrapper) Toleration(key string) *PodWrapper {
	p.Spec.Tolerations = append(p.Spec.Tolerations, api.Toleration{Key: key, Operator: api.TolerationOpExists})
	return p
}

// Tolerations appends tolerations.
func (p *PodWrapper) Tolerations(ts ...api.Toleration) *PodWrapper {
	p.Spec.Tolerations = append(p.Spec.Tolerations, ts...)
	return p
}

// NodeSelector sets spec.nodeSelector.
func (p *PodWrapper) NodeSelector(m map[string]string) *PodWrapper {
	p.Spec.NodeSelector = m
	return p
}

func (p *PodWrapper) nodeAffinity() *api.NodeAffinity {
	if p.Spec.Affinity == nil {
		p.Spec.Affinity = &api.Affinity{}
	}
	if p.Spec.Affinity.NodeAffinity == nil {
		p.Spec.Affinity.NodeAffinity = &api.NodeAffinity{}
	}
	return p.Spec.Affinity.NodeAffinity
}

// RequiredNodeTerms appends required node affinity terms (ORed).
func (p *PodWrapper) RequiredNodeTerms(terms ...api.NodeSelectorTerm) *PodWrapper {
	na := p.nodeAffinity()
	if na.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		na.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{}
	}
	na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms = append(
		na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms, terms...)
	return p
}

// NodeAffinityIn appends a required term key in (vals).
func (p *PodWrapper) NodeAffinityIn(key string, vals ...string) *PodWrapper {
	return p.RequiredNodeTerms(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{
		{Key: key, Operator: api.NodeSelectorOpIn, Values: vals},
	}})
}

// NodeAffinityNotIn appends a required term key notin (vals).
func (p *PodWrapper) NodeAffinityNotIn(key string, vals ...string) *PodWrapper {
	return p.RequiredNodeTerms(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{
		{Key: key, Operator: api.NodeSelectorOpNotIn, Values: vals},
	}})
}

// PreferredNodeTerm appends a preferred node affinity term.
func (p *PodWrapper) PreferredNodeTerm(weight int32, term api.NodeSelectorTerm) *PodWrapper {
	na := p.nodeAffinity()
	na.PreferredDuringSchedulingIgnoredDuringExecution = append(na.PreferredDuringSchedulingIgnoredDuringExecution,
		api.PreferredSchedulingTerm{Weight: weight, Preference: term})
	return p
}

// PreferredNodeIn appends a preferred term key in (vals) with the weight.
func (p *PodWrapper) PreferredNodeIn(weight int32, key string, vals ...string) *PodWrapper {
	return p.PreferredNodeTerm(weight, api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{
		{Key: key, Operator: api.NodeSelectorOpIn, Values: vals},
	}})
}

// SpreadConstraint appends a topology spread constraint.
func (p *PodWrapper) SpreadConstraint(c api.TopologySpreadConstraint) *PodWrapper {
	p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, c)
	return p
}

// PodAffinityTerm appends a required pod affinity term (anti when anti is true).
func (p *PodWrapper) PodAffinityTerm(anti bool, t api.PodAffinityTerm) *PodWrapper {
	if p.Spec.Affinity == nil {
		p.Spec.Affinity = &api.Affinity{}
	}
	if anti {
		if p.Spec.Affinity.PodAntiAffinity == nil {
			p.Spec.Affinity.PodAntiAffinity = &api.PodAntiAffinity{}
		}
		a := p.Spec.Affinity.PodAntiAffinity
		a.RequiredDuringSchedulingIgnoredDuringExecution = append(a.RequiredDuringSchedulingIgnoredDuringExecution, t)
		return p
	}
	if p.Spec.Affinity.PodAffinity == nil {
		p.Spec.Affinity.PodAffinity = &api.PodAffinity{}
	}
	a := p.Spec.Affinity.PodAffinity
	a.RequiredDuringSchedulingIgnoredDuringExecution = append(a.RequiredDuringSchedulingIgnoredDuringExecution, t)
	return p
}

// PreferredPodAffinityTerm appends a preferred pod (anti-)affinity term.
func (p *PodWrapper) PreferredPodAffinityTerm(anti bool, weight int32, t api.PodAffinityTerm) *PodWrapper {
	if p.Spec.Affinity == nil {
		p.Spec.Affinity = &api.Affinity{}
	}
	w := api.WeightedPodAffinityTerm{Weight: weight, PodAffinityTerm: t}
	if anti {
		if p.Spec.Affinity.PodAntiAffinity == nil {
			p.Spec.Affinity.PodAntiAffinity = &api.PodAntiAffinity{}
		}
		a := p.Spec.Affinity.PodAntiAffinity
		a.PreferredDuringSchedulingIgnoredDuringExecution = append(a.PreferredDuringSchedulingIgnoredDuringExecution, w)
		return p
	}
	if p.Spec.Affinity.PodAffinity == nil {
		p.Spec.Affinity.PodAffinity = &api.PodAffinity{}
	}
	a := p.Spec.Affinity.PodAffinity
	a.PreferredDuringSchedulingIgnoredDuringExecution = append(a.PreferredDuringSchedulingIgnoredDuringExecution, w)
	return p
}

// Owner sets a controller owner reference.
func (p *PodWrapper) Owner(kind, name string) *PodWrapper {
	p.OwnerReferences = append(p.OwnerReferences, api.OwnerReference{
		APIVersion: "apps/v1", Kind: kind, Name: name, UID: "uid-" + name, Controller: true,
	})
	return p
}
