package descheduler

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"podlab.dev/podlab/engine/api"
)

// The deschedule plugins: each looks at pods one by one and evicts those
// that violate a rule. Their pod filter is the evictor's Filter and
// PreEvictionFilter, the plugin's namespaces and label selector.

const (
	requiredAffinity  = "requiredDuringSchedulingIgnoredDuringExecution"
	preferredAffinity = "preferredDuringSchedulingIgnoredDuringExecution"
)

// podLifeTimeStates is validation.go's podLifeTimeAllowedStates: pod
// phases, pod status reasons, container waiting and terminated reasons.
var podLifeTimeStates = []string{"Running", "Pending", "Succeeded", "Failed", "Unknown",
	"NodeAffinity", "NodeLost", "Shutdown", "UnexpectedAdmissionError",
	"PodInitializing", "ContainerCreating", "ImagePullBackOff", "CrashLoopBackOff", "CreateContainerConfigError", "ErrImagePull", "CreateContainerError", "InvalidImageName",
	"OOMKilled", "Error", "Completed", "DeadlineExceeded", "Evicted", "ContainerCannotRun", "StartError"}

func (c *pluginCtx) descheduleFilter(ns *Namespaces, sel *api.Selector) func(*api.Pod) bool {
	f := c.filter(ns, sel)
	return func(p *api.Pod) bool { return f(p) && c.ev.preEvictionFilter(p) == "" }
}

// evictEach evicts the pods pick returns a reason for, node by node,
// skipping the rest of a node at its limit and stopping at the total.
func (c *pluginCtx) evictEach(pods func(node string) []*api.Pod, pick func(p *api.Pod, n *api.Node) string) error {
	for _, n := range c.v.nodes {
		for _, p := range pods(n.Name) {
			why := pick(p, n)
			if why == "" {
				continue
			}
			if err := c.evict(p, why); err != nil {
				if le, ok := err.(*limitError); ok {
					if le.kind == limitTotal {
						return err
					}
					if le.kind == limitNode {
						break
					}
				}
			}
		}
	}
	return nil
}

// nodeTaints is RemovePodsViolatingNodeTaints (node_taint.go): pods that
// do not tolerate a NoSchedule taint (and PreferNoSchedule with
// includePreferNoSchedule) of their node, minus excluded / only included
// taints ("key" or "key=value").
func nodeTaints(c *pluginCtx, args *NodeTaintsArgs) error {
	filter := c.descheduleFilter(args.Namespaces, args.LabelSelector)
	// node_taint.go's includeTaint/excludeTaint: an entry names the
	// key, or key=value for a taint with a value.
	match := func(list []string, t *api.Taint) bool {
		return slices.Contains(list, t.Key) || (t.Value != "" && slices.Contains(list, t.Key+"="+t.Value))
	}
	taintFilter := func(t *api.Taint) bool {
		if !(t.Effect == api.TaintEffectNoSchedule || (args.IncludePreferNoSchedule && t.Effect == api.TaintEffectPreferNoSchedule)) {
			return false
		}
		if args.IncludedTaints != nil {
			return match(args.IncludedTaints, t)
		}
		return !match(args.ExcludedTaints, t)
	}
	return c.evictEach(func(n string) []*api.Pod { return c.v.on[n] }, func(p *api.Pod, n *api.Node) string {
		if !filter(p) {
			return ""
		}
		if t, bad := api.FindUntoleratedTaint(n.Spec.Taints, p.Spec.Tolerations, taintFilter); bad {
			return fmt.Sprintf("pod does not tolerate taint %s of node %s", t.String(), n.Name)
		}
		return ""
	})
}

// nodeAffinity is RemovePodsViolatingNodeAffinity (node_affinity.go):
// requiredDuring…: a pod with a required node affinity whose node no
// longer matches its nodeSelector / required affinity while it fits
// some node; preferredDuring…: a pod with preferred terms that fits some
// node, where the best preferred weight over all nodes beats its node's.
// Pods with only a nodeSelector are not considered (PodHasNodeAffinity).
func nodeAffinity(c *pluginCtx, args *NodeAffinityArgs) error {
	filter := c.descheduleFilter(args.Namespaces, args.LabelSelector)
	for _, typ := range args.NodeAffinityType {
		var pick func(p *api.Pod, n *api.Node) string
		switch typ {
		case requiredAffinity:
			pick = func(p *api.Pod, n *api.Node) string {
				if !filter(p) || !hasNodeAffinity(p, typ) || !c.v.fitsAnyNode(p, c.v.nodes) || api.PodMatchesNodeSelectorAndAffinityTerms(p, n) {
					return ""
				}
				return fmt.Sprintf("node %s no longer matches the pod's %s node affinity, and another node does", n.Name, typ)
			}
		case preferredAffinity:
			pick = func(p *api.Pod, n *api.Node) string {
				if !filter(p) || !hasNodeAffinity(p, typ) || !c.v.fitsAnyNode(p, c.v.nodes) {
					return ""
				}
				// GetBestNodeWeightGivenPodPreferredAffinity: over all
				// nodes, fitting or not.
				here, best, bestNode := preferredWeight(p, n), int32(0), ""
				for _, o := range c.v.nodes {
					if w := preferredWeight(p, o); w > best {
						best, bestNode = w, o.Name
					}
				}
				if best <= here {
					return ""
				}
				return fmt.Sprintf("preferred node affinity weighs node %s at %d, node %s at %d", n.Name, here, bestNode, best)
			}
		default:
			continue
		}
		if err := c.evictEach(func(n string) []*api.Pod { return c.v.on[n] }, pick); err != nil {
			return err
		}
	}
	return nil
}

