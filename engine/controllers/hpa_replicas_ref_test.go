package controllers

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

// TestResourceReplicasIsTheMapVersion: resourceReplicas (slices aligned
// with the pods) answers as the map version it replaced (upstream's
// shape: copy the samples, delete, fill in, sum the map), kept below as
// the reference, on random pod sets — every group (ready, unready by
// phase, readiness or a hot CPU, missing, ignored), samples of pods not
// selected, missing and zero requests, both resources, scale-ups and
// scale-downs — replicas, utilization, raw value and error alike.
func TestResourceReplicasIsTheMapVersion(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	now := sec(3600)
	c := newReplicaCalc(now)
	compared, scaled := 0, 0
	for iter := 0; iter < 20000; iter++ {
		pods, metrics := randomHPAPods(r, now)
		res := []string{api.ResourceCPU, api.ResourceMemory}[r.IntN(2)]
		current, target := int32(1+r.IntN(10)), int32(10+r.IntN(190))
		before := cloneMetrics(metrics)
		g1, u1, w1, e1 := c.resourceReplicas(current, target, res, pods, metrics)
		g2, u2, w2, e2 := c.resourceReplicasMaps(current, target, res, pods, before)
		if g1 != g2 || u1 != u2 || w1 != w2 || fmt.Sprint(e1) != fmt.Sprint(e2) {
			t.Fatalf("case %d: got %d, %d, %d, %v; the map version %d, %d, %d, %v", iter, g1, u1, w1, e1, g2, u2, w2, e2)
		}
		if e1 == nil {
			compared++
			if g1 != current {
				scaled++
			}
		}
	}
	if compared < 5000 || scaled < 1000 {
		t.Fatalf("only %d answers compared, %d of them rescaling: the generator is too narrow", compared, scaled)
	}
}

// randomHPAPods is a random set of selected pods (every group: ready,
// unready by phase, readiness or a hot CPU, missing, ignored; missing and
// zero requests) and the metrics API's samples, some of pods not
// selected.
func randomHPAPods(r *rand.Rand, now api.Time) ([]*api.Pod, PodMetrics) {
	n := r.IntN(9)
	var pods []*api.Pod
	metrics := PodMetrics{}
	for i := 0; i < n; i++ {
		p := mkPod(fmt.Sprintf("pod-%d", i)).node("n1").obj()
		req := api.ResourceList{api.ResourceCPU: api.Milli(int64(r.IntN(3)*500 + r.IntN(2)*r.IntN(7))), api.ResourceMemory: api.Units(int64(1 + r.IntN(4)))}
		if r.IntN(40) == 0 {
			req = nil
		}
		p.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: req}}}
		p.Status.Phase = []string{api.PodRunning, api.PodRunning, api.PodRunning, api.PodPending, api.PodFailed}[r.IntN(5)]
		if r.IntN(8) == 0 {
			p.DeletionTimestamp = &now
		}
		if r.IntN(10) != 0 {
			start := now.Add(-time.Duration(r.IntN(12)) * time.Minute)
			p.Status.StartTime = &start
		}
		if r.IntN(8) != 0 {
			st := []string{api.ConditionTrue, api.ConditionTrue, api.ConditionFalse}[r.IntN(3)]
			p.Status.Conditions = []api.Condition{{Type: api.PodReady, Status: st, LastTransitionTime: now.Add(-time.Duration(r.IntN(12)) * time.Minute)}}
		}
		pods = append(pods, p)
		if r.IntN(5) != 0 {
			metrics[p.Name] = PodMetric{Value: int64(r.IntN(2000)), Timestamp: now.Add(-time.Duration(r.IntN(3)) * time.Minute), Window: metricWindow}
		}
	}
	for k := r.IntN(3); k > 0; k-- {
		if r.IntN(3) == 0 {
			metrics[fmt.Sprintf("other-%d", k)] = PodMetric{Value: int64(r.IntN(2000)), Timestamp: now, Window: metricWindow}
		}
	}
	return pods, metrics
}

// TestRawResourceReplicasIsTheMapVersion: the AverageValue path over the
// HPA's per-pod table (rawResourceReplicasOver: counts per group and one
// sum) answers as the map version it replaced (upstream's shape, kept
// below), on the random pod sets above, samples of pods not selected
// included — replicas, usage and error alike.
func TestRawResourceReplicasIsTheMapVersion(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	now := sec(3600)
	c := newReplicaCalc(now)
	compared, scaled := 0, 0
	for iter := 0; iter < 20000; iter++ {
		pods, metrics := randomHPAPods(r, now)
		res := []string{api.ResourceCPU, api.ResourceMemory}[r.IntN(2)]
		current, target := int32(1+r.IntN(10)), int64(1+r.IntN(1500))
		before := cloneMetrics(metrics)
		g1, u1, e1 := c.rawResourceReplicas(current, target, res, pods, metrics)
		g2, u2, e2 := c.rawResourceReplicasMaps(current, target, res, pods, before)
		if g1 != g2 || u1 != u2 || fmt.Sprint(e1) != fmt.Sprint(e2) {
			t.Fatalf("case %d: got %d, %d, %v; the map version %d, %d, %v", iter, g1, u1, e1, g2, u2, e2)
		}
		if e1 == nil {
			compared++
			if g1 != current {
				scaled++
			}
		}
	}
	if compared < 5000 || scaled < 1000 {
		t.Fatalf("only %d answers compared, %d of them rescaling: the generator is too narrow", compared, scaled)
	}
}

// rawResourceReplicasMaps is rawResourceReplicas as it was, in upstream's
// shape.
func (c replicaCalc) rawResourceReplicasMaps(currentReplicas int32, targetUsage int64, resource string, pods []*api.Pod, metrics PodMetrics) (replicas int32, usage int64, err error) {
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

// resourceReplicasMaps is resourceReplicas as it was, in upstream's shape.
func (c replicaCalc) resourceReplicasMaps(currentReplicas, targetUtilization int32, resource string, pods []*api.Pod, metrics PodMetrics) (replicas, utilization int32, raw int64, err error) {
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

// groupPods is replica_calculator.go groupPods in upstream's shape, by
// name over the samples map (the calculator groups pod by pod: group).
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

// podGroup returns p's group (group over its status), its sample and
// whether it has one.
func (c replicaCalc) podGroup(p *api.Pod, metrics PodMetrics, resource string) (podGroup, PodMetric, bool) {
	m, found := metrics[p.Name]
	f := readHPAPodStatus(p)
	return c.group(&f, podSample{m, found}, resource), m, found
}
