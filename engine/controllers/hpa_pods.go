package controllers

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
)

// hpaPod is what the HPA controller reads from one selected pod object:
// what the metrics model needs (is it measured, is it Ready, its own CPU
// annotation), what groupPods needs (deletion, phase, the Ready
// condition, the start time) and its cpu and memory requests. None of it
// depends on time or on the HPA: the replica calculator combines it with
// now and the samples on every sync.
type hpaPod struct {
	pod *api.Pod
	// reports is metricsServerReports; ready is isPodReady.
	reports, deleting, failed, pending, ready bool
	// hasReady: the pod has a Ready condition, readyFalse: its status is
	// False, readySince: its lastTransitionTime.
	hasReady, readyFalse bool
	readySince           api.Time
	hasStart             bool
	start                api.Time
	// annCPU is the lab.podlab.dev/cpu-usage annotation, resolved.
	hasAnnCPU bool
	annCPU    int64
	// the cpu and memory requests (calculateRequests); a pod without one
	// (cpuMissing, memMissing) is read again for the error
	cpuReq, memReq         int64
	cpuMissing, memMissing bool
}

// readHPAPodStatus reads what groupPods needs from p.
func readHPAPodStatus(p *api.Pod) hpaPod {
	f := hpaPod{pod: p, reports: metricsServerReports(p), deleting: p.DeletionTimestamp != nil,
		failed: p.Status.Phase == api.PodFailed, pending: p.Status.Phase == api.PodPending}
	if c := readyCondition(p); c != nil {
		f.hasReady, f.readySince = true, c.LastTransitionTime
		f.ready, f.readyFalse = c.Status == api.ConditionTrue, c.Status == api.ConditionFalse
	}
	if p.Status.StartTime != nil {
		f.hasStart, f.start = true, *p.Status.StartTime
	}
	return f
}

// readHPAPod reads all of hpaPod from p.
func readHPAPod(p *api.Pod) hpaPod {
	f := readHPAPodStatus(p)
	f.annCPU, f.hasAnnCPU = podCPUAnnotation(p)
	var err error
	f.cpuReq, err = podRequest(p, api.ResourceCPU)
	f.cpuMissing = err != nil
	f.memReq, err = podRequest(p, api.ResourceMemory)
	f.memMissing = err != nil
	return f
}

// request is the pod's request of a resource (calculateRequests).
func (f *hpaPod) request(resource string) (int64, error) {
	switch {
	case resource == api.ResourceCPU && !f.cpuMissing:
		return f.cpuReq, nil
	case resource == api.ResourceMemory && !f.memMissing:
		return f.memReq, nil
	}
	return podRequest(f.pod, resource)
}

// readHPAPods reads every pod (the paths that have no table).
func readHPAPods(pods []*api.Pod) []hpaPod {
	out := make([]hpaPod, len(pods))
	for i, p := range pods {
		out[i] = readHPAPod(p)
	}
	return out
}

// hpaPodTable is an HPA's hpaPod of each pod its last sync selected. An HPA
// syncs every 15 s over its hundred pods, of which few changed since; a
// pod object is never modified once the engine shares it (a change is a
// new object), so the facts of the same object are kept instead of read
// again from its conditions, annotations and containers. Used in
// work-queue mode only (the clusters of the full path may edit pods in
// place): TestWorkQueuesAreInvisible and TestHPAPodTableIsInvisible
// compare the two.
type hpaPodTable struct {
	// pods is a copy of the list the facts were read from
	pods []*api.Pod
	// facts is aligned with pods; spare is the previous facts' array,
	// refilled by the next refresh (the sync in between reads facts).
	facts, spare []hpaPod
	samples      []podSample
}

// refresh returns the facts of pods, in their order: an object the last
// sync selected too keeps its facts when reuse is set (both lists are in
// namespace/name order, so one walk finds them), any other is read.
func (t *hpaPodTable) refresh(pods []*api.Pod, reuse bool) []hpaPod {
	if reuse && len(pods) == len(t.pods) && replaceRowsInPlace(pods, t.pods, func(i int, p *api.Pod) {
		t.facts[i] = readHPAPod(p)
		t.pods[i] = p
	}) {
		return t.facts
	}
	old, oldFacts := t.pods, t.facts
	if !reuse {
		old = nil
	}
	out := realignRows(t.spare, pods, old, oldFacts, readHPAPod)
	// the previous facts' array is reused next time; clear its pod
	// pointers so it does not keep deleted pods alive
	clear(oldFacts)
	t.spare, t.facts = oldFacts, out
	// a copy of the list: the fast path above edits it in place, and the
	// index's lists are read only (shared with clones)
	t.pods = t.pods[:0]
	if reuse {
		t.pods = append(t.pods, pods...)
	}
	return out
}

// podSample is one pod's sample, if it has one (found).
type podSample struct {
	PodMetric
	found bool
}

