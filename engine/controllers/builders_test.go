package controllers

import (
	"strconv"
	"time"

	"podlab.dev/podlab/engine/api"
)

// podBuilder builds test pods in one readable line:
// mkPod("a").node("n1").running().readyAt(sec(5)).obj().
type podBuilder struct{ p *api.Pod }

func mkPod(name string) *podBuilder {
	return &podBuilder{p: &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name, Labels: map[string]string{}},
		Status:     api.PodStatus{Phase: api.PodPending},
	}}
}

func sec(s float64) api.Time { return api.Time(time.Duration(s * float64(time.Second))) }

func (b *podBuilder) node(n string) *podBuilder { b.p.Spec.NodeName = n; return b }
func (b *podBuilder) uid(u string) *podBuilder  { b.p.UID = u; return b }
func (b *podBuilder) phase(ph string) *podBuilder {
	b.p.Status.Phase = ph
	return b
}
func (b *podBuilder) running() *podBuilder { return b.phase(api.PodRunning) }
func (b *podBuilder) createdAt(s float64) *podBuilder {
	b.p.CreationTimestamp = sec(s)
	return b
}
func (b *podBuilder) readyAt(s float64) *podBuilder {
	t := sec(s)
	b.p.Status.Phase = api.PodRunning
	b.p.Status.Conditions = append(b.p.Status.Conditions, api.Condition{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: t})
	return b
}
func (b *podBuilder) cost(c int) *podBuilder {
	if b.p.Annotations == nil {
		b.p.Annotations = map[string]string{}
	}
	b.p.Annotations[api.AnnotationPodDeletionCost] = strconv.Itoa(c)
	return b
}
func (b *podBuilder) restarts(n int32) *podBuilder {
	b.p.Status.ContainerStatuses = append(b.p.Status.ContainerStatuses, api.ContainerStatus{Name: "c", RestartCount: n})
	return b
}
func (b *podBuilder) label(k, v string) *podBuilder { b.p.Labels[k] = v; return b }
func (b *podBuilder) terminating(t api.Time) *podBuilder {
	b.p.DeletionTimestamp = &t
	return b
}
func (b *podBuilder) obj() *api.Pod { return b.p }
