package descheduler

import (
	"fmt"
	"slices"
	"strings"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/disruption"
)

// Annotations the DefaultEvictor reads (defaultevictor.go,
// evictions/utils/utils.go).
const (
	AnnotationEvict           = "descheduler.alpha.kubernetes.io/evict"
	AnnotationPreferNoEvict   = "descheduler.alpha.kubernetes.io/prefer-no-eviction"
	annotationMirror          = "kubernetes.io/config.mirror"
	annotationConfigSource    = "kubernetes.io/config.source"
	NoEvictionPolicyMandatory = "Mandatory"
	NoEvictionPolicyPreferred = "Preferred"
)

// Pod protections (defaultevictor/types.go).
const (
	PodsWithLocalStorage   = "PodsWithLocalStorage"
	DaemonSetPods          = "DaemonSetPods"
	SystemCriticalPods     = "SystemCriticalPods"
	FailedBarePods         = "FailedBarePods"
	PodsWithPVC            = "PodsWithPVC"
	PodsWithoutPDB         = "PodsWithoutPDB"
	PodsWithResourceClaims = "PodsWithResourceClaims"
)

var defaultProtections = []string{PodsWithLocalStorage, SystemCriticalPods, FailedBarePods, DaemonSetPods}

// protections is getEffectivePodProtections (defaultevictor.go): the
// podProtections lists when either is set, else the deprecated booleans
// (legacyGetPodProtections).
func (a *EvictorArgs) protections() map[string]bool {
	out := map[string]bool{}
	if len(a.DefaultDisabled) > 0 || len(a.ExtraEnabled) > 0 {
		for _, p := range defaultProtections {
			if !slices.Contains(a.DefaultDisabled, p) {
				out[p] = true
			}
		}
		for _, p := range a.ExtraEnabled {
			out[p] = true
		}
		return out
	}
	out[PodsWithLocalStorage] = !a.EvictLocalStoragePods
	out[DaemonSetPods] = !a.EvictDaemonSetPods
	out[SystemCriticalPods] = !a.EvictSystemCriticalPods
	out[FailedBarePods] = !a.EvictFailedBarePods
	out[PodsWithPVC] = a.IgnorePvcPods
	out[PodsWithoutPDB] = a.IgnorePodsWithoutPDB
	return out
}

// evictor is one profile's DefaultEvictor: Filter (may this pod be
// evicted at all) and PreEvictionFilter (nodeFit, just before evicting).
type evictor struct {
	args    EvictorArgs
	protect map[string]bool
	// the protections filter reads for every pod, looked up once
	protectCritical, protectFailedBare, protectDaemonSets, protectWithoutPDB bool
	threshold                                                                *int32 // priority at or above which pods are protected; nil without priorityThreshold
	v                                                                        *view
	pdbSelector                                                              []api.Selector
}

func newEvictor(args EvictorArgs, v *view) (*evictor, error) {
	e := &evictor{args: args, protect: args.protections(), v: v}
	e.protectCritical, e.protectFailedBare = e.protect[SystemCriticalPods], e.protect[FailedBarePods]
	e.protectDaemonSets, e.protectWithoutPDB = e.protect[DaemonSetPods], e.protect[PodsWithoutPDB]
	// applySystemCriticalPodsProtection (defaultevictor.go:247) resolves
	// the threshold once, a value or a class's value, and adds its check
	// only when one is given.
	if t := args.PriorityThreshold; t != nil {
		switch {
		case t.Value != nil:
			e.threshold = t.Value
		case t.Name != "":
			pc := v.classes[t.Name]
			if pc == nil {
				return nil, fmt.Errorf("DefaultEvictor priorityThreshold: priority class %q not found", t.Name)
			}
			e.threshold = &pc.Value
		}
	}
	if e.protect[PodsWithoutPDB] {
		for _, b := range v.pdbs {
			sel, err := api.CompileSelector(b.Spec.Selector)
			if err != nil || b.Spec.Selector == nil {
				sel = api.Nothing()
			}
			e.pdbSelector = append(e.pdbSelector, sel)
		}
	}
	return e, nil
}