// hasNodeAffinity is utils.PodHasNodeAffinity.
func hasNodeAffinity(p *api.Pod, typ string) bool {
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil {
		return false
	}
	if typ == requiredAffinity {
		return a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil
	}
	return len(a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0
}

func preferredWeight(p *api.Pod, n *api.Node) int32 {
	var w int32
	for i := range p.Spec.Affinity.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
		t := &p.Spec.Affinity.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution[i]
		if api.MatchNodeSelectorTerm(n, &t.Preference) {
			w += t.Weight
		}
	}
	return w
}

// interPodAntiAffinity is RemovePodsViolatingInterPodAntiAffinity
// (pod_antiaffinity.go): node by node, lowest priority first, a pod
// whose required anti-affinity selects another listed pod in the same
// topology domain is evicted (and no longer counts for the others). The
// listed pods are the non-terminal pods on the pass's nodes that pass
// the plugin's namespaces and label selector (terminating ones count,
// as upstream's ListPodsOnNodes keeps them), minus the pass's evictions.
func interPodAntiAffinity(c *pluginCtx, args *InterPodAntiAffinityArgs) error {
	listed := func(p *api.Pod) bool {
		return args.Namespaces.allows(p.Namespace) && (args.LabelSelector == nil || args.LabelSelector.Empty() || args.LabelSelector.Matches(p.Labels))
	}
	gone := map[*api.Pod]bool{}
	for _, n := range c.v.nodes {
		var pods []*api.Pod
		for _, p := range c.v.on[n.Name] {
			if listed(p) {
				pods = append(pods, p)
			}
		}
		sortByPriorityLowToHigh(pods)
		for _, p := range pods {
			other := c.antiAffinityViolation(p, n, gone, listed)
			if other == "" || c.ev.filter(p) != "" || c.ev.preEvictionFilter(p) != "" {
				continue
			}
			err := c.evict(p, fmt.Sprintf("pod's required anti-affinity selects %s in the same topology domain", other))
			if err == nil {
				gone[p] = true
				continue
			}
			if le, ok := err.(*limitError); ok {
				if le.kind == limitTotal {
					return err
				}
				if le.kind == limitNode {
					break
				}
			}
		}
	}
	return nil
}

// antiAffinityViolation is utils.CheckPodsWithAntiAffinityExist
// (pkg/utils/predicates.go:298): the first other listed pod a required
// anti-affinity term of p selects on p's own node or on a node sharing
// the term's topology value with it (hasSameLabelValue).
func (c *pluginCtx) antiAffinityViolation(p *api.Pod, n *api.Node, gone map[*api.Pod]bool, listed func(*api.Pod) bool) string {
	a := p.Spec.Affinity
	if a == nil || a.PodAntiAffinity == nil {
		return ""
	}
	for i := range a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
		term := &a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[i]
		sel, err := api.CompileSelector(term.LabelSelector)
		if err != nil {
			return ""
		}
		val, hasKey := n.Labels[term.TopologyKey]
		for _, o := range c.v.nodes {
			if o != n {
				if ov, ok := o.Labels[term.TopologyKey]; !hasKey || !ok || ov != val {
					continue
				}
			}
			for _, q := range c.v.on[o.Name] {
				if q.Name == p.Name || gone[q] || c.v.evicted[q] || !listed(q) {
					continue
				}
				if termNamespaces(p, term, q.Namespace) && sel.Matches(q.Labels) {
					return "pod/" + q.Namespace + "/" + q.Name
				}
			}
		}
	}
	return ""
}

