package controllers

import (
	"math"
	"sort"
	"strconv"

	"podlab.dev/podlab/engine/api"
)

// Annotations the Deployment controller keeps on its ReplicaSets
// (pkg/controller/deployment/util/deployment_util.go).
const (
	RevisionAnnotation        = "deployment.kubernetes.io/revision"
	RevisionHistoryAnnotation = "deployment.kubernetes.io/revision-history"
	DesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas"
	MaxReplicasAnnotation     = "deployment.kubernetes.io/max-replicas"
	// RestartedAtAnnotation is what `kubectl rollout restart` sets on the template.
	RestartedAtAnnotation = "kubectl.kubernetes.io/restartedAt"
	// lastAppliedAnnotation is never copied to ReplicaSets.
	lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"
)

// ResolveFenceposts is deploymentutil.ResolveFenceposts: maxSurge is
// rounded up, maxUnavailable down (percentages of desired); when both come
// out 0, maxUnavailable becomes 1 so a rollout can always progress.
func ResolveFenceposts(maxSurge, maxUnavailable *api.IntOrString, desired int32) (surge, unavailable int32, err error) {
	surge, err = scaledValue(valueOrZero(maxSurge), desired, true)
	if err != nil {
		return 0, 0, err
	}
	unavailable, err = scaledValue(valueOrZero(maxUnavailable), desired, false)
	if err != nil {
		return 0, 0, err
	}
	if surge == 0 && unavailable == 0 {
		unavailable = 1
	}
	return surge, unavailable, nil
}

func isRollingUpdate(d *Deployment) bool {
	return d.Spec.Strategy.Type == api.RollingUpdateDeploymentStrategyType
}

// maxSurge is deploymentutil.MaxSurge.
func maxSurge(d *Deployment) int32 {
	if !isRollingUpdate(d) {
		return 0
	}
	s, _, _ := ResolveFenceposts(d.Spec.Strategy.RollingUpdate.MaxSurge, d.Spec.Strategy.RollingUpdate.MaxUnavailable, *d.Spec.Replicas)
	return s
}

// maxUnavailable is deploymentutil.MaxUnavailable (never above replicas).
func maxUnavailable(d *Deployment) int32 {
	if !isRollingUpdate(d) || *d.Spec.Replicas == 0 {
		return 0
	}
	_, u, _ := ResolveFenceposts(d.Spec.Strategy.RollingUpdate.MaxSurge, d.Spec.Strategy.RollingUpdate.MaxUnavailable, *d.Spec.Replicas)
	return min(u, *d.Spec.Replicas)
}

func replicaCount(rss []*ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += *rs.Spec.Replicas
		}
	}
	return n
}

func actualReplicaCount(rss []*ReplicaSet) (replicas, ready, available, terminating int32) {
	for _, rs := range rss {
		if rs != nil {
			replicas += rs.Status.Replicas
			ready += rs.Status.ReadyReplicas
			available += rs.Status.AvailableReplicas
			terminating += rs.Status.TerminatingReplicas
		}
	}
	return
}

func availableCount(rss []*ReplicaSet) int32 {
	_, _, a, _ := actualReplicaCount(rss)
	return a
}

// newRSNewReplicas is deploymentutil.NewRSNewReplicas: how far the new
// ReplicaSet may grow now. RollingUpdate: up to replicas+maxSurge pods in
// all ReplicaSets together, never above replicas; Recreate: replicas.
func newRSNewReplicas(d *Deployment, all []*ReplicaSet, newRS *ReplicaSet) int32 {
	if !isRollingUpdate(d) {
		return *d.Spec.Replicas
	}
	surge, _ := scaledValue(valueOrZero(d.Spec.Strategy.RollingUpdate.MaxSurge), *d.Spec.Replicas, true)
	current := replicaCount(all)
	maxTotal := *d.Spec.Replicas + surge
	if current >= maxTotal {
		return *newRS.Spec.Replicas
	}
	up := min(maxTotal-current, *d.Spec.Replicas-*newRS.Spec.Replicas)
	return *newRS.Spec.Replicas + up
}

// annotationInt32 is getNonNegativeInt32FromAnnotation.
func annotationInt32(rs *ReplicaSet, key string) (int32, bool) {
	s, ok := rs.Annotations[key]
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 10, 32)
	if err != nil || v > math.MaxInt32 {
		return 0, false
	}
	return int32(v), true
}

// replicaSetProportion is deploymentutil.GetReplicaSetProportion.
func replicaSetProportion(rs *ReplicaSet, d *Deployment, toAdd, added int32) int32 {
	if rs == nil || *rs.Spec.Replicas == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	fraction := replicaSetFraction(rs, d)
	allowed := toAdd - added
	if toAdd > 0 {
		return min(fraction, allowed)
	}
	return max(fraction, allowed)
}