// filter is DefaultEvictor.Filter (defaultevictor.go): "" when the pod
// may be evicted, else every check it fails joined with "; ".
func (e *evictor) filter(p *api.Pod) string {
	if _, ok := p.Annotations[AnnotationEvict]; ok {
		return ""
	}
	if _, ok := p.Annotations[AnnotationPreferNoEvict]; ok && e.args.NoEvictionPolicy == NoEvictionPolicyMandatory {
		return "pod has the prefer-no-eviction annotation and noEvictionPolicy is Mandatory"
	}
	var why []string
	if _, ok := p.Annotations[annotationMirror]; ok {
		why = append(why, "pod is a mirror pod")
	}
	if src, ok := p.Annotations[annotationConfigSource]; ok && src != "api" {
		why = append(why, "pod is a static pod")
	}
	if e.v.terminating(p) {
		why = append(why, "pod is terminating")
	}
	if e.protectCritical {
		if p.Spec.Priority != nil && *p.Spec.Priority >= api.SystemCriticalPriority {
			why = append(why, "pod has system critical priority and is protected against eviction")
		}
		if e.threshold != nil && p.Spec.Priority != nil && *p.Spec.Priority >= *e.threshold {
			why = append(why, "pod has higher priority than specified priority class threshold")
		}
	}
	owners := len(p.OwnerReferences)
	if e.protectFailedBare {
		if owners == 0 {
			why = append(why, "pod does not have any ownerRefs")
		}
	} else if owners == 0 && p.Status.Phase != api.PodFailed {
		why = append(why, "pod does not have any ownerRefs and is not in failed phase")
	}
	// PodsWithLocalStorage, PodsWithPVC, PodsWithResourceClaims: podlab
	// pods have no volumes or claims, so these protections never apply.
	if e.protectDaemonSets {
		for _, r := range p.OwnerReferences {
			if r.Kind == "DaemonSet" {
				why = append(why, "daemonset pods are protected against eviction")
				break
			}
		}
	}
	if e.protectWithoutPDB && !e.coveredByPDB(p) {
		why = append(why, "pod does not have a PodDisruptionBudget and is protected against eviction")
	}
	if s := e.args.LabelSelector; s != nil && !s.Empty() && !s.Matches(p.Labels) {
		why = append(why, "pod labels do not match the labelSelector filter in the policy parameter")
	}
	if e.args.MinReplicas > 1 && owners == 1 {
		if n := e.v.ownerCount(p.OwnerReferences[0].UID); uint(n) < e.args.MinReplicas {
			why = append(why, fmt.Sprintf("owner has %d replicas which is less than minReplicas of %d", n, e.args.MinReplicas))
		}
	}
	if m := e.args.MinPodAge; m != nil {
		if p.Status.StartTime == nil || e.v.now.Sub(*p.Status.StartTime) < *m {
			why = append(why, fmt.Sprintf("pod age is not older than MinPodAge: %s", *m))
		}
	}
	return strings.Join(why, "; ")
}

func (e *evictor) coveredByPDB(p *api.Pod) bool {
	for i, b := range e.v.pdbs {
		if disruption.Selects(b, e.pdbSelector[i], p) {
			return true
		}
	}
	return false
}

// preEvictionFilter is DefaultEvictor.PreEvictionFilter: with nodeFit,
// the pod must fit some other ready node (matching the evictor's
// nodeSelector).
func (e *evictor) preEvictionFilter(p *api.Pod) string {
	if !e.args.NodeFit {
		return ""
	}
	nodes := e.v.nodes
	if s := e.args.NodeSelector; s != nil {
		nodes = nil
		for _, n := range e.v.nodes {
			if s.Matches(n.Labels) {
				nodes = append(nodes, n)
			}
		}
	}
	if !e.v.fitsAnyOtherNode(p, nodes) {
		return "pod does not fit on any other node because of nodeSelector(s), Taint(s), or nodes marked as unschedulable"
	}
	return ""
}

// validate is the podProtections part of ValidateDefaultEvictorArgs
// (defaultevictor/validation.go); priorityThreshold and noEvictionPolicy
// are checked where the policy is decoded, with positions.
func (a *EvictorArgs) validate() []string {
	var errs []string
	deprecated := a.EvictLocalStoragePods || a.EvictDaemonSetPods || a.EvictSystemCriticalPods || a.IgnorePvcPods || a.EvictFailedBarePods || a.IgnorePodsWithoutPDB
	if deprecated && (len(a.ExtraEnabled) > 0 || len(a.DefaultDisabled) > 0) {
		errs = append(errs, "cannot use Deprecated fields alongside PodProtections.ExtraEnabled or PodProtections.DefaultDisabled")
	}
	extra := []string{PodsWithPVC, PodsWithoutPDB, PodsWithResourceClaims}
	for _, p := range a.ExtraEnabled {
		if !slices.Contains(extra, p) {
			errs = append(errs, fmt.Sprintf("invalid pod protection policy in ExtraEnabled: %q. Valid options are: %v", p, extra))
		}
	}
	for _, p := range a.DefaultDisabled {
		if !slices.Contains(defaultProtections, p) {
			errs = append(errs, fmt.Sprintf("invalid pod protection policy in DefaultDisabled: %q. Valid options are: %v", p, defaultProtections))
		}
	}
	if hasDuplicates(a.DefaultDisabled) {
		errs = append(errs, "PodProtections.DefaultDisabled contains duplicate entries")
	}
	if hasDuplicates(a.ExtraEnabled) {
		errs = append(errs, "PodProtections.ExtraEnabled contains duplicate entries")
	}
	return errs
}

func hasDuplicates(list []string) bool {
	seen := map[string]bool{}
	for _, v := range list {
		if seen[v] {
			return true
		}
		seen[v] = true
	}
	return false
}