// tooManyRestarts is RemovePodsHavingTooManyRestarts
// (toomanyrestarts.go): restarts summed over containers (and init
// containers with includingInitContainers) at or above the threshold;
// with states, the pod's phase or a container's waiting reason (init
// containers' too with includingInitContainers) must be listed. Each
// node's pods are evicted most restarts first.
func tooManyRestarts(c *pluginCtx, args *TooManyRestartsArgs) error {
	filter := c.descheduleFilter(args.Namespaces, args.LabelSelector)
	restarts := func(p *api.Pod) int32 {
		var n int32
		for _, s := range p.Status.ContainerStatuses {
			n += s.RestartCount
		}
		if args.IncludingInitContainers {
			for _, s := range p.Status.InitContainerStatuses {
				n += s.RestartCount
			}
		}
		return n
	}
	inStates := func(p *api.Pod) bool {
		if len(args.States) == 0 || slices.Contains(args.States, p.Status.Phase) || waitingIn(p.Status.ContainerStatuses, args.States) {
			return true
		}
		return args.IncludingInitContainers && waitingIn(p.Status.InitContainerStatuses, args.States)
	}
	pods := func(node string) []*api.Pod {
		var out []*api.Pod
		for _, p := range c.v.allOn[node] {
			if filter(p) && restarts(p) >= args.PodRestartThreshold && inStates(p) {
				out = append(out, p)
			}
		}
		// Upstream sorts with sort.Slice (unstable); podlab keeps name
		// order among equal counts.
		sort.SliceStable(out, func(i, j int) bool { return restarts(out[i]) > restarts(out[j]) })
		return out
	}
	return c.evictEach(pods, func(p *api.Pod, _ *api.Node) string {
		return fmt.Sprintf("containers restarted %d times, at or above podRestartThreshold %d", restarts(p), args.PodRestartThreshold)
	})
}

// waitingIn is podutil.HasMatchingContainerWaitingState.
func waitingIn(statuses []api.ContainerStatus, states []string) bool {
	for _, s := range statuses {
		if w := s.State.Waiting; w != nil && slices.Contains(states, w.Reason) {
			return true
		}
	}
	return false
}

// terminatedIn is podutil.HasMatchingContainerTerminatedState.
func terminatedIn(statuses []api.ContainerStatus, states []string) bool {
	for _, s := range statuses {
		if t := s.State.Terminated; t != nil && slices.Contains(states, t.Reason) {
			return true
		}
	}
	return false
}

// podLifeTime is PodLifeTime (pod_lifetime.go): pods older than
// maxPodLifeTimeSeconds (whole seconds, strictly more) and, with states,
// whose phase, status.reason or a container's waiting/terminated reason
// is listed (init containers' too with includingInitContainers); oldest
// first across nodes.
func podLifeTime(c *pluginCtx, args *PodLifeTimeArgs) error {
	filter := c.descheduleFilter(args.Namespaces, args.LabelSelector)
	old := func(p *api.Pod) bool {
		if args.MaxPodLifeTimeSeconds == nil {
			return true
		}
		age := c.v.now.Sub(p.CreationTimestamp)
		return age >= 0 && uint(age/time.Second) > *args.MaxPodLifeTimeSeconds
	}
	inStates := func(p *api.Pod) bool {
		st, s := args.States, &p.Status
		if len(st) == 0 || slices.Contains(st, s.Phase) || slices.Contains(st, s.Reason) || waitingIn(s.ContainerStatuses, st) || terminatedIn(s.ContainerStatuses, st) {
			return true
		}
		return args.IncludingInitContainers && (waitingIn(s.InitContainerStatuses, st) || terminatedIn(s.InitContainerStatuses, st))
	}
	owners := func(p *api.Pod) bool {
		k := args.OwnerKinds
		switch {
		case k == nil:
			return true
		case len(k.Include) > 0:
			for _, r := range p.OwnerReferences {
				if slices.Contains(k.Include, r.Kind) {
					return true
				}
			}
			return false
		case len(k.Exclude) > 0:
			return !excludedOwnerKind(p.OwnerReferences, k.Exclude)
		}
		return true
	}
	conditions := func(p *api.Pod) bool {
		return len(args.Conditions) == 0 || c.matchesAnyCondition(p, args.Conditions)
	}
	exitCodes := func(p *api.Pod) bool {
		if len(args.ExitCodes) == 0 {
			return true
		}
		if _, ok := failedExitCode(p.Status.ContainerStatuses, args.ExitCodes); ok {
			return true
		}
		_, ok := failedExitCode(p.Status.InitContainerStatuses, args.ExitCodes)
		return ok && args.IncludingInitContainers
	}
	var pods []*api.Pod
	for _, n := range c.v.nodes {
		for _, p := range c.v.allOn[n.Name] {
			if filter(p) && old(p) && inStates(p) && owners(p) && conditions(p) && exitCodes(p) {
				pods = append(pods, p)
			}
		}
	}
	sort.SliceStable(pods, func(i, j int) bool { return pods[i].CreationTimestamp < pods[j].CreationTimestamp })
	limited := map[string]bool{}
	for _, p := range pods {
		if limited[p.Spec.NodeName] {
			continue
		}
		why := fmt.Sprintf("pod is %s old", c.v.now.Sub(p.CreationTimestamp))
		if m := args.MaxPodLifeTimeSeconds; m != nil {
			why += fmt.Sprintf(", more than maxPodLifeTimeSeconds %d", *m)
		}
		if len(args.States) > 0 {
			why += fmt.Sprintf(", in one of the states %v", args.States)
		}
		err := c.evict(p, why)
		if le, ok := err.(*limitError); ok {
			if le.kind == limitTotal {
				return err
			}
			if le.kind == limitNode {
				limited[p.Spec.NodeName] = true
			}
		}
	}
	return nil
}

