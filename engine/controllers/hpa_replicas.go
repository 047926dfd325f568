package controllers

import (
	"errors"
	"fmt"
	"math"
	"time"

	"podlab.dev/podlab/engine/api"
)

// PodMetric is one pod's sample from the resource metrics API
// (metricsclient.PodMetric): a milli-value, when it was taken and over
// what window.
type PodMetric struct {
	Value     int64
	Timestamp api.Time
	Window    time.Duration
}

// PodMetrics maps pod name to its sample (metricsclient.PodMetricsInfo).
type PodMetrics map[string]PodMetric

// replicaCalc is pkg/controller/podautoscaler/replica_calculator.go's
// ReplicaCalculator without its clients: the pods and samples are passed in.
type replicaCalc struct {
	now                           api.Time
	tolerance                     float64
	cpuInitializationPeriod       time.Duration
	delayOfInitialReadinessStatus time.Duration
}

func newReplicaCalc(now api.Time) replicaCalc {
	return replicaCalc{now: now, tolerance: HPATolerance,
		cpuInitializationPeriod: HPACPUInitializationPeriod, delayOfInitialReadinessStatus: HPAInitialReadinessDelay}
}

// within is Tolerances.isWithin with the same tolerance both ways (the
// HPAConfigurableTolerance fields are not modelled).
func (c replicaCalc) within(ratio float64) bool {
	return 1.0-c.tolerance <= ratio && ratio <= 1.0+c.tolerance
}

// errNoMetrics is what the metrics client returns when metrics-server has
// no sample for any selected pod (metrics/client.go GetResourceMetric).
var errNoMetrics = errors.New("no metrics returned from resource metrics API")

// resourceReplicas is GetResourceReplicas: the replica count for a target
// utilization (percent of request), with the measured utilization and the
// raw average value (milli-units).
func (c replicaCalc) resourceReplicas(currentReplicas, targetUtilization int32, resource string, pods []*api.Pod, metrics PodMetrics) (replicas, utilization int32, raw int64, err error) {
	facts := readHPAPods(pods)
	samples := make([]podSample, len(pods))
	for i, p := range pods {
		m, found := metrics[p.Name]
		samples[i] = podSample{m, found}
	}
	return c.resourceReplicasOver(currentReplicas, targetUtilization, resource, facts, podSamples{list: samples}, len(metrics))
}

