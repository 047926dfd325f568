package controllers

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	"podlab.dev/podlab/engine/api"
)

const daemonSetSource = "daemonset-controller"

// LabelPodTemplateGeneration is the DaemonSet's (deprecated, still set)
// pod-template-generation label.
const LabelPodTemplateGeneration = "pod-template-generation"

// AddDaemonSet adds a DaemonSet with apps/v1 defaulting (RollingUpdate,
// maxUnavailable 1, maxSurge 0).
func (m *Manager) AddDaemonSet(obj *api.DaemonSet) (*DaemonSet, error) {
	if _, ok := m.daemonSets[key(obj.Namespace, obj.Name)]; ok {
		return nil, fmt.Errorf("daemonset %s already exists", obj.Key())
	}
	ds := &DaemonSet{DaemonSet: *obj}
	m.initMeta(&ds.ObjectMeta)
	defaultDaemonSet(&ds.Spec)
	if err := validateStrategy("spec.updateStrategy.type", ds.Spec.UpdateStrategy.Type, "RollingUpdate", api.OnDeleteStrategyType); err != nil {
		return nil, fmt.Errorf("daemonset %s: %w", ds.Key(), err)
	}
	sel, err := compileWorkloadSelector(ds.Spec.Selector, ds.Spec.Template.Labels)
	if err != nil {
		return nil, fmt.Errorf("daemonset %s: %w", ds.Key(), err)
	}
	ds.selector = sel
	if m.started {
		ds.CreationTimestamp = m.now
	}
	m.daemonSets[ds.Key()] = ds
	m.known[ds.UID] = true
	m.workloadsChanged()
	return ds, nil
}

// defaultDaemonSet is SetDefaults_DaemonSet (apps/v1).
func defaultDaemonSet(spec *api.DaemonSetSpec) {
	us := &spec.UpdateStrategy
	if us.Type == "" {
		us.Type = "RollingUpdate"
	}
	if us.Type == "RollingUpdate" {
		if us.RollingUpdate == nil {
			us.RollingUpdate = &api.RollingUpdateDaemonSet{}
		}
		if us.RollingUpdate.MaxUnavailable == nil {
			us.RollingUpdate.MaxUnavailable = &api.IntOrString{IntVal: 1}
		}
		if us.RollingUpdate.MaxSurge == nil {
			us.RollingUpdate.MaxSurge = &api.IntOrString{IntVal: 0}
		}
	}
}

// DaemonSet returns the DaemonSet namespace/name, or nil.
func (m *Manager) DaemonSet(namespace, name string) *DaemonSet {
	return m.daemonSets[key(namespace, name)]
}

// DaemonSets returns every DaemonSet sorted by namespace/name.
func (m *Manager) DaemonSets() []*DaemonSet {
	out := make([]*DaemonSet, 0, len(m.daemonSets))
	for _, k := range sortedKeys(m.daemonSets) {
		out = append(out, m.daemonSets[k])
	}
	return out
}

// UpdateDaemonSet edits a DaemonSet's spec (a template change rolls it).
func (m *Manager) UpdateDaemonSet(namespace, name string, edit func(*api.DaemonSetSpec)) error {
	ds := m.DaemonSet(namespace, name)
	if ds == nil {
		return fmt.Errorf("daemonset %q not found", key(namespace, name))
	}
	spec := ds.Spec
	spec.Template = copyTemplate(&ds.Spec.Template)
	edit(&spec)
	defaultDaemonSet(&spec)
	if err := validateStrategy("spec.updateStrategy.type", spec.UpdateStrategy.Type, "RollingUpdate", api.OnDeleteStrategyType); err != nil {
		return fmt.Errorf("daemonset %s: %w", ds.Key(), err)
	}
	sel, err := compileWorkloadSelector(spec.Selector, spec.Template.Labels)
	if err != nil {
		return fmt.Errorf("daemonset %s: %w", ds.Key(), err)
	}
	if sel.String() != ds.selector.String() {
		// apps/v1 validation: the selector of an existing workload is immutable.
		return fmt.Errorf("daemonset %s: spec.selector: Invalid value: %q: field is immutable", ds.Key(), sel.String())
	}
	if specEqual(ds.Spec, spec) {
		return nil // the API server keeps the generation when nothing changed
	}
	ds.Spec, ds.selector = spec, sel
	ds.Generation++
	m.changed = true
	return nil
}