// matchesAnyCondition is matchesAnyPodConditionFilter (pod_lifetime.go):
// some condition matches a filter's set fields and, with
// minTimeSinceLastTransitionSeconds, last changed at least that long ago.
func (c *pluginCtx) matchesAnyCondition(p *api.Pod, filters []PodConditionFilter) bool {
	for _, f := range filters {
		for _, cond := range p.Status.Conditions {
			if (f.Type != "" && cond.Type != f.Type) || (f.Status != "" && cond.Status != f.Status) || (f.Reason != "" && cond.Reason != f.Reason) {
				continue
			}
			// Upstream skips a zero (unset) transition time; every podlab
			// condition carries its virtual time, zero being the start.
			if m := f.MinTimeSinceLastTransitionSeconds; m != nil {
				idle := c.v.now.Sub(cond.LastTransitionTime)
				if idle < 0 || uint(idle/time.Second) < *m {
					continue
				}
			}
			return true
		}
	}
	return false
}

// failedPods is RemoveFailedPods (failedpods.go): pods in phase Failed,
// not owned by an excluded kind, older (by creation time) than
// minPodLifetimeSeconds, matching one of the reasons (the containers'
// waiting/terminated reasons, init containers' with
// includingInitContainers, and the pod's status.reason) and one of the
// exit codes (validateCanEvict).
func failedPods(c *pluginCtx, args *FailedPodsArgs) error {
	filter := c.descheduleFilter(args.Namespaces, args.LabelSelector)
	return c.evictEach(func(n string) []*api.Pod { return c.v.allOn[n] }, func(p *api.Pod, _ *api.Node) string {
		if p.Status.Phase != api.PodFailed || !filter(p) || excludedOwnerKind(p.OwnerReferences, args.ExcludeOwnerKinds) {
			return ""
		}
		if m := args.MinPodLifetimeSeconds; m != nil && c.v.now.Sub(p.CreationTimestamp) < time.Duration(*m)*time.Second {
			return ""
		}
		statuses := p.Status.ContainerStatuses
		if args.IncludingInitContainers {
			statuses = append(append([]api.ContainerStatus(nil), statuses...), p.Status.InitContainerStatuses...)
		}
		why := "pod is in phase Failed"
		if len(args.Reasons) > 0 {
			reasons := failedReasons(statuses)
			if p.Status.Reason != "" {
				reasons = append(reasons, p.Status.Reason)
			}
			r := firstShared(args.Reasons, reasons)
			if r == "" {
				return ""
			}
			why += " (reason " + r + ")"
		}
		if len(args.ExitCodes) > 0 {
			code, ok := failedExitCode(statuses, args.ExitCodes)
			if !ok {
				return ""
			}
			why += fmt.Sprintf(" (exit code %d)", code)
		}
		return why
	})
}

// failedReasons is getFailedContainerStatusReasons: every waiting and
// terminated reason.
func failedReasons(statuses []api.ContainerStatus) []string {
	var out []string
	for _, s := range statuses {
		if w := s.State.Waiting; w != nil && w.Reason != "" {
			out = append(out, w.Reason)
		}
		if t := s.State.Terminated; t != nil && t.Reason != "" {
			out = append(out, t.Reason)
		}
	}
	return out
}

func firstShared(want, have []string) string {
	for _, h := range have {
		if slices.Contains(want, h) {
			return h
		}
	}
	return ""
}

// failedExitCode is getFailedContainerStatusExitCodes matched against
// exitCodes: the first terminated container's code that is listed.
func failedExitCode(statuses []api.ContainerStatus, codes []int32) (int32, bool) {
	for _, s := range statuses {
		if t := s.State.Terminated; t != nil {
			for _, c := range codes {
				if c == t.ExitCode {
					return c, true
				}
			}
		}
	}
	return 0, false
}
