package controllers

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"podlab.dev/podlab/engine/api"
)

// The lab's model of CPU use, which metrics-server would measure in a real
// cluster. Two sources, the first that applies wins:
//
//  1. a workload's load (SetLoad; `usage deployment/web cpu=…`): a total
//     demand shared evenly by the workload's Running and Ready pods, as a
//     Service spreads requests over ready endpoints — so adding pods lowers
//     each pod's share and an HPA converges. Unready pods use nothing.
//     The load can change at scripted instants (`… at 2m`).
//  2. the pod's own use: SetPodCPU (`usage pod/x cpu=…`) or the pod's
//     lab.podlab.dev/cpu-usage annotation ("250m" or "80%" of its request).
//
// A pod with neither reports no CPU sample: the HPA then sees missing
// metrics exactly as with a pod metrics-server has not scraped.

// AnnotationCPUUsage is a pod's modelled CPU use: a quantity ("250m") or a
// percentage of its CPU request ("80%").
const AnnotationCPUUsage = "lab.podlab.dev/cpu-usage"

// MemoryUsageSource is implemented by a Cluster that models pods' memory
// working sets (the engine): bytes, false when the pod has none.
type MemoryUsageSource interface {
	PodMemoryUsage(namespace, name string) (int64, bool)
}

// LoadStep is a workload's total CPU demand from At on: either milli-CPU,
// or a percentage of one pod's request times the replicas the workload
// has when the step takes effect (resolved then into MilliCPU).
type LoadStep struct {
	At       api.Time
	MilliCPU int64
	Percent  float64 // > 0: resolve at At
	resolved bool
}

// workloadLoad is one workload's load timeline, sorted by At.
type workloadLoad struct {
	Kind, Namespace, Name string
	Steps                 []LoadStep
	// next is the first step not yet in effect (the ones before it are
	// resolved): resolveLoads runs on every reconcile pass.
	next int
}

func loadKey(kind, namespace, name string) string { return kind + "/" + namespace + "/" + name }

// SetLoad adds a step to a workload's CPU demand timeline (replacing a step
// at the same instant). A step in the past is refused.
func (m *Manager) SetLoad(kind, namespace, name string, step LoadStep) error {
	if namespace == "" {
		namespace = "default"
	}
	if _, err := m.scaleTarget(kind, namespace, name); err != nil {
		return fmt.Errorf("usage %s/%s: %w", strings.ToLower(kind), name, err)
	}
	if step.At < m.now {
		return fmt.Errorf("usage %s/%s: %s is in the past (now %s)", strings.ToLower(kind), name, step.At, m.now)
	}
	if step.MilliCPU < 0 || step.Percent < 0 {
		return fmt.Errorf("usage %s/%s: negative cpu", strings.ToLower(kind), name)
	}
	k := loadKey(kind, namespace, name)
	l := m.loads[k]
	if l == nil {
		l = &workloadLoad{Kind: kind, Namespace: namespace, Name: name}
		m.loads[k] = l
		m.invalidate()
	}
	step.resolved = step.Percent == 0
	i := sort.Search(len(l.Steps), func(i int) bool { return l.Steps[i].At >= step.At })
	if i < len(l.Steps) && l.Steps[i].At == step.At {
		l.Steps[i] = step
	} else {
		l.Steps = append(l.Steps, LoadStep{})
		copy(l.Steps[i+1:], l.Steps[i:])
		l.Steps[i] = step
	}
	l.next = 0
	m.loadsDue = dueCache{}
	m.resolveLoads()
	m.changed = true
	return nil
}

// Load returns a workload's load timeline (nil when none).
func (m *Manager) Load(kind, namespace, name string) []LoadStep {
	if l := m.loads[loadKey(kind, namespace, name)]; l != nil {
		return append([]LoadStep(nil), l.Steps...)
	}
	return nil
}

// SetPodCPU sets a pod's own CPU use in milli-CPU (negative clears it).
// It is kept by UID: a pod recreated under the same name (a StatefulSet's)
// starts without it.
func (m *Manager) SetPodCPU(p *api.Pod, milli int64) {
	if milli < 0 {
		delete(m.podCPU, p.UID)
		return
	}
	m.podCPU[p.UID] = milli
}

// resolveLoads turns percentage steps that took effect into milli-CPU, with
// the workload's replicas at that instant, and asks to be woken for the next
// step so a scripted spike applies at its instant.
//
// In work-queue mode the earliest step to come is kept (valid for the
// epoch; SetLoad drops it): until it comes, a pass only repeats its wake
// request.
func (m *Manager) resolveLoads() {
	if m.q != nil && m.loadsDue.ok && m.loadsDue.epoch == m.epoch && m.now < m.loadsDue.at {
		m.requeueAt(m.loadsDue.at)
		return
	}
	due := dueCache{}
	for _, k := range keysOf(m, m.loads) {
		l := m.loads[k]
		for ; l.next < len(l.Steps); l.next++ {
			s := &l.Steps[l.next]
			if s.At > m.now {
				m.requeueAt(s.At)
				due.add(s.At)
				break
			}
			if s.resolved {
				continue
			}
			s.resolved = true
			sc, err := m.scaleTarget(l.Kind, l.Namespace, l.Name)
			if err != nil {
				continue
			}
			req := templateCPURequest(sc.Template)
			s.MilliCPU = int64(math.Round(s.Percent / 100 * float64(req) * float64(sc.Spec)))
		}
	}
	due.epoch = m.epoch
	m.loadsDue = due
}