// DaemonPodTolerations is daemon/util AddOrUpdateDaemonPodTolerations: the
// tolerations every DaemonSet pod gets (not-ready and unreachable
// NoExecute without tolerationSeconds; disk/memory/pid pressure and
// unschedulable NoSchedule; network-unavailable NoSchedule for hostNetwork
// pods), replacing any the template has for the same key and effect.
func DaemonPodTolerations(spec *api.PodSpec) {
	add := func(k, effect string) {
		t := api.Toleration{Key: k, Operator: api.TolerationOpExists, Effect: effect}
		for i := range spec.Tolerations {
			if spec.Tolerations[i].Key == k && spec.Tolerations[i].Effect == effect {
				spec.Tolerations[i] = t
				return
			}
		}
		spec.Tolerations = append(spec.Tolerations, t)
	}
	add(api.TaintNodeNotReady, api.TaintEffectNoExecute)
	add(api.TaintNodeUnreachable, api.TaintEffectNoExecute)
	add(api.TaintNodeDiskPressure, api.TaintEffectNoSchedule)
	add(api.TaintNodeMemoryPressure, api.TaintEffectNoSchedule)
	add(api.TaintNodePIDPressure, api.TaintEffectNoSchedule)
	add(api.TaintNodeUnschedulable, api.TaintEffectNoSchedule)
	if spec.HostNetwork {
		add(api.TaintNodeNetworkUnavailable, api.TaintEffectNoSchedule)
	}
}

// daemonPodOf is the pod nodeShouldRun judges: the template with
// the daemon tolerations. The loops over every node build it once (a
// DaemonSet syncs on every node added: one per node of a new zone).
func daemonPodOf(ds *DaemonSet) *api.Pod {
	pod := &api.Pod{Spec: ds.Spec.Template.Spec}
	pod.Spec.Tolerations = append([]api.Toleration(nil), pod.Spec.Tolerations...)
	DaemonPodTolerations(&pod.Spec)
	return pod
}

// nodeShouldRun is NodeShouldRunDaemonPod for the pod of daemonPodOf:
// shouldRun when the node fits nodeName, node affinity/selector and (with
// the daemon tolerations) its NoSchedule/NoExecute taints;
// shouldContinueRunning when only NoSchedule taints are in the way.
func nodeShouldRun(node *api.Node, pod *api.Pod) (shouldRun, shouldContinueRunning bool) {
	if pod.Spec.NodeName != "" && pod.Spec.NodeName != node.Name {
		return false, false
	}
	if !api.PodMatchesNodeSelectorAndAffinityTerms(pod, node) {
		return false, false
	}
	if _, bad := api.FindUntoleratedTaint(node.Spec.Taints, pod.Spec.Tolerations, func(t *api.Taint) bool {
		return t.Effect == api.TaintEffectNoExecute || t.Effect == api.TaintEffectNoSchedule
	}); bad {
		_, noExec := api.FindUntoleratedTaint(node.Spec.Taints, pod.Spec.Tolerations, func(t *api.Taint) bool {
			return t.Effect == api.TaintEffectNoExecute
		})
		return false, !noExec
	}
	return true, true
}

// daemonPodTargetNode is util.GetTargetNodeName: spec.nodeName, or the
// metadata.name the pod's node affinity pins it to.
func daemonPodTargetNode(p *api.Pod) string {
	if p.Spec.NodeName != "" {
		return p.Spec.NodeName
	}
	if a := p.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		for _, t := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
			for _, f := range t.MatchFields {
				if f.Key == "metadata.name" && f.Operator == api.NodeSelectorOpIn && len(f.Values) == 1 {
					return f.Values[0]
				}
			}
		}
	}
	return ""
}

// pinToNode is ReplaceDaemonSetPodNodeNameNodeAffinity: the pod's required
// node affinity becomes "metadata.name In [node]", so the normal scheduler
// places it (and its other filters still apply).
func pinToNode(spec *api.PodSpec, node string) {
	term := api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{node}}}}
	if spec.Affinity == nil {
		spec.Affinity = &api.Affinity{}
	}
	if spec.Affinity.NodeAffinity == nil {
		spec.Affinity.NodeAffinity = &api.NodeAffinity{}
	}
	spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{term}}
}

