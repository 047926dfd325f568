package controllers

import (
	"errors"
	"fmt"
	"math"
	"sort"
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
	// scratch, when set, lends resourceReplicasOver its per-pod slices
	// (an HPA's, reused every 15 s)
	scratch *calcScratch
}

// calcScratch holds resourceReplicasOver's per-pod slices between calls.
type calcScratch struct {
	groups   []podGroup
	requests []int64
}

// buffers returns per-pod slices of length n, from the scratch if any.
func (c replicaCalc) buffers(n int) ([]podGroup, []int64) {
	if c.scratch == nil {
		return make([]podGroup, n), make([]int64, n)
	}
	s := c.scratch
	if cap(s.groups) < n {
		s.groups, s.requests = make([]podGroup, n, n+n/4), make([]int64, n, n+n/4)
	}
	return s.groups[:n], s.requests[:n]
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
	return c.resourceReplicasOver(currentReplicas, targetUtilization, resource, facts, samples, len(metrics))
}

// resourceReplicasOver is resourceReplicas over the pods' facts and their
// samples (aligned with them); nSamples is how many samples the metrics
// API returned.
func (c replicaCalc) resourceReplicasOver(currentReplicas, targetUtilization int32, resource string, pods []hpaPod, samples []podSample, nSamples int) (replicas, utilization int32, raw int64, err error) {
	if nSamples == 0 {
		return 0, 0, 0, fmt.Errorf("unable to get metrics for resource %s: %w", resource, errNoMetrics)
	}
	if len(pods) == 0 {
		return 0, 0, 0, fmt.Errorf("no pods returned by selector while calculating replica count")
	}
	// Upstream copies the samples, deletes the ignored and unready pods'
	// and adds fill-ins for the missing and unready ones. Here each pod's
	// group and sample are kept in slices aligned with the pods (an HPA
	// does this for its hundred pods every 15 s): the sums are the same,
	// and the sample count keeps samples of pods not selected (they stay
	// in upstream's map but match no request). TestResourceReplicasIsTheMapVersion.
	groups, requests := c.buffers(len(pods))
	kept := nSamples
	var ready, unready, missing int
	for i := range pods {
		g := c.group(&pods[i], samples[i], resource)
		groups[i] = g
		if samples[i].found && (g == groupIgnored || g == groupUnready) {
			kept-- // removeMetrics
		}
		switch g {
		case groupReady:
			ready++
		case groupUnready:
			unready++
		case groupMissing:
			missing++
		}
	}
	if kept == 0 {
		return 0, 0, 0, fmt.Errorf("did not receive metrics for targeted pods (pods might be unready)")
	}
	for i := range pods {
		if requests[i], err = pods[i].request(resource); err != nil {
			return 0, 0, 0, err
		}
	}
	// the first ratio is over the ready pods' own samples; the second adds
	// the fill-ins
	fillMissing, fallback := false, int64(0)
	ratio, utilization, raw, err := utilizationOver(requests, targetUtilization, func(i int) (int64, bool) {
		return samples[i].Value, groups[i] == groupReady
	})
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
	if missing > 0 && ratio != 1.0 {
		// on a scale-down, missing pods use 100% of their request (or
		// the target when it is above 100%); on a scale-up, nothing
		fillMissing = true
		kept += missing
		if ratio < 1.0 {
			fallback = int64(max(100, targetUtilization))
		}
	}
	if scaleUpWithUnready {
		kept += unready
	}
	newRatio, _, _, err := utilizationOver(requests, targetUtilization, func(i int) (int64, bool) {
		switch groups[i] {
		case groupReady:
			return samples[i].Value, true
		case groupMissing:
			return requests[i] * fallback / 100, fillMissing
		case groupUnready:
			return 0, scaleUpWithUnready
		}
		return 0, false
	})
	if err != nil {
		return 0, utilization, raw, err
	}
	if c.within(newRatio) || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0) {
		return currentReplicas, utilization, raw, nil
	}
	n := int32(math.Ceil(newRatio * float64(kept)))
	if (newRatio < 1.0 && n > currentReplicas) || (newRatio > 1.0 && n < currentReplicas) {
		return currentReplicas, utilization, raw, nil
	}
	return n, utilization, raw, nil
}

// utilizationOver is metrics/utilization.go GetResourceUtilizationRatio
// (integer percent of the summed requests, its ratio to the target, the
// raw average value) over the pods whose sample
// sample(i) reports (value, true), each with its request.
func utilizationOver(requests []int64, target int32, sample func(int) (int64, bool)) (float64, int32, int64, error) {
	var metricsTotal, requestsTotal int64
	n := 0
	for i := range requests {
		v, ok := sample(i)
		if !ok {
			continue
		}
		metricsTotal += v
		requestsTotal += requests[i]
		n++
	}
	if requestsTotal == 0 {
		return 0, 0, 0, fmt.Errorf("no metrics returned matched known pods")
	}
	u := int32(metricsTotal * 100 / requestsTotal)
	return float64(u) / float64(target), u, metricsTotal / int64(n), nil
}

