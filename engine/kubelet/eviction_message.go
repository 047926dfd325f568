package kubelet

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
)

// Message formats of kubelet eviction/helpers.go.
const (
	nodeLowMessageFmt      = "The node was low on resource: %v. "
	thresholdMetMessageFmt = "Threshold quantity: %v, available: %v. "
	containerMessageFmt    = "Container %s was using %s, request is %s, has larger consumption of %v. "
	podMessageFmt          = "Pod %s was using %s, request is %s, has larger consumption of %v. "
)

// EvictionReason is the pod status reason and event reason of a kubelet
// eviction (eviction_manager.go Reason).
const EvictionReason = "Evicted"

// ReasonTerminationByKubelet is the DisruptionTarget condition reason.
const ReasonTerminationByKubelet = "TerminationByKubelet"

// EvictionMessage is evictionMessage for memory: the node line, the
// threshold line, then (with pod-level memory requests) the pod line and a
// line for every container using more than its own request.
func EvictionMessage(pod *api.Pod, usage, thresholdQuantity, available int64) string {
	msg := fmt.Sprintf(nodeLowMessageFmt, api.ResourceMemory)
	msg += fmt.Sprintf(thresholdMetMessageFmt, FormatBytes(thresholdQuantity), FormatBytes(available))
	if r := pod.Spec.Resources; r != nil && (len(r.Requests) > 0 || len(r.Limits) > 0) {
		if req, ok := r.Requests[api.ResourceMemory]; ok {
			msg += fmt.Sprintf(podMessageFmt, pod.Name, FormatBytes(usage), api.FormatBytes(req), api.ResourceMemory)
		}
	}
	for _, cu := range ContainerUsages(pod, usage) {
		if cu.Usage > cu.Request {
			msg += fmt.Sprintf(containerMessageFmt, cu.Name, FormatBytes(cu.Usage), FormatBytes(cu.Request), api.ResourceMemory)
		}
	}
	return msg
}