// demandAt is the workload's demand at now, false when it has no load yet.
func (l *workloadLoad) demandAt(now api.Time) (int64, bool) {
	i := sort.Search(len(l.Steps), func(i int) bool { return l.Steps[i].At > now })
	if i == 0 {
		return 0, false
	}
	return l.Steps[i-1].MilliCPU, true
}

// templateCPURequest is the CPU request of one pod built from a template
// (pod-level when set, else containers and sidecars).
func templateCPURequest(t *api.PodTemplateSpec) int64 {
	if t == nil {
		return 0
	}
	p := &api.Pod{Spec: t.Spec}
	reqs, err := calculateRequests([]*api.Pod{p}, api.ResourceCPU)
	if err != nil {
		return api.PodRequests(p, api.PodRequestsOptions{})[api.ResourceCPU].MilliValue()
	}
	return reqs[""]
}

// metricsServerReports is whether metrics-server has a sample for the pod:
// its containers run (phase Running on a node).
func metricsServerReports(p *api.Pod) bool {
	return p.Status.Phase == api.PodRunning && p.Spec.NodeName != ""
}

// resourceMetrics is the resource metrics API's answer for the pods an HPA
// selects (metricsclient GetResourceMetric): milli-values sampled now over
// metricWindow.
func (m *Manager) resourceMetrics(resource string, pods []*api.Pod, load *workloadLoad) PodMetrics {
	// sized for every pod: an HPA samples its hundred pods every 15 s, and
	// growing the map as it fills was a tenth of that
	return m.resourceMetricsInto(make(PodMetrics, len(pods)), resource, pods, load)
}

// resourceMetricsInto is resourceMetrics filling out, which it empties
// first (hpaSamples keyed by pod name).
func (m *Manager) resourceMetricsInto(out PodMetrics, resource string, pods []*api.Pod, load *workloadLoad) PodMetrics {
	clear(out)
	facts := readHPAPods(pods)
	samples, _ := m.hpaSamples(nil, resource, facts, load)
	for i, s := range samples {
		if s.found {
			out[facts[i].pod.Name] = s.PodMetric
		}
	}
	return out
}

// PodCPUUsage is a pod's modelled CPU use now (milli-CPU), as the HPA of its
// workload would read it; false when nothing models it.
func (m *Manager) PodCPUUsage(p *api.Pod) (int64, bool) {
	if !metricsServerReports(p) {
		return 0, false
	}
	var load *workloadLoad
	var pods []*api.Pod
	if l := m.loadOf(p); l != nil {
		load = l
		if sc, err := m.scaleTarget(l.Kind, l.Namespace, l.Name); err == nil {
			pods = m.selectPods(l.Namespace, sc.Selector, sc.LabelSelector)
		}
	}
	if pods == nil {
		pods = []*api.Pod{p}
	}
	v, ok := m.resourceMetrics(api.ResourceCPU, pods, load)[p.Name]
	return v.Value, ok
}

// loadOf finds the load covering a pod: its ReplicaSet's Deployment, its
// ReplicaSet or its StatefulSet.
func (m *Manager) loadOf(p *api.Pod) *workloadLoad {
	ref := p.ControllerRef()
	if ref == nil {
		return nil
	}
	if ref.Kind == KindReplicaSet {
		if rs := m.ReplicaSet(p.Namespace, ref.Name); rs != nil {
			if o := rs.ControllerRef(); o != nil && o.Kind == KindDeployment {
				if l := m.loads[loadKey(KindDeployment, p.Namespace, o.Name)]; l != nil {
					return l
				}
			}
		}
	}
	return m.loads[loadKey(ref.Kind, p.Namespace, ref.Name)]
}

// podCPUAnnotation reads lab.podlab.dev/cpu-usage.
func podCPUAnnotation(p *api.Pod) (int64, bool) {
	v, ok := p.Annotations[AnnotationCPUUsage]
	if !ok {
		return 0, false
	}
	milli, err := ParseCPUUsage(p, v)
	if err != nil {
		return 0, false
	}
	return milli, true
}

// ParseCPUUsage resolves a CPU use spec for a pod: a quantity ("250m",
// "1.5") or a percentage of the pod's CPU request ("80%").
func ParseCPUUsage(p *api.Pod, spec string) (int64, error) {
	spec = strings.TrimSpace(spec)
	if strings.HasSuffix(spec, "%") {
		f, err := strconv.ParseFloat(strings.TrimSuffix(spec, "%"), 64)
		if err != nil || !(f >= 0 && f <= api.MaxUsagePercent) { // NaN too
			return 0, fmt.Errorf("cpu usage %q: give a percentage from 0%% to %d%%", spec, api.MaxUsagePercent)
		}
		reqs, err := calculateRequests([]*api.Pod{p}, api.ResourceCPU)
		if err != nil || reqs[p.Name] == 0 {
			return 0, fmt.Errorf("cpu usage %q: pod %s has no cpu request to take a percentage of", spec, p.Name)
		}
		u := math.Round(f / 100 * float64(reqs[p.Name]))
		if u > float64(api.MaxCPUUsage) {
			return 0, fmt.Errorf("cpu usage %q is more than the lab models", spec)
		}
		return int64(u), nil
	}
	q, err := api.ParseQuantity(spec)
	if err != nil {
		return 0, fmt.Errorf("cpu usage %q: %w", spec, err)
	}
	if q < 0 {
		return 0, fmt.Errorf("cpu usage %q is negative", spec)
	}
	if q.MilliValue() > api.MaxCPUUsage || q.MilliValue() < 0 {
		return 0, fmt.Errorf("cpu usage %q is more than the lab models", spec)
	}
	return q.MilliValue(), nil
}
