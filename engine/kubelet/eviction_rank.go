package kubelet

import (
	"fmt"
	"sort"

	"podlab.dev/podlab/engine/api"
)

// PodMemory is a pod on a node and its modelled memory working set.
type PodMemory struct {
	Pod   *api.Pod
	Usage int64 // bytes
}

// RankEntry explains one pod's place in the memory eviction order.
type RankEntry struct {
	Pod      string // namespace/name
	QOS      string
	Priority int32
	Usage    int64 // bytes
	Request  int64 // bytes, the pod's effective memory request
	// Exceeds: usage above request (exceedMemoryRequests).
	Exceeds bool
	// AboveRequest is usage − request (memory), may be negative.
	AboveRequest int64
	// Critical pods are ranked but never evicted.
	Critical bool
	// Rank is 1 for the pod the kubelet evicts first.
	Rank int
	// Key is the comparison key in words, for the UI.
	Key string
}

// RankMemoryPressure orders pods for eviction under memory pressure as
// kubelet eviction/helpers.go rankMemoryPressure:
// orderedBy(exceedMemoryRequests, priority, memory) — pods using more than
// their request first, then lower priority first, then the larger usage
// above request first. QoS is not a comparator; it falls out of the first
// rule (a BestEffort pod's request is 0, a Guaranteed pod cannot exceed its
// limit). Upstream sorts with an unstable sort; the lab breaks remaining
// ties by namespace/name so the order is reproducible.
func RankMemoryPressure(pods []PodMemory) []RankEntry {
	out := make([]RankEntry, 0, len(pods))
	for _, pm := range pods {
		req := MemoryRequest(pm.Pod)
		e := RankEntry{
			Pod:          pm.Pod.Key(),
			QOS:          api.ComputePodQOS(pm.Pod),
			Priority:     pm.Pod.PriorityValue(),
			Usage:        pm.Usage,
			Request:      req,
			Exceeds:      pm.Usage > req,
			AboveRequest: pm.Usage - req,
			Critical:     IsCriticalPod(pm.Pod),
		}
		e.Key = fmt.Sprintf("exceeds-request=%t priority=%d usage-above-request=%s",
			e.Exceeds, e.Priority, signedBytes(e.AboveRequest))
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := &out[i], &out[j]
		if a.Exceeds != b.Exceeds {
			return a.Exceeds
		}
		if a.Priority != b.Priority {
			return a.Priority < b.Priority
		}
		if a.AboveRequest != b.AboveRequest {
			return a.AboveRequest > b.AboveRequest
		}
		return a.Pod < b.Pod
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

func signedBytes(v int64) string {
	if v < 0 {
		return "-" + FormatBytes(-v)
	}
	return FormatBytes(v)
}

// FormatBytes prints bytes as resource.Quantity does for a BinarySI
// quantity built from an integer: the largest exact binary suffix, else
// plain bytes ("100Mi", "1536Ki", "1000000").
func FormatBytes(v int64) string { return api.FormatBytes(api.Units(v)) }

// ContainerUsages splits a pod's modelled usage over its running
// containers (main containers and sidecars) in proportion to their memory
// requests, or all on the first container when none requests memory.
// The result is in the order of Containers then InitContainers (sidecars).
func ContainerUsages(pod *api.Pod, usage int64) []ContainerUsage {
	var cs []*api.Container
	for i := range pod.Spec.Containers {
		cs = append(cs, &pod.Spec.Containers[i])
	}
	for i := range pod.Spec.InitContainers {
		if pod.Spec.InitContainers[i].IsSidecar() {
			cs = append(cs, &pod.Spec.InitContainers[i])
		}
	}
	out := make([]ContainerUsage, len(cs))
	var total int64
	for i, c := range cs {
		out[i].Name = c.Name
		if q, ok := c.Resources.Requests[api.ResourceMemory]; ok {
			out[i].Request = q.Value()
			out[i].HasRequest = true
			total += out[i].Request
		}
	}
	if len(out) == 0 {
		return nil
	}
	if total == 0 {
		out[0].Usage = usage
		return out
	}
	var given int64
	for i := range out {
		out[i].Usage = usage * out[i].Request / total
		given += out[i].Usage
	}
	// the rounding remainder goes to the largest requester
	big := 0
	for i := range out {
		if out[i].Request > out[big].Request {
			big = i
		}
	}
	out[big].Usage += usage - given
	return out
}

// ContainerUsage is one container's share of its pod's usage.
type ContainerUsage struct {
	Name       string
	Usage      int64
	Request    int64
	HasRequest bool
}
