package controllers

import (
	"maps"

	"podlab.dev/podlab/engine/api"
)

// copyTemplate deep-copies a pod template so a pod (which admission and the
// kubelet mutate) never shares maps or slices with its workload. It is the
// JSON round trip it replaces (deepCopy), field by field: nil stays nil and
// empty stays empty (as encoding "null" and "[]"/"{}" and decoding them
// does), and every pointer, slice and map is fresh. Every pod a controller
// creates goes through it, so the round trip cost ~30 % of a day of
// ReplicaSet churn (docs/benchmarks.md). TestCopyTemplateIsTheJSONCopy
// pins the equivalence on templates that use every field.
func copyTemplate(t *api.PodTemplateSpec) api.PodTemplateSpec {
	return api.PodTemplateSpec{ObjectMeta: copyObjectMeta(&t.ObjectMeta), Spec: copyPodSpec(&t.Spec)}
}

func copyObjectMeta(m *api.ObjectMeta) api.ObjectMeta {
	out := *m
	out.Labels = maps.Clone(m.Labels)
	out.Annotations = maps.Clone(m.Annotations)
	out.OwnerReferences = copySlice(m.OwnerReferences, nil)
	out.DeletionTimestamp = copyPtr(m.DeletionTimestamp)
	out.DeletionGracePeriodSeconds = copyPtr(m.DeletionGracePeriodSeconds)
	return out
}

func copyPodSpec(s *api.PodSpec) api.PodSpec {
	out := *s
	out.NodeSelector = maps.Clone(s.NodeSelector)
	out.Affinity = copyAffinity(s.Affinity)
	out.Tolerations = copySlice(s.Tolerations, func(t *api.Toleration) { t.TolerationSeconds = copyPtr(t.TolerationSeconds) })
	out.TopologySpreadConstraints = copySlice(s.TopologySpreadConstraints, func(c *api.TopologySpreadConstraint) {
		c.LabelSelector = copyLabelSelector(c.LabelSelector)
		c.MinDomains = copyPtr(c.MinDomains)
		c.NodeAffinityPolicy = copyPtr(c.NodeAffinityPolicy)
		c.NodeTaintsPolicy = copyPtr(c.NodeTaintsPolicy)
		c.MatchLabelKeys = copySlice(c.MatchLabelKeys, nil)
	})
	out.Priority = copyPtr(s.Priority)
	out.PreemptionPolicy = copyPtr(s.PreemptionPolicy)
	out.TerminationGracePeriodSeconds = copyPtr(s.TerminationGracePeriodSeconds)
	out.ActiveDeadlineSeconds = copyPtr(s.ActiveDeadlineSeconds)
	out.Containers = copySlice(s.Containers, copyContainer)
	out.InitContainers = copySlice(s.InitContainers, copyContainer)
	out.Overhead = maps.Clone(s.Overhead)
	if s.Resources != nil {
		r := copyResources(*s.Resources)
		out.Resources = &r
	}
	out.SchedulingGates = copySlice(s.SchedulingGates, nil)
	return out
}

// copyContainer deep-copies the container c points at, in place.
func copyContainer(c *api.Container) {
	c.Command = copySlice(c.Command, nil)
	c.Args = copySlice(c.Args, nil)
	c.Ports = copySlice(c.Ports, nil)
	c.Resources = copyResources(c.Resources)
	if c.Lifecycle != nil {
		l := *c.Lifecycle
		if l.PreStop != nil {
			h := *l.PreStop
			h.SleepSeconds = copyPtr(h.SleepSeconds)
			h.ExecCommand = copySlice(h.ExecCommand, nil)
			l.PreStop = &h
		}
		c.Lifecycle = &l
	}
	c.ProbeTerminationGracePeriodSeconds = copyPtr(c.ProbeTerminationGracePeriodSeconds)
	c.StartupProbe = copyProbe(c.StartupProbe)
	c.ReadinessProbe = copyProbe(c.ReadinessProbe)
	c.LivenessProbe = copyProbe(c.LivenessProbe)
}

