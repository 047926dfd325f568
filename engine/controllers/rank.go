package controllers

import (
	"fmt"
	"math"
	"sort"
	"time"

	"podlab.dev/podlab/engine/api"
)

// RankRule names the rule of ActivePodsWithRanks.Less that decided between
// two pods (pkg/controller/controller_utils.go, LogarithmicScaleDown on, as
// it is by default since 1.22).
type RankRule int

// The rules, in the order upstream applies them.
const (
	RuleNone         RankRule = iota // nothing differed (a true tie)
	RuleUnassigned                   // 1. unassigned < assigned
	RulePhase                        // 2. Pending < Unknown < Running
	RuleNotReady                     // 3. not ready < ready
	RuleDeletionCost                 // 4. lower pod-deletion-cost first
	RuleColocated                    // 5. more pods of the same owner on the node first
	RuleReadyTime                    // 6. ready for less time (log2 buckets)
	RuleReadyTimeUID                 // 6'. same ready-time bucket: lower UID first
	RuleRestarts                     // 7. more restarts first
	RuleCreation                     // 8. newer first (log2 buckets)
	RuleCreationUID                  // 8'. same creation bucket: lower UID first
)

// podPhaseOrdinal is controller_utils.go podPhaseToOrdinal; other phases
// (terminal ones never reach the ranking) count as 0 like a missing map key.
func podPhaseOrdinal(phase string) int {
	switch phase {
	case api.PodUnknown:
		return 1
	case api.PodRunning:
		return 2
	}
	return 0
}

// RankedPod is one pod in scale-down order with the facts the ranking
// looked at, so the UI can show why a pod goes first.
type RankedPod struct {
	Pod *api.Pod
	// Colocated is the number of active pods of the same owner (every
	// ReplicaSet of the same Deployment) on this pod's node, itself included.
	Colocated    int
	Ready        bool
	DeletionCost int32
	// Restarts and SidecarRestarts are maxContainerRestarts' two counts.
	Restarts        int32
	SidecarRestarts int32
	// ReadyFor and ReadyBucket (floor(log2(ns)), -1 when not positive) for
	// ready pods; CreatedBucket likewise for the pod's age.
	ReadyFor      time.Duration
	ReadyBucket   int64
	Age           time.Duration
	CreatedBucket int64
	// Rule and Reason tell why this pod goes before the next one in the
	// order (RuleNone and "" for the last pod).
	Rule   RankRule
	Reason string
}

// logBucket is the per-timestamp half of logarithmicRankDiff.
func logBucket(d time.Duration) int64 {
	if d <= 0 {
		return -1
	}
	return int64(math.Log2(float64(d)))
}

// rankInput is one pod of ActivePodsWithRanks: the pod and its Rank.
type rankInput struct {
	pod       *api.Pod
	colocated int
}

// compareForScaleDown is ActivePodsWithRanks.Less with the rule that
// decided: it returns whether a goes before b, and which rule said so.
func compareForScaleDown(a, b *rankInput, now api.Time) (bool, RankRule) {
	pa, pb := a.pod, b.pod
	// 1. Unassigned < assigned.
	if pa.Spec.NodeName != pb.Spec.NodeName && (pa.Spec.NodeName == "" || pb.Spec.NodeName == "") {
		return pa.Spec.NodeName == "", RuleUnassigned
	}
	// 2. Pending < Unknown < Running.
	if oa, ob := podPhaseOrdinal(pa.Status.Phase), podPhaseOrdinal(pb.Status.Phase); oa != ob {
		return oa < ob, RulePhase
	}
	// 3. Not ready < ready.
	ra, rb := isPodReady(pa), isPodReady(pb)
	if ra != rb {
		return !ra, RuleNotReady
	}
	// 4. Lower pod-deletion-cost first (PodDeletionCost is GA-on by default).
	if ca, cb := deletionCost(pa), deletionCost(pb); ca != cb {
		return ca < cb, RuleDeletionCost
	}
	// 5. Doubled up < not doubled up.
	if a.colocated != b.colocated {
		return a.colocated > b.colocated, RuleColocated
	}
	// 6. Ready for less time first, compared in log2 buckets; within one
	// bucket the UID decides at once (no fall-through to restarts).
	if ra && rb {
		ta, _ := podReadyTime(pa)
		tb, _ := podReadyTime(pb)
		if ta != tb {
			diff := logBucket(now.Sub(ta)) - logBucket(now.Sub(tb))
			if diff == 0 {
				return pa.UID < pb.UID, RuleReadyTimeUID
			}
			return diff < 0, RuleReadyTime
		}
	}
	// 7. More restarts first: regular containers, then sidecars.
	if more, ok := compareMaxContainerRestarts(pa, pb); ok {
		return more, RuleRestarts
	}
	// 8. Newer first, log2 buckets, then UID.
	if pa.CreationTimestamp != pb.CreationTimestamp {
		diff := logBucket(now.Sub(pa.CreationTimestamp)) - logBucket(now.Sub(pb.CreationTimestamp))
		if diff == 0 {
			return pa.UID < pb.UID, RuleCreationUID
		}
		return diff < 0, RuleCreation
	}
	return false, RuleNone
}

