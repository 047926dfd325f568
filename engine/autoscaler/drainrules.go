package autoscaler

import (
	"fmt"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/disruption"
)

// BlockingReason is why a pod keeps its node (utils/drain
// BlockingPodReason).
type BlockingReason string

// The blocking reasons the lab models.
const (
	NotReplicated            BlockingReason = "NotReplicated"
	UnmovableKubeSystemPod   BlockingReason = "UnmovableKubeSystemPod"
	NotSafeToEvictAnnotation BlockingReason = "NotSafeToEvictAnnotation"
	NotEnoughPdb             BlockingReason = "NotEnoughPdb"
)

// podLongTerminatingExtraThreshold is utils/drain's
// PodLongTerminatingExtraThreshold.
const podLongTerminatingExtraThreshold = 30 * time.Second

// drainVerdict is what the drainability rules say about one pod.
type drainVerdict struct {
	// Move: the pod must be rescheduled elsewhere for the node to go.
	Move bool
	// Blocked (with Message) stops the node's removal.
	Blocked BlockingReason
	Message string
}

// podDrainability applies the drainability rules in upstream's order
// (utils/drain GetPodsForDeletionOnNodeDrain and
// simulator/drainability/rules): long-terminating pods are ignored,
// DaemonSet pods stay (the node takes them along), terminal pods are not
// moved; unless annotated safe-to-evict, a pod without a controller
// blocks, a kube-system pod without a PDB blocks (with
// --skip-nodes-with-system-pods), and a pod annotated
// safe-to-evict=false blocks. The PDB rule is separate (pdbBlocks).
func podDrainability(p *api.Pod, skipSystemPods bool, kubeSystemPDBs []*api.PodDisruptionBudget, now api.Time) drainVerdict {
	if longTerminating(p, now) || p.IsTerminal() {
		return drainVerdict{}
	}
	ref := p.ControllerRef()
	if ref != nil && ref.Kind == "DaemonSet" {
		return drainVerdict{}
	}
	if p.DeletionTimestamp != nil {
		// being deleted: its controller replaces it wherever it fits
		return drainVerdict{}
	}
	if p.Annotations[SafeToEvictAnnotation] != "true" {
		if ref == nil {
			return drainVerdict{Blocked: NotReplicated, Message: fmt.Sprintf("%s/%s is not replicated", p.Namespace, p.Name)}
		}
		if p.Namespace == "kube-system" && skipSystemPods && len(disruption.BudgetsFor(p, kubeSystemPDBs)) == 0 {
			return drainVerdict{Blocked: UnmovableKubeSystemPod, Message: fmt.Sprintf("non-daemonset, non-mirrored, non-pdb-assigned kube-system pod present: %s", p.Name)}
		}
		if p.Annotations[SafeToEvictAnnotation] == "false" {
			return drainVerdict{Blocked: NotSafeToEvictAnnotation, Message: fmt.Sprintf("pod annotated as not safe to evict present: %s", p.Name)}
		}
	}
	return drainVerdict{Move: true}
}

// longTerminating is IsPodLongTerminating: deleted longer ago than its
// grace period plus 30 s.
func longTerminating(p *api.Pod, now api.Time) bool {
	if p.DeletionTimestamp == nil {
		return false
	}
	grace := int64(30)
	if p.Spec.TerminationGracePeriodSeconds != nil {
		grace = *p.Spec.TerminationGracePeriodSeconds
	}
	return p.DeletionTimestamp.Add(time.Duration(grace)*time.Second+podLongTerminatingExtraThreshold) < now
}

// pdbTracker is RemainingPdbTracker: the disruptions each budget still
// allows while a loop plans several removals.
type pdbTracker struct {
	pdbs      []*api.PodDisruptionBudget
	remaining map[string]int32
}

func newPDBTracker(pdbs []*api.PodDisruptionBudget) *pdbTracker {
	t := &pdbTracker{pdbs: pdbs, remaining: map[string]int32{}}
	for _, b := range pdbs {
		t.remaining[b.Namespace+"/"+b.Name] = b.Status.DisruptionsAllowed
	}
	return t
}

// blocks returns the pdb rule's verdict for moving pods
// (simulator/drainability/rules/pdb): a pod whose budget allows no more
// disruptions blocks.
func (t *pdbTracker) blocks(pods []*api.Pod) (drainVerdict, bool) {
	need := map[string]int32{}
	for _, p := range pods {
		for _, b := range disruption.BudgetsFor(p, t.pdbs) {
			k := b.Namespace + "/" + b.Name
			need[k]++
			if t.remaining[k] < need[k] {
				return drainVerdict{Blocked: NotEnoughPdb, Message: fmt.Sprintf("not enough pod disruption budget to move %s/%s", p.Namespace, p.Name)}, true
			}
		}
	}
	return drainVerdict{}, false
}

// take records that pods will be disrupted.
func (t *pdbTracker) take(pods []*api.Pod) {
	for _, p := range pods {
		for _, b := range disruption.BudgetsFor(p, t.pdbs) {
			t.remaining[b.Namespace+"/"+b.Name]--
		}
	}
}

func kubeSystemPDBs(pdbs []*api.PodDisruptionBudget) []*api.PodDisruptionBudget {
	var out []*api.PodDisruptionBudget
	for _, b := range pdbs {
		if b.Namespace == "kube-system" {
			out = append(out, b)
		}
	}
	return out
}