// syncDaemonSet is DaemonSetsController.syncDaemonSet: manage (one pod per
// node that should run one, none elsewhere) and then rollingUpdate.
func (m *Manager) syncDaemonSet(ds *DaemonSet) {
	pods := m.claimPods(KindDaemonSet, &ds.ObjectMeta, ds.selector, m.claimCandidates(ds.Namespace, ds.UID), nil)
	hash := ComputeHash(&ds.Spec.Template, nil)
	// sized up front: a sync over thousands of nodes otherwise spends
	// much of its time growing these maps
	byNode := make(map[string][]*api.Pod, len(pods))
	for _, p := range pods {
		target := daemonPodTargetNode(p)
		byNode[target] = append(byNode[target], p)
	}
	nodes := append([]*api.Node(nil), m.cluster.Nodes()...)
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].Name < nodes[j].Name })
	defer m.daemonSetStatus(ds, nodes, byNode, hash)
	if ds.DeletionTimestamp != nil {
		return
	}
	var need []string
	var del []*api.Pod
	live := make(map[string]bool, len(nodes))
	dp := daemonPodOf(ds)
	for _, n := range nodes {
		live[n.Name] = true
		shouldRun, shouldContinue := nodeShouldRun(n, dp)
		onNode, exists := byNode[n.Name]
		switch {
		case shouldRun && !exists:
			need = append(need, n.Name)
		case shouldContinue:
			var running []*api.Pod
			for _, p := range onNode {
				switch {
				case p.DeletionTimestamp != nil:
				case p.Status.Phase == api.PodFailed:
					// failedPodsBackoff (1s doubling to 15m, kube-controller-manager's
					// flowcontrol.NewBackOff, keyed by generation and node).
					bkey := strconv.FormatInt(ds.Generation, 10) + "/" + n.Name
					if at, in := ds.inBackoff(bkey, m.now); in {
						m.requeueAt(at)
						continue
					}
					ds.nextBackoff(bkey, m.now)
					m.record(KindDaemonSet, &ds.ObjectMeta, daemonSetSource, EventWarning, "FailedDaemonPod", "Found failed daemon pod %s/%s on node %s, will try to kill it", p.Namespace, p.Name, n.Name)
					del = append(del, p)
				case p.Status.Phase == api.PodSucceeded:
					m.record(KindDaemonSet, &ds.ObjectMeta, daemonSetSource, EventNormal, "SucceededDaemonPod", "Found succeeded daemon pod %s/%s on node %s, will try to delete it", p.Namespace, p.Name, n.Name)
					del = append(del, p)
				default:
					running = append(running, p)
				}
			}
			if !daemonAllowsSurge(ds) {
				if len(running) > 1 {
					sortDaemonPods(running)
					del = append(del, running[1:]...)
				}
				break
			}
			if len(running) <= 1 {
				if len(running) == 0 && shouldRun {
					need = append(need, n.Name)
				}
				break
			}
			// With surge: keep the oldest new and the oldest old pod; the old
			// one goes once it is not ready or the new one is available.
			sortDaemonPods(running)
			var oldestNew, oldestOld *api.Pod
			for _, p := range running {
				if p.Labels[LabelControllerRevision] == hash {
					if oldestNew == nil {
						oldestNew = p
						continue
					}
				} else if oldestOld == nil {
					oldestOld = p
					continue
				}
				del = append(del, p)
			}
			if oldestNew != nil && oldestOld != nil && (!isPodReady(oldestOld) || isPodAvailable(oldestNew, ds.Spec.MinReadySeconds, m.now)) {
				del = append(del, oldestOld)
			}
		case !shouldContinue && exists:
			for _, p := range onNode {
				if p.DeletionTimestamp == nil {
					del = append(del, p)
				}
			}
		}
	}
	// Pods bound to (or pinned at) nodes that no longer exist, by node
	// name (only those names are sorted).
	var gone []string
	for nodeName := range byNode {
		if !live[nodeName] {
			gone = append(gone, nodeName)
		}
	}
	sort.Strings(gone)
	for _, nodeName := range gone {
		for _, p := range byNode[nodeName] {
			if p.DeletionTimestamp == nil {
				del = append(del, p)
			}
		}
	}
	for _, nodeName := range need {
		m.createDaemonPod(ds, nodeName, hash)
	}
	for _, p := range del {
		m.deletePod(p, KindDaemonSet, &ds.ObjectMeta, daemonSetSource)
	}
	if len(need) == 0 && len(del) == 0 && ds.Spec.UpdateStrategy.Type == "RollingUpdate" {
		m.daemonSetRollingUpdate(ds, nodes, byNode, hash)
	}
}

const (
	failedPodsBackoffInitial = time.Second
	failedPodsBackoffMax     = 15 * time.Minute
)