func copyProbe(p *api.Probe) *api.Probe {
	if p == nil {
		return nil
	}
	out := *p
	out.TerminationGracePeriodSeconds = copyPtr(p.TerminationGracePeriodSeconds)
	return &out
}

func copyResources(r api.ResourceRequirements) api.ResourceRequirements {
	return api.ResourceRequirements{Requests: maps.Clone(r.Requests), Limits: maps.Clone(r.Limits)}
}

func copyAffinity(a *api.Affinity) *api.Affinity {
	if a == nil {
		return nil
	}
	out := *a
	if a.NodeAffinity != nil {
		na := *a.NodeAffinity
		if na.RequiredDuringSchedulingIgnoredDuringExecution != nil {
			ns := api.NodeSelector{NodeSelectorTerms: copySlice(na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms, copyNodeSelectorTerm)}
			na.RequiredDuringSchedulingIgnoredDuringExecution = &ns
		}
		na.PreferredDuringSchedulingIgnoredDuringExecution = copySlice(na.PreferredDuringSchedulingIgnoredDuringExecution,
			func(t *api.PreferredSchedulingTerm) { copyNodeSelectorTerm(&t.Preference) })
		out.NodeAffinity = &na
	}
	if a.PodAffinity != nil {
		pa := api.PodAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution:  copySlice(a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution, copyPodAffinityTerm),
			PreferredDuringSchedulingIgnoredDuringExecution: copySlice(a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution, copyWeightedPodAffinityTerm),
		}
		out.PodAffinity = &pa
	}
	if a.PodAntiAffinity != nil {
		pa := api.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution:  copySlice(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution, copyPodAffinityTerm),
			PreferredDuringSchedulingIgnoredDuringExecution: copySlice(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution, copyWeightedPodAffinityTerm),
		}
		out.PodAntiAffinity = &pa
	}
	return &out
}

func copyNodeSelectorTerm(t *api.NodeSelectorTerm) {
	t.MatchExpressions = copySlice(t.MatchExpressions, copyNodeSelectorRequirement)
	t.MatchFields = copySlice(t.MatchFields, copyNodeSelectorRequirement)
}

func copyNodeSelectorRequirement(r *api.NodeSelectorRequirement) { r.Values = copySlice(r.Values, nil) }

func copyWeightedPodAffinityTerm(t *api.WeightedPodAffinityTerm) {
	copyPodAffinityTerm(&t.PodAffinityTerm)
}

func copyPodAffinityTerm(t *api.PodAffinityTerm) {
	t.LabelSelector = copyLabelSelector(t.LabelSelector)
	t.Namespaces = copySlice(t.Namespaces, nil)
	t.NamespaceSelector = copyLabelSelector(t.NamespaceSelector)
	t.MatchLabelKeys = copySlice(t.MatchLabelKeys, nil)
	t.MismatchLabelKeys = copySlice(t.MismatchLabelKeys, nil)
}

func copyLabelSelector(s *api.LabelSelector) *api.LabelSelector {
	if s == nil {
		return nil
	}
	return &api.LabelSelector{MatchLabels: maps.Clone(s.MatchLabels),
		MatchExpressions: copySlice(s.MatchExpressions, func(r *api.LabelSelectorRequirement) { r.Values = copySlice(r.Values, nil) })}
}

// copySlice copies a slice (nil stays nil, empty stays empty) and, when
// deep is set, deep-copies each element's own pointers, slices and maps.
func copySlice[T any](s []T, deep func(*T)) []T {
	if s == nil {
		return nil
	}
	out := make([]T, len(s))
	copy(out, s)
	if deep != nil {
		for i := range out {
			deep(&out[i])
		}
	}
	return out
}

// copyPtr copies the value a pointer to a plain value points at.
func copyPtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