// colocatedCounts is replica_set.go getPodsRankedByRelatedPodsOnSameNode:
// active related pods per node name (unassigned pods count under "").
func colocatedCounts(related []*api.Pod) map[string]int {
	m := make(map[string]int)
	for _, p := range related {
		if isPodActive(p) {
			m[p.Spec.NodeName]++
		}
	}
	return m
}

// RankForScaleDown orders pods the way a ReplicaSet picks scale-down
// victims (replica_set.go getPodsToDelete with ActivePodsWithRanks): the
// first pods of the result are deleted first. related are the pods of every
// ReplicaSet controlled by the same owner (a superset of pods). Pods are
// first put in namespace/name order and then sorted stably, so equal pods
// keep a reproducible order (upstream's input order is its informer's).
func RankForScaleDown(pods, related []*api.Pod, now api.Time) []RankedPod {
	onNode := colocatedCounts(related)
	in := make([]rankInput, len(pods))
	for i, p := range pods {
		in[i] = rankInput{pod: p, colocated: onNode[p.Spec.NodeName]}
	}
	sort.SliceStable(in, func(i, j int) bool { return podLess(in[i].pod, in[j].pod) })
	sort.SliceStable(in, func(i, j int) bool {
		less, _ := compareForScaleDown(&in[i], &in[j], now)
		return less
	})
	out := make([]RankedPod, len(in))
	for i := range in {
		p := in[i].pod
		r := RankedPod{
			Pod:           p,
			Colocated:     in[i].colocated,
			Ready:         isPodReady(p),
			DeletionCost:  deletionCost(p),
			Age:           now.Sub(p.CreationTimestamp),
			CreatedBucket: logBucket(now.Sub(p.CreationTimestamp)),
			ReadyBucket:   -1,
		}
		r.Restarts, r.SidecarRestarts = maxContainerRestarts(p)
		if t, ok := podReadyTime(p); ok {
			r.ReadyFor = now.Sub(t)
			r.ReadyBucket = logBucket(r.ReadyFor)
		}
		if i+1 < len(in) {
			_, r.Rule = compareForScaleDown(&in[i], &in[i+1], now)
			r.Reason = rankReason(r.Rule, &in[i], &in[i+1], now)
		}
		out[i] = r
	}
	return out
}

// rankReason explains, in the UI's words, why a goes before b.
func rankReason(rule RankRule, a, b *rankInput, now api.Time) string {
	pa, pb := a.pod, b.pod
	switch rule {
	case RuleUnassigned:
		return "not scheduled to a node yet (unassigned pods go first)"
	case RulePhase:
		return fmt.Sprintf("phase %s goes before %s (Pending < Unknown < Running)", pa.Status.Phase, pb.Status.Phase)
	case RuleNotReady:
		return "not ready (not-ready pods go before ready ones)"
	case RuleDeletionCost:
		return fmt.Sprintf("lower pod-deletion-cost (%d < %d)", deletionCost(pa), deletionCost(pb))
	case RuleColocated:
		return fmt.Sprintf("its node runs more pods of the same owner (%d > %d)", a.colocated, b.colocated)
	case RuleReadyTime:
		ta, _ := podReadyTime(pa)
		tb, _ := podReadyTime(pb)
		return fmt.Sprintf("ready for less time (%s, log2 bucket %d < %d)", now.Sub(ta), logBucket(now.Sub(ta)), logBucket(now.Sub(tb)))
	case RuleReadyTimeUID:
		ta, _ := podReadyTime(pa)
		return fmt.Sprintf("ready for about as long (same log2 bucket %d); the lower UID decides", logBucket(now.Sub(ta)))
	case RuleRestarts:
		ra, sa := maxContainerRestarts(pa)
		rb, sb := maxContainerRestarts(pb)
		if ra == rb {
			return fmt.Sprintf("more sidecar restarts (%d > %d)", sa, sb)
		}
		return fmt.Sprintf("more container restarts (%d > %d)", ra, rb)
	case RuleCreation:
		return fmt.Sprintf("newer (age %s, log2 bucket %d < %d)", now.Sub(pa.CreationTimestamp), logBucket(now.Sub(pa.CreationTimestamp)), logBucket(now.Sub(pb.CreationTimestamp)))
	case RuleCreationUID:
		return fmt.Sprintf("about as old (same log2 bucket %d); the lower UID decides", logBucket(now.Sub(pa.CreationTimestamp)))
	}
	return "indistinguishable from the next pod; name order kept"
}