// replicaSetFraction is getReplicaSetFraction: the ReplicaSet's share of
// the new maximum (replicas+maxSurge), scaled from the max-replicas
// annotation it was last sized for, rounded half away from zero.
func replicaSetFraction(rs *ReplicaSet, d *Deployment) int32 {
	if *d.Spec.Replicas == 0 {
		return -*rs.Spec.Replicas
	}
	maxReplicas := *d.Spec.Replicas + maxSurge(d)
	before, ok := annotationInt32(rs, MaxReplicasAnnotation)
	if !ok || before == 0 {
		before = d.Status.Replicas
		if before == 0 {
			return 0
		}
	}
	size := float64(*rs.Spec.Replicas*maxReplicas) / float64(before)
	return int32(math.Round(size)) - *rs.Spec.Replicas
}

// setReplicasAnnotations is deploymentutil.SetReplicasAnnotations.
func setReplicasAnnotations(rs *ReplicaSet, desired, maxReplicas int32) bool {
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	changed := false
	for k, v := range map[string]string{DesiredReplicasAnnotation: strconv.Itoa(int(desired)), MaxReplicasAnnotation: strconv.Itoa(int(maxReplicas))} {
		if rs.Annotations[k] != v {
			rs.Annotations[k] = v
			changed = true
		}
	}
	return changed
}

// revision is deploymentutil.Revision (0 when absent or invalid).
func revision(m *api.ObjectMeta) int64 {
	v, err := strconv.ParseInt(m.Annotations[RevisionAnnotation], 10, 64)
	if err != nil {
		return 0
	}
	return v
}

func maxRevision(rss []*ReplicaSet) int64 {
	var mx int64
	for _, rs := range rss {
		mx = max(mx, revision(&rs.ObjectMeta))
	}
	return mx
}

// lastRevision is deploymentutil.LastRevision: the second highest revision.
func lastRevision(rss []*ReplicaSet) int64 {
	var mx, second int64
	for _, rs := range rss {
		v := revision(&rs.ObjectMeta)
		if v >= mx {
			second, mx = mx, v
		} else if v > second {
			second = v
		}
	}
	return second
}

// sortByCreation is controller.ReplicaSetsByCreationTimestamp (then name).
func sortByCreation(rss []*ReplicaSet) {
	sort.SliceStable(rss, func(i, j int) bool { return createdBefore(rss[i], rss[j]) })
}

// sortBySizeNewer is controller.ReplicaSetsBySizeNewer: larger first, then
// newer first.
func sortBySizeNewer(rss []*ReplicaSet) {
	sort.SliceStable(rss, func(i, j int) bool {
		if *rss[i].Spec.Replicas == *rss[j].Spec.Replicas {
			return newerRS(rss[i], rss[j])
		}
		return *rss[i].Spec.Replicas > *rss[j].Spec.Replicas
	})
}

// sortBySizeOlder is controller.ReplicaSetsBySizeOlder: larger first, then
// older first.
func sortBySizeOlder(rss []*ReplicaSet) {
	sort.SliceStable(rss, func(i, j int) bool {
		if *rss[i].Spec.Replicas == *rss[j].Spec.Replicas {
			return newerRS(rss[j], rss[i])
		}
		return *rss[i].Spec.Replicas > *rss[j].Spec.Replicas
	})
}

func newerRS(a, b *ReplicaSet) bool {
	if a.CreationTimestamp == b.CreationTimestamp {
		return a.Name > b.Name
	}
	return a.CreationTimestamp > b.CreationTimestamp
}

// sortByRevision is deploymentutil.ReplicaSetsByRevision.
func sortByRevision(rss []*ReplicaSet) {
	sort.SliceStable(rss, func(i, j int) bool {
		ri, rj := revision(&rss[i].ObjectMeta), revision(&rss[j].ObjectMeta)
		if ri == rj {
			if rss[i].CreationTimestamp == rss[j].CreationTimestamp {
				return rss[i].Name < rss[j].Name
			}
			return rss[i].CreationTimestamp < rss[j].CreationTimestamp
		}
		return ri < rj
	})
}

func filterActive(rss []*ReplicaSet) []*ReplicaSet {
	var out []*ReplicaSet
	for _, rs := range rss {
		if rs != nil && *rs.Spec.Replicas > 0 {
			out = append(out, rs)
		}
	}
	return out
}

// isSaturated is deploymentutil.IsSaturated.
func isSaturated(d *Deployment, rs *ReplicaSet) bool {
	if rs == nil {
		return false
	}
	desired, err := strconv.Atoi(rs.Annotations[DesiredReplicasAnnotation])
	if err != nil {
		return false
	}
	return *rs.Spec.Replicas == *d.Spec.Replicas && int32(desired) == *d.Spec.Replicas && rs.Status.AvailableReplicas == *d.Spec.Replicas
}

// findActiveOrLatest is deploymentutil.FindActiveOrLatest.
func findActiveOrLatest(newRS *ReplicaSet, old []*ReplicaSet) *ReplicaSet {
	if newRS == nil && len(old) == 0 {
		return nil
	}
	sorted := append([]*ReplicaSet(nil), old...)
	sortByCreation(sorted)
	for i, j := 0, len(sorted)-1; i < j; i, j = i+1, j-1 {
		sorted[i], sorted[j] = sorted[j], sorted[i]
	}
	all := filterActive(append(sorted, newRS))
	switch len(all) {
	case 0:
		if newRS != nil {
			return newRS
		}
		return sorted[0]
	case 1:
		return all[0]
	}
	return nil
}