// resourceReplicasOver is resourceReplicas over the pods' facts and their
// samples (aligned with them); nSamples is how many samples the metrics
// API returned.
func (c replicaCalc) resourceReplicasOver(currentReplicas, targetUtilization int32, resource string, pods []hpaPod, samples podSamples, nSamples int) (replicas, utilization int32, raw int64, err error) {
	if nSamples == 0 {
		return 0, 0, 0, fmt.Errorf("unable to get metrics for resource %s: %w", resource, errNoMetrics)
	}
	if len(pods) == 0 {
		return 0, 0, 0, fmt.Errorf("no pods returned by selector while calculating replica count")
	}
	// Upstream copies the samples, deletes the ignored and unready pods'
	// and adds fill-ins for the missing and unready ones, then sums the
	// map (GetResourceUtilizationRatio) once before and once after the
	// fill-ins. Here one walk over the pods (an HPA does this for its
	// hundred pods every 15 s) groups each pod and sums what both ratios
	// need per group: the integer sums are the same in any order, and a
	// missing pod's fill-in (its request × the fallback percentage, cut
	// to an integer per pod) is summed for the one fallback it can have.
	// The sample count keeps samples of pods not selected (they stay in
	// upstream's map but match no request). TestResourceReplicasIsTheMapVersion.
	kept := nSamples
	var ready, unready, missing int
	var readyValue, readyReq, missingReq, missingFill, unreadyReq int64
	fallback := int64(max(100, targetUtilization))
	var reqErr error
	for i := range pods {
		s := samples.at(i, &pods[i])
		g := c.group(&pods[i], s, resource)
		if s.found && (g == groupIgnored || g == groupUnready) {
			kept-- // removeMetrics
		}
		req, err := pods[i].request(resource)
		if err != nil {
			if reqErr == nil {
				reqErr = err
			}
			continue
		}
		switch g {
		case groupReady:
			ready++
			readyValue += s.Value
			readyReq += req
		case groupUnready:
			unready++
			unreadyReq += req
		case groupMissing:
			missing++
			missingReq += req
			missingFill += req * fallback / 100
		}
	}
	if kept == 0 {
		return 0, 0, 0, fmt.Errorf("did not receive metrics for targeted pods (pods might be unready)")
	}
	if reqErr != nil {
		return 0, 0, 0, reqErr
	}
	// the first ratio is over the ready pods' own samples; the second adds
	// the fill-ins
	ratio, utilization, raw, err := utilizationOf(readyValue, readyReq, ready, targetUtilization)
	if err != nil {
		return 0, 0, 0, err
	}
	scaleUpWithUnready := unready > 0 && ratio > 1.0
	if !scaleUpWithUnready && missing == 0 {
		if c.within(ratio) {
			return currentReplicas, utilization, raw, nil
		}
		return int32(math.Ceil(ratio * float64(ready))), utilization, raw, nil
	}
	value, req, n := readyValue, readyReq, ready
	if missing > 0 && ratio != 1.0 {
		// on a scale-down, missing pods use 100% of their request (or
		// the target when it is above 100%); on a scale-up, nothing
		kept += missing
		req += missingReq
		n += missing
		if ratio < 1.0 {
			value += missingFill
		}
	}
	if scaleUpWithUnready {
		kept += unready
		req += unreadyReq
		n += unready
	}
	newRatio, _, _, err := utilizationOf(value, req, n, targetUtilization)
	if err != nil {
		return 0, utilization, raw, err
	}
	if c.within(newRatio) || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0) {
		return currentReplicas, utilization, raw, nil
	}
	replicas = int32(math.Ceil(newRatio * float64(kept)))
	if (newRatio < 1.0 && replicas > currentReplicas) || (newRatio > 1.0 && replicas < currentReplicas) {
		return currentReplicas, utilization, raw, nil
	}
	return replicas, utilization, raw, nil
}

// utilizationOf is metrics/utilization.go GetResourceUtilizationRatio
// (integer percent of the summed requests, its ratio to the target, the
// raw average value) from the sums over the n pods counted: their
// samples' values and their requests.
func utilizationOf(metricsTotal, requestsTotal int64, n int, target int32) (float64, int32, int64, error) {
	if requestsTotal == 0 {
		return 0, 0, 0, fmt.Errorf("no metrics returned matched known pods")
	}
	u := int32(metricsTotal * 100 / requestsTotal)
	return float64(u) / float64(target), u, metricsTotal / int64(n), nil
}

// rawResourceReplicas is GetRawResourceReplicas / calcPlainMetricReplicas:
// the replica count for a target average value (milli-units), over the
// pods and the metrics API's samples by pod name.
func (c replicaCalc) rawResourceReplicas(currentReplicas int32, targetUsage int64, resource string, pods []*api.Pod, metrics PodMetrics) (replicas int32, usage int64, err error) {
	facts := readHPAPods(pods)
	samples := make([]podSample, len(pods))
	var others sampleSum // samples of pods not selected
	for _, m := range metrics {
		others.n++
		others.total += m.Value
	}
	for i, p := range pods {
		m, found := metrics[p.Name]
		samples[i] = podSample{m, found}
		if found {
			others.n--
			others.total -= m.Value
		}
	}
	return c.rawResourceReplicasOver(currentReplicas, targetUsage, resource, facts, samples, others)
}

// sampleSum is a count of samples and the sum of their values.
type sampleSum struct {
	n     int
	total int64
}