// rawResourceReplicas is GetRawResourceReplicas / calcPlainMetricReplicas:
// the replica count for a target average value (milli-units).
func (c replicaCalc) rawResourceReplicas(currentReplicas int32, targetUsage int64, resource string, pods []*api.Pod, metrics PodMetrics) (replicas int32, usage int64, err error) {
	if len(metrics) == 0 {
		return 0, 0, fmt.Errorf("unable to get metrics for resource %s: %w", resource, errNoMetrics)
	}
	if len(pods) == 0 {
		return 0, 0, fmt.Errorf("no pods returned by selector while calculating replica count")
	}
	metrics = cloneMetrics(metrics)
	ready, unready, missing, ignored := c.groupPods(pods, metrics, resource)
	removeMetrics(metrics, ignored)
	removeMetrics(metrics, unready)
	if len(metrics) == 0 {
		return 0, 0, fmt.Errorf("did not receive metrics for targeted pods (pods might be unready)")
	}
	ratio, usage := metricUsageRatio(metrics, targetUsage)
	scaleUpWithUnready := len(unready) > 0 && ratio > 1.0
	if !scaleUpWithUnready && len(missing) == 0 {
		if c.within(ratio) {
			return currentReplicas, usage, nil
		}
		return int32(math.Ceil(ratio * float64(ready))), usage, nil
	}
	if len(missing) > 0 {
		if ratio < 1.0 {
			for _, name := range missing {
				metrics[name] = PodMetric{Value: targetUsage}
			}
		} else if ratio > 1.0 {
			for _, name := range missing {
				metrics[name] = PodMetric{Value: 0}
			}
		}
	}
	if scaleUpWithUnready {
		for _, name := range unready {
			metrics[name] = PodMetric{Value: 0}
		}
	}
	newRatio, _ := metricUsageRatio(metrics, targetUsage)
	if c.within(newRatio) || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0) {
		return currentReplicas, usage, nil
	}
	n := int32(math.Ceil(newRatio * float64(len(metrics))))
	if (newRatio < 1.0 && n > currentReplicas) || (newRatio > 1.0 && n < currentReplicas) {
		return currentReplicas, usage, nil
	}
	return n, usage, nil
}

// groupPods is replica_calculator.go groupPods. Deleted and failed pods are
// ignored; Pending pods are unready; pods without a sample are missing; for
// cpu, a pod is unready while in its initialization period unless it is
// ready and a whole metric window was measured since it became ready, and
// afterwards when it is not ready and has never been ready (its Ready
// condition last changed within the initial readiness delay of its start).
// Names come back sorted (upstream uses sets; order does not change sums).
func (c replicaCalc) groupPods(pods []*api.Pod, metrics PodMetrics, resource string) (ready int, unready, missing, ignored []string) {
	for _, p := range pods {
		switch g, _, _ := c.podGroup(p, metrics, resource); g {
		case groupIgnored:
			ignored = append(ignored, p.Name)
		case groupUnready:
			unready = append(unready, p.Name)
		case groupMissing:
			missing = append(missing, p.Name)
		default:
			ready++
		}
	}
	sort.Strings(unready)
	sort.Strings(missing)
	sort.Strings(ignored)
	return ready, unready, missing, ignored
}

// podGroup is where groupPods puts one pod.
type podGroup uint8

const (
	groupReady podGroup = iota
	groupUnready
	groupMissing
	groupIgnored
)

// podGroup returns p's group, its sample and whether it has one.
func (c replicaCalc) podGroup(p *api.Pod, metrics PodMetrics, resource string) (podGroup, PodMetric, bool) {
	m, found := metrics[p.Name]
	f := readHPAPodStatus(p)
	return c.group(&f, podSample{m, found}, resource), m, found
}

// group is podGroup over a pod's facts and its sample.
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

// metricUsageRatio is GetMetricUsageRatio: the average over the samples and
// its ratio to the target.
func metricUsageRatio(metrics PodMetrics, target int64) (float64, int64) {
	var total int64
	for _, m := range metrics {
		total += m.Value
	}
	usage := total / int64(len(metrics))
	return float64(usage) / float64(target), usage
}

func cloneMetrics(m PodMetrics) PodMetrics {
	out := make(PodMetrics, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func removeMetrics(m PodMetrics, names []string) {
	for _, n := range names {
		delete(m, n)
	}
}