// podSamples are the samples of an HPA's pods, aligned with them: a list
// (hpaSamples), or implied (hpaLoadSamples: cpu from the workload's load,
// the common case), where every reporting pod's sample is the ready
// pods' share of the demand, or 0 — hpaSamples' rule, applied where a
// sample is read instead of written into a list first.
type podSamples struct {
	list    []podSample
	implied bool
	share   int64
	now     api.Time
}

// at is the sample of the i-th pod, f.
func (s *podSamples) at(i int, f *hpaPod) podSample {
	if !s.implied {
		return s.list[i]
	}
	if !f.reports {
		return podSample{}
	}
	v := int64(0)
	if !f.deleting && f.ready {
		v = s.share
	}
	return podSample{PodMetric{Value: v, Timestamp: s.now, Window: metricWindow}, true}
}

// hpaLoadSamples is hpaSamples for cpu from a load, without per-pod
// settings (podCPU): the implied samples and how many there are; false
// when another rule applies. TestHPALoadSamplesAreHPASamples.
func (m *Manager) hpaLoadSamples(resource string, pods []hpaPod, load *workloadLoad) (podSamples, int, bool) {
	if resource != api.ResourceCPU || load == nil || len(m.podCPU) > 0 {
		return podSamples{}, 0, false
	}
	demand, ok := load.demandAt(m.now)
	if !ok {
		return podSamples{}, 0, false
	}
	ready, n := 0, 0
	for i := range pods {
		if f := &pods[i]; f.reports {
			n++
			if !f.deleting && f.ready {
				ready++
			}
		}
	}
	s := podSamples{implied: true, now: m.now}
	if ready > 0 {
		s.share = demand / int64(ready)
	}
	return s, n, true
}

// hpaSamples is the resource metrics API's answer for the pods an HPA
// selects (metricsclient GetResourceMetric): milli-values sampled now over
// metricWindow, aligned with the pods, and how many there are. It reuses
// out's array.
func (m *Manager) hpaSamples(out []podSample, resource string, pods []hpaPod, load *workloadLoad) ([]podSample, int) {
	if cap(out) < len(pods) {
		out = make([]podSample, len(pods), len(pods)+len(pods)/4)
	}
	out = out[:len(pods)]
	clear(out)
	n := 0
	sample := func(i int, v int64) {
		out[i] = podSample{PodMetric{Value: v, Timestamp: m.now, Window: metricWindow}, true}
		n++
	}
	if resource == api.ResourceMemory {
		src, ok := m.cluster.(MemoryUsageSource)
		if !ok {
			return out, 0
		}
		for i := range pods {
			f := &pods[i]
			if !f.reports {
				continue
			}
			if b, ok := src.PodMemoryUsage(f.pod.Namespace, f.pod.Name); ok {
				sample(i, b*1000)
			}
		}
		return out, n
	}
	var share int64
	shared := false
	if load != nil {
		if demand, ok := load.demandAt(m.now); ok {
			shared = true
			ready := 0
			for i := range pods {
				if f := &pods[i]; f.reports && !f.deleting && f.ready {
					ready++
				}
			}
			if ready > 0 {
				share = demand / int64(ready)
			}
		}
	}
	overrides := len(m.podCPU) > 0
	for i := range pods {
		f := &pods[i]
		if !f.reports {
			continue
		}
		if overrides {
			if v, ok := m.podCPU[f.pod.UID]; ok {
				sample(i, v)
				continue
			}
		}
		if shared {
			if !f.deleting && f.ready {
				sample(i, share)
			} else {
				sample(i, 0)
			}
			continue
		}
		if f.hasAnnCPU {
			sample(i, f.annCPU)
		}
	}
	return out, n
}

// podRequest is calculateRequests for one pod: pod-level requests when
// set (PodLevelResources is on in v1.36), else the sum over containers
// and restartable (sidecar) init containers, each of which must request
// the resource.
func podRequest(p *api.Pod, resource string) (int64, error) {
	if r := p.Spec.Resources; r != nil && len(r.Requests) > 0 {
		q, ok := r.Requests[resource]
		if !ok {
			return 0, fmt.Errorf("missing pod-level request for %s in Pod %s", resource, p.Name)
		}
		return q.MilliValue(), nil
	}
	var sum int64
	// the containers, then the sidecars (restartable init containers),
	// without copying them
	for i, n := 0, len(p.Spec.Containers)+len(p.Spec.InitContainers); i < n; i++ {
		var ctr *api.Container
		if i < len(p.Spec.Containers) {
			ctr = &p.Spec.Containers[i]
		} else if ctr = &p.Spec.InitContainers[i-len(p.Spec.Containers)]; !ctr.IsSidecar() {
			continue
		}
		q, ok := ctr.Resources.Requests[resource]
		if !ok {
			return 0, fmt.Errorf("missing request for %s in container %s of Pod %s", resource, ctr.Name, p.Name)
		}
		sum += q.MilliValue()
	}
	return sum, nil
}