// inBackoff is Backoff.IsInBackOffSinceUpdate; it also returns when the
// backoff ends.
func (ds *DaemonSet) inBackoff(key string, now api.Time) (api.Time, bool) {
	e := ds.failedBackoff[key]
	if e == nil || now.Sub(e.lastUpdate) > 2*failedPodsBackoffMax {
		return 0, false
	}
	end := e.lastUpdate.Add(e.delay)
	return end, now < end
}

// nextBackoff is Backoff.Next.
func (ds *DaemonSet) nextBackoff(key string, now api.Time) {
	if ds.failedBackoff == nil {
		ds.failedBackoff = map[string]*backoffEntry{}
	}
	e := ds.failedBackoff[key]
	if e == nil || now.Sub(e.lastUpdate) > 2*failedPodsBackoffMax {
		e = &backoffEntry{delay: failedPodsBackoffInitial}
		ds.failedBackoff[key] = e
	} else {
		e.delay = min(2*e.delay, failedPodsBackoffMax)
	}
	e.lastUpdate = now
}

// daemonAllowsSurge is util.AllowsSurge: a RollingUpdate with maxSurge > 0.
func daemonAllowsSurge(ds *DaemonSet) bool {
	ru := ds.Spec.UpdateStrategy.RollingUpdate
	if ds.Spec.UpdateStrategy.Type != "RollingUpdate" || ru == nil || ru.MaxSurge == nil {
		return false
	}
	v, err := scaledValue(ru.MaxSurge, 100, true)
	return err == nil && v > 0
}

// createDaemonPod is syncNodes' pod creation: the template with the
// revision labels and daemon tolerations, pinned to the node.
func (m *Manager) createDaemonPod(ds *DaemonSet, nodeName, hash string) {
	_, _ = m.createPodFromTemplate(&ds.Spec.Template, KindDaemonSet, &ds.ObjectMeta, daemonSetSource, "", func(p *api.Pod) {
		p.Labels[LabelControllerRevision] = hash
		p.Labels[LabelPodTemplateGeneration] = strconv.FormatInt(ds.Generation, 10)
		DaemonPodTolerations(&p.Spec)
		pinToNode(&p.Spec, nodeName)
	})
}

// sortDaemonPods is podByCreationTimestampAndPhase: bound pods first, then
// older first, then by name.
func sortDaemonPods(ps []*api.Pod) {
	sort.SliceStable(ps, func(i, j int) bool {
		if (ps[i].Spec.NodeName != "") != (ps[j].Spec.NodeName != "") {
			return ps[i].Spec.NodeName != ""
		}
		if ps[i].CreationTimestamp == ps[j].CreationTimestamp {
			return ps[i].Name < ps[j].Name
		}
		return ps[i].CreationTimestamp < ps[j].CreationTimestamp
	})
}

// findUpdatedPodsOnNode is update.go findUpdatedPodsOnNode: the node's
// non-deleted new and old pod; ok is false with more than one of either.
func findUpdatedPodsOnNode(pods []*api.Pod, hash string) (newPod, oldPod *api.Pod, ok bool) {
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		if p.Labels[LabelControllerRevision] == hash {
			if newPod != nil {
				return nil, nil, false
			}
			newPod = p
		} else {
			if oldPod != nil {
				return nil, nil, false
			}
			oldPod = p
		}
	}
	return newPod, oldPod, true
}

