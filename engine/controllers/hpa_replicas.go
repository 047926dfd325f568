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
	if len(metrics) == 0 {
		return 0, 0, 0, fmt.Errorf("unable to get metrics for resource %s: %w", resource, errNoMetrics)
	}
	if len(pods) == 0 {
		return 0, 0, 0, fmt.Errorf("no pods returned by selector while calculating replica count")
	}
	metrics = cloneMetrics(metrics)
	ready, unready, missing, ignored := c.groupPods(pods, metrics, resource)
	removeMetrics(metrics, ignored)
	removeMetrics(metrics, unready)
	if len(metrics) == 0 {
		return 0, 0, 0, fmt.Errorf("did not receive metrics for targeted pods (pods might be unready)")
	}
	requests, err := calculateRequests(pods, resource)
	if err != nil {
		return 0, 0, 0, err
	}
	ratio, utilization, raw, err := resourceUtilizationRatio(metrics, requests, targetUtilization)
	if err != nil {
		return 0, 0, 0, err
	}
	scaleUpWithUnready := len(unready) > 0 && ratio > 1.0
	if !scaleUpWithUnready && len(missing) == 0 {
		if c.within(ratio) {
			return currentReplicas, utilization, raw, nil
		}
		return int32(math.Ceil(ratio * float64(ready))), utilization, raw, nil
	}
	if len(missing) > 0 {
		if ratio < 1.0 {
			// on a scale-down, missing pods use 100% of their request (or
			// the target when it is above 100%)
			fallback := int64(max(100, targetUtilization))
			for _, name := range missing {
				metrics[name] = PodMetric{Value: requests[name] * fallback / 100}
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
	newRatio, _, _, err := resourceUtilizationRatio(metrics, requests, targetUtilization)
	if err != nil {
		return 0, utilization, raw, err
	}
	if c.within(newRatio) || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0) {
		return currentReplicas, utilization, raw, nil
	}
	n := int32(math.Ceil(newRatio * float64(len(metrics))))
	if (newRatio < 1.0 && n > currentReplicas) || (newRatio > 1.0 && n < currentReplicas) {
		return currentReplicas, utilization, raw, nil
	}
	return n, utilization, raw, nil
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
		if p.DeletionTimestamp != nil || p.Status.Phase == api.PodFailed {
			ignored = append(ignored, p.Name)
			continue
		}
		if p.Status.Phase == api.PodPending {
			unready = append(unready, p.Name)
			continue
		}
		m, found := metrics[p.Name]
		if !found {
			missing = append(missing, p.Name)
			continue
		}
		if resource == api.ResourceCPU {
			var notReady bool
			cond := p.Condition(api.PodReady)
			if cond == nil || p.Status.StartTime == nil {
				notReady = true
			} else if p.Status.StartTime.Add(c.cpuInitializationPeriod) > c.now {
				notReady = cond.Status == api.ConditionFalse || m.Timestamp < cond.LastTransitionTime.Add(m.Window)
			} else {
				notReady = cond.Status == api.ConditionFalse && p.Status.StartTime.Add(c.delayOfInitialReadinessStatus) > cond.LastTransitionTime
			}
			if notReady {
				unready = append(unready, p.Name)
				continue
			}
		}
		ready++
	}
	sort.Strings(unready)
	sort.Strings(missing)
	sort.Strings(ignored)
	return ready, unready, missing, ignored
}

// calculateRequests is replica_calculator.go calculateRequests: pod-level
// requests when set (PodLevelResources is on in v1.36), else the sum over
// containers and restartable (sidecar) init containers, each of which must
// request the resource.
func calculateRequests(pods []*api.Pod, resource string) (map[string]int64, error) {
	out := make(map[string]int64, len(pods))
	for _, p := range pods {
		if r := p.Spec.Resources; r != nil && len(r.Requests) > 0 {
			q, ok := r.Requests[resource]
			if !ok {
				return nil, fmt.Errorf("missing pod-level request for %s in Pod %s", resource, p.Name)
			}
			out[p.Name] = q.MilliValue()
			continue
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
				return nil, fmt.Errorf("missing request for %s in container %s of Pod %s", resource, ctr.Name, p.Name)
			}
			sum += q.MilliValue()
		}
		out[p.Name] = sum
	}
	return out, nil
}

// resourceUtilizationRatio is metrics/utilization.go
// GetResourceUtilizationRatio: integer percent of the summed requests, its
// ratio to the target, and the raw average value.
func resourceUtilizationRatio(metrics PodMetrics, requests map[string]int64, target int32) (float64, int32, int64, error) {
	var metricsTotal, requestsTotal int64
	n := 0
	for name, m := range metrics {
		r, ok := requests[name]
		if !ok {
			continue
		}
		metricsTotal += m.Value
		requestsTotal += r
		n++
	}
	if requestsTotal == 0 {
		return 0, 0, 0, fmt.Errorf("no metrics returned matched known pods")
	}
	u := int32(metricsTotal * 100 / requestsTotal)
	return float64(u) / float64(target), u, metricsTotal / int64(n), nil
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