// rawResourceReplicasOver is rawResourceReplicas over the pods' facts and
// their samples (aligned with them), as resourceReplicasOver is for
// utilization targets; others are the samples of pods not selected, which
// upstream's map keeps and sums (none when the HPA's own table is the
// source). Upstream copies the samples, deletes the ignored and unready
// pods', adds fill-ins for the missing and unready ones and averages the
// map before and after; the fill-ins are constants here (the target, or
// 0), so both averages come from per-group counts and one sum.
// TestRawResourceReplicasIsTheMapVersion.
func (c replicaCalc) rawResourceReplicasOver(currentReplicas int32, targetUsage int64, resource string, pods []hpaPod, samples []podSample, others sampleSum) (replicas int32, usage int64, err error) {
	nSamples := others.n
	for i := range samples {
		if samples[i].found {
			nSamples++
		}
	}
	if nSamples == 0 {
		return 0, 0, fmt.Errorf("unable to get metrics for resource %s: %w", resource, errNoMetrics)
	}
	if len(pods) == 0 {
		return 0, 0, fmt.Errorf("no pods returned by selector while calculating replica count")
	}
	var ready, unready, missing int
	kept := others
	for i := range pods {
		switch c.group(&pods[i], samples[i], resource) {
		case groupReady:
			ready++
			kept.n++
			kept.total += samples[i].Value
		case groupUnready:
			unready++
		case groupMissing:
			missing++
		}
	}
	if kept.n == 0 {
		return 0, 0, fmt.Errorf("did not receive metrics for targeted pods (pods might be unready)")
	}
	usage = kept.total / int64(kept.n)
	ratio := float64(usage) / float64(targetUsage)
	scaleUpWithUnready := unready > 0 && ratio > 1.0
	if !scaleUpWithUnready && missing == 0 {
		if c.within(ratio) {
			return currentReplicas, usage, nil
		}
		return int32(math.Ceil(ratio * float64(ready))), usage, nil
	}
	if missing > 0 {
		if ratio < 1.0 {
			kept.n += missing
			kept.total += int64(missing) * targetUsage
		} else if ratio > 1.0 {
			kept.n += missing
		}
	}
	if scaleUpWithUnready {
		kept.n += unready
	}
	newRatio := float64(kept.total/int64(kept.n)) / float64(targetUsage)
	if c.within(newRatio) || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0) {
		return currentReplicas, usage, nil
	}
	replicas = int32(math.Ceil(newRatio * float64(kept.n)))
	if (newRatio < 1.0 && replicas > currentReplicas) || (newRatio > 1.0 && replicas < currentReplicas) {
		return currentReplicas, usage, nil
	}
	return replicas, usage, nil
}

// podGroup is where upstream's groupPods puts one pod (group).
type podGroup uint8

const (
	groupReady podGroup = iota
	groupUnready
	groupMissing
	groupIgnored
)

// group is replica_calculator.go groupPods for one pod, over its facts
// and its sample. Deleted and failed pods are ignored; Pending pods are
// unready; pods without a sample are missing; for cpu, a pod is unready
// while in its initialization period unless it is ready and a whole
// metric window was measured since it became ready, and afterwards when
// it is not ready and has never been ready (its Ready condition last
// changed within the initial readiness delay of its start).
func (c replicaCalc) group(f *hpaPod, s podSample, resource string) podGroup {
	if f.deleting || f.failed {
		return groupIgnored
	}
	if f.pending {
		return groupUnready
	}
	if !s.found {
		return groupMissing
	}
	if resource == api.ResourceCPU {
		var notReady bool
		if !f.hasReady || !f.hasStart {
			notReady = true
		} else if f.start.Add(c.cpuInitializationPeriod) > c.now {
			notReady = f.readyFalse || s.Timestamp < f.readySince.Add(s.Window)
		} else {
			notReady = f.readyFalse && f.start.Add(c.delayOfInitialReadinessStatus) > f.readySince
		}
		if notReady {
			return groupUnready
		}
	}
	return groupReady
}

// calculateRequests is replica_calculator.go calculateRequests: pod-level
// requests when set (PodLevelResources is on in v1.36), else the sum over
// containers and restartable (sidecar) init containers, each of which must
// request the resource.
func calculateRequests(pods []*api.Pod, resource string) (map[string]int64, error) {
	reqs, err := podRequests(pods, resource)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(pods))
	for i, p := range pods {
		out[p.Name] = reqs[i]
	}
	return out, nil
}

// podRequests is calculateRequests as a slice aligned with the pods.
func podRequests(pods []*api.Pod, resource string) ([]int64, error) {
	out := make([]int64, len(pods))
	for j, p := range pods {
		var err error
		if out[j], err = podRequest(p, resource); err != nil {
			return nil, err
		}
	}
	return out, nil
}