// daemonSetRollingUpdate is update.go rollingUpdate with
// updatedDesiredNodeCounts. maxSurge 0: old pods that are unavailable are
// replaced at once, available ones while fewer than maxUnavailable nodes
// are unavailable. maxSurge > 0: a new pod starts next to the old one on
// up to maxSurge nodes and the old one goes once the new one is
// available. Nodes are visited in name order (upstream: map order).
func (m *Manager) daemonSetRollingUpdate(ds *DaemonSet, nodes []*api.Node, byNode map[string][]*api.Pod, hash string) {
	shouldRun := make(map[string]bool, len(nodes))
	nodePods := make(map[string][]*api.Pod, max(len(byNode), len(nodes)))
	for k, v := range byNode {
		nodePods[k] = v
	}
	var desired int32
	dp := daemonPodOf(ds)
	for _, n := range nodes {
		if run, _ := nodeShouldRun(n, dp); run {
			shouldRun[n.Name] = true
			desired++
			if _, ok := nodePods[n.Name]; !ok {
				nodePods[n.Name] = nil
			}
		}
	}
	ru := ds.Spec.UpdateStrategy.RollingUpdate
	maxUnavailable, err1 := scaledValue(ru.MaxUnavailable, desired, true)
	maxSurge, err2 := scaledValue(valueOrZero(ru.MaxSurge), desired, true)
	if err1 != nil || err2 != nil {
		return
	}
	if desired > 0 && maxUnavailable == 0 && maxSurge == 0 {
		maxUnavailable = 1
	}
	minReady := ds.Spec.MinReadySeconds
	available := func(p *api.Pod) bool { return isPodAvailable(p, minReady, m.now) }
	names := sortedKeys(nodePods)
	var toDelete []*api.Pod
	var toCreate []string
	if maxSurge == 0 {
		var numUnavailable int32
		var replace, candidates []*api.Pod
		for _, nodeName := range names {
			newPod, oldPod, ok := findUpdatedPodsOnNode(nodePods[nodeName], hash)
			if !ok {
				numUnavailable++
				continue
			}
			switch {
			case oldPod == nil && newPod == nil, oldPod != nil && newPod != nil:
				numUnavailable++
			case newPod != nil:
				if !available(newPod) {
					numUnavailable++
				}
			default:
				switch {
				case !available(oldPod):
					replace = append(replace, oldPod)
					numUnavailable++
				case numUnavailable >= maxUnavailable:
				default:
					candidates = append(candidates, oldPod)
				}
			}
		}
		remaining := min(max(maxUnavailable-numUnavailable, 0), int32(len(candidates)))
		toDelete = append(replace, candidates[:remaining]...)
	} else {
		var candidateNodes []string
		var shouldNotRunPods []*api.Pod
		var numSurge, numAvailable int32
		for _, nodeName := range names {
			newPod, oldPod, ok := findUpdatedPodsOnNode(nodePods[nodeName], hash)
			if !ok {
				numSurge++
				continue
			}
			if oldPod != nil && available(oldPod) || oldPod == nil && newPod != nil && available(newPod) {
				numAvailable++
			}
			switch {
			case oldPod == nil:
			case newPod == nil:
				switch {
				case !available(oldPod):
					if !shouldRun[nodeName] {
						toDelete = append(toDelete, oldPod)
						continue
					}
					toCreate = append(toCreate, nodeName)
				default:
					if !shouldRun[nodeName] {
						shouldNotRunPods = append(shouldNotRunPods, oldPod)
						continue
					}
					if numSurge >= maxSurge {
						continue
					}
					candidateNodes = append(candidateNodes, nodeName)
				}
			default:
				if !available(newPod) {
					numSurge++
					continue
				}
				toDelete = append(toDelete, oldPod)
			}
		}
		if deletable := numAvailable - desired; deletable > 0 {
			toDelete = append(toDelete, shouldNotRunPods[:min(int(deletable), len(shouldNotRunPods))]...)
		}
		remainingSurge := min(max(maxSurge-numSurge, 0), int32(len(candidateNodes)))
		toCreate = append(toCreate, candidateNodes[:remainingSurge]...)
	}
	for _, nodeName := range toCreate {
		m.createDaemonPod(ds, nodeName, hash)
	}
	for _, p := range toDelete {
		m.deletePod(p, KindDaemonSet, &ds.ObjectMeta, daemonSetSource)
	}
}

// daemonSetStatus is updateDaemonSetStatus.
func (m *Manager) daemonSetStatus(ds *DaemonSet, nodes []*api.Node, byNode map[string][]*api.Pod, hash string) {
	st := DaemonSetStatus{ObservedGeneration: ds.Generation}
	dp := daemonPodOf(ds)
	for _, n := range nodes {
		shouldRun, _ := nodeShouldRun(n, dp)
		scheduled := false
		var pod *api.Pod
		for _, p := range byNode[n.Name] {
			if p.DeletionTimestamp == nil && p.Spec.NodeName == n.Name {
				scheduled, pod = true, p
			}
		}
		if shouldRun {
			st.DesiredNumberScheduled++
			if scheduled {
				st.CurrentNumberScheduled++
				if isPodReady(pod) {
					st.NumberReady++
					if isPodAvailable(pod, ds.Spec.MinReadySeconds, m.now) {
						st.NumberAvailable++
					}
				}
				if pod.Labels[LabelControllerRevision] == hash {
					st.UpdatedNumberScheduled++
				}
			}
		} else if scheduled {
			st.NumberMisscheduled++
		}
	}
	st.NumberUnavailable = st.DesiredNumberScheduled - st.NumberAvailable
	if st != ds.Status {
		ds.Status = st
		m.changed = true
	}
}
