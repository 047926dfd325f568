package autoscaler

import (
	"fmt"
	"strings"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// Skipped-group reasons (core/scaleup/orchestrator/skippedreasons.go) and
// the message for a full cluster (processors/status ReasonsMessage).
const (
	MaxLimitReachedReason   = "max node group size reached"
	maxTotalNodesMessage    = "max total nodes in cluster reached"
	maxNodesPerScaleUp      = 1000 // --max-nodes-per-scaleup
	templateNodePrefix      = "template-node-for-"
	expendableNote          = "expendable: priority below --expendable-pods-priority-cutoff"
	tooYoungNote            = "younger than --new-pod-scale-up-delay"
	preemptingNote          = "waiting for lower priority pods' preemption on "
	resultNoUnschedulable   = "no unschedulable pods"
	resultNotNeeded         = "every unschedulable pod fits an existing or upcoming node"
	resultNoOptions         = "no expansion options"
	resultSuccessful        = "scale-up"
	resultMaxTotal          = "max total nodes in cluster reached"
	resultExpanderFilterOut = "the expander filtered out every option"
)

// processPodList is the pod list processors StaticAutoscaler runs before
// the orchestrator (core/podlistprocessor): expendable pods
// (filter_out_expendable), pods nominated to an existing node (placed
// there in sim, as filter_out_expendable does) and pods younger than
// --new-pod-scale-up-delay are left out, and the pods that fit an existing or upcoming node
// (filter_out_schedulable) are placed there in sim — the scale-down
// simulation then counts them, as upstream's snapshot does. It returns
// the pods left for the orchestrator.
func (a *Autoscaler) processPodList(sim *simulation, pending []*api.Pod, now api.Time, su *ScaleUpStatus) []*api.Pod {
	var pods []*api.Pod
	for _, p := range pending {
		switch {
		case p.PriorityValue() < *a.opts.ExpendablePodsPriorityCutoff:
			su.Ignored = append(su.Ignored, PodNote{p.Key(), expendableNote})
		case p.Status.NominatedNodeName != "" && sim.snap.Get(p.Status.NominatedNodeName) != nil:
			// waiting for lower priority pods' preemption on an existing
			// node (FilterOutExpendableAndSplit): no scale-up for it; it is
			// force-added to the snapshot there (filter_out_expendable's
			// addPreemptingPodsToSnapshot, no predicates)
			sim.addPod(p, p.Status.NominatedNodeName)
			su.Ignored = append(su.Ignored, PodNote{p.Key(), preemptingNote + p.Status.NominatedNodeName})
		case a.opts.NewPodScaleUpDelay > 0 && now.Sub(p.CreationTimestamp) < a.opts.NewPodScaleUpDelay:
			su.Ignored = append(su.Ignored, PodNote{p.Key(), tooYoungNote})
		default:
			pods = append(pods, p)
		}
	}
	if len(pods) == 0 {
		su.Result = resultNoUnschedulable
		return nil
	}
	var remaining []*api.Pod
	all := func(*framework.NodeInfo) bool { return true }
	for _, p := range pods {
		if node, ok := sim.fitsAny(p, all); ok {
			sim.addPod(p, node)
			su.FitExisting = append(su.FitExisting, p.Key()+" → "+node)
			continue
		}
		remaining = append(remaining, p)
	}
	if len(remaining) == 0 {
		su.Result = resultNotNeeded
	}
	return remaining
}

// scaleUp is ScaleUpOrchestrator.ScaleUp for the pods the pod list
// processors left: it returns whether nodes were requested.
func (a *Autoscaler) scaleUp(e *engine.Engine, sim *simulation, remaining []*api.Pod, nodes []*api.Node, now api.Time, st *Status) bool {
	su := &st.ScaleUp
	su.Evaluated = true
	groups := buildPodGroups(remaining)
	registered, coming, deleting := a.sizes(nodes)
	if a.opts.MaxNodesTotal > 0 && len(nodes)+len(a.upcoming) >= a.opts.MaxNodesTotal {
		su.Result = resultMaxTotal
		a.notTriggered(e, groups, nil, nil, maxTotalNodesMessage, su)
		return false
	}

	skipped := map[string]string{}
	var valid []*NodeGroup
	for i := range a.groups {
		g := &a.groups[i]
		if a.targetSize(g.Name, registered, coming, deleting) >= g.Max {
			skipped[g.Name] = MaxLimitReachedReason
			continue
		}
		valid = append(valid, g)
	}

	// SchedulablePodGroups: each equivalence group's exemplar on each
	// valid group's template node.
	schedulableOf := map[string][]*podGroup{}
	for _, g := range valid {
		name := templateNodePrefix + g.Name
		sim.fork()
		sim.addNode(g.Template, name)
		for _, pg := range groups {
			if s := sim.check(pg.Pods[0], name); s.IsSuccess() {
				pg.Schedulable = append(pg.Schedulable, g.Name)
				schedulableOf[g.Name] = append(schedulableOf[g.Name], pg)
			} else {
				pg.Rejected[g.Name] = statusReasons(s)
			}
		}
		sim.revert()
	}

	templates := map[string]*api.Node{}
	for _, g := range a.groups {
		templates[g.Name] = g.Template
	}
	var options []Option
	for _, g := range valid {
		if len(schedulableOf[g.Name]) == 0 {
			continue
		}
		var similar []string
		if a.opts.BalanceSimilarNodeGroups {
			similar = a.similarGroups(g, valid, schedulableOf)
		}
		limit := g.Max - a.targetSize(g.Name, registered, coming, deleting)
		for _, s := range similar {
			sg := a.group(s)
			limit += sg.Max - a.targetSize(s, registered, coming, deleting)
		}
		limit = min(limit, maxNodesPerScaleUp)
		if a.opts.MaxNodesTotal > 0 {
			limit = min(limit, a.opts.MaxNodesTotal-len(nodes)-len(a.upcoming))
		}
		count, placed := sim.estimate(schedulableOf[g.Name], g.Template, limit)
		if count == 0 || len(placed) == 0 {
			continue
		}
		options = append(options, Option{Group: g.Name, NodeCount: count, Pods: placed, Similar: similar})
	}
	su.Options = options
	if len(options) == 0 {
		su.Result = resultNoOptions
		a.notTriggered(e, groups, skipped, a.groups, "", su)
		return false
	}

	choice := chooseOption(a.opts.Expander, a.opts.Priorities, options, templates, a.rng)
	su.Expander = choice.Steps
	if choice.Chosen == nil || choice.Chosen.NodeCount <= 0 {
		su.Result = resultExpanderFilterOut
		return false
	}
	best := *choice.Chosen
	newNodes := best.NodeCount
	if a.opts.MaxNodesTotal > 0 && newNodes+len(nodes)+len(a.upcoming) > a.opts.MaxNodesTotal {
		newNodes = a.opts.MaxNodesTotal - len(nodes) - len(a.upcoming)
	}
	targets := []ScaleUpInfo{a.scaleUpInfo(best.Group, registered, coming, deleting)}
	for _, s := range best.Similar {
		targets = append(targets, a.scaleUpInfo(s, registered, coming, deleting))
	}
	infos := balanceScaleUp(targets, newNodes)
	if len(infos) == 0 {
		su.Result = resultNoOptions
		return false
	}
	for _, info := range infos {
		g := a.group(info.Group)
		for i := info.CurrentSize; i < info.NewSize; i++ {
			n := a.newNode(*g)
			a.upcoming = append(a.upcoming, upcoming{Group: g.Name, Name: n.Name, ReadyAt: now.Add(a.opts.NodeProvisioningTime)})
		}
	}
	su.Infos = infos
	su.Result = resultSuccessful
	msg := fmt.Sprintf("pod triggered scale-up: %v", infos)
	triggered := map[string]bool{}
	for _, p := range best.Pods {
		su.Triggered = append(su.Triggered, p.Key())
		triggered[p.Key()] = true
		a.record(e, "Pod", p.Namespace, p.Name, engine.EventNormal, ReasonTriggeredScaleUp, msg)
		delete(a.notified, p.Key())
	}
	// the status lists the pods no group can take (no event: upstream's
	// EventingScaleUpStatusProcessor stays silent after a scale-up) and
	// those another group could take, left for the next loop
	// (PodsAwaitEvaluation)
	a.notTriggeredStatus(groups, skipped, su)
	for _, pg := range groups {
		if len(pg.Schedulable) == 0 {
			continue
		}
		for _, p := range pg.Pods {
			if !triggered[p.Key()] {
				su.Awaiting = append(su.Awaiting, p.Key())
			}
		}
	}
	a.lastScaleUp = ptrTime(now)
	return true
}

func (a *Autoscaler) scaleUpInfo(g string, registered, coming, deleting map[string]int) ScaleUpInfo {
	ng := a.group(g)
	return ScaleUpInfo{Group: g, CurrentSize: a.targetSize(g, registered, coming, deleting), MaxSize: ng.Max}
}

// statusReasons are a rejection's reasons as CA's PredicateError lists
// them (the filter plugin's reasons).
func statusReasons(s *framework.Status) []string {
	if s == nil {
		return nil
	}
	if len(s.Reasons) > 0 {
		return s.Reasons
	}
	return []string{s.Message()}
}

// similarGroups is ComputeSimilarNodeGroups: the other valid groups whose
// template is similar and that can take every pod group g can.
func (a *Autoscaler) similarGroups(g *NodeGroup, valid []*NodeGroup, schedulableOf map[string][]*podGroup) []string {
	var out []string
	for _, o := range valid {
		if o.Name == g.Name || !similarTemplates(g.Template, o.Template, a.zoneLabel) {
			continue
		}
		theirs := map[*podGroup]bool{}
		for _, pg := range schedulableOf[o.Name] {
			theirs[pg] = true
		}
		ok := len(schedulableOf[o.Name]) > 0
		for _, pg := range schedulableOf[g.Name] {
			if !theirs[pg] {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, o.Name)
		}
	}
	return out
}

// notTriggered records NotTriggerScaleUp for the pods of every
// equivalence group no group can take (GetRemainingPods), with
// ReasonsMessage: each reason counted over the groups that gave it.
// fixed, when set, replaces the aggregated message. A pod is told again
// only when its message changes.
func (a *Autoscaler) notTriggered(e *engine.Engine, groups []*podGroup, skipped map[string]string, all []NodeGroup, fixed string, su *ScaleUpStatus) {
	a.pendingVerdicts(e, groups, skipped, all, fixed, su)
}

// notTriggeredStatus lists the verdicts without recording events.
func (a *Autoscaler) notTriggeredStatus(groups []*podGroup, skipped map[string]string, su *ScaleUpStatus) {
	a.pendingVerdicts(nil, groups, skipped, a.groups, "", su)
}

// pendingVerdicts builds each unhelpable pod's verdict; with e set it
// records NotTriggerScaleUp.
func (a *Autoscaler) pendingVerdicts(e *engine.Engine, groups []*podGroup, skipped map[string]string, all []NodeGroup, fixed string, su *ScaleUpStatus) {
	for _, pg := range groups {
		if len(pg.Schedulable) > 0 {
			continue
		}
		var per []GroupReason
		msg := fixed
		if msg == "" {
			counts := map[string]int{}
			var order []string
			add := func(r string) {
				if counts[r] == 0 {
					order = append(order, r)
				}
				counts[r]++
			}
			for _, g := range all {
				if rs, ok := pg.Rejected[g.Name]; ok {
					for _, r := range rs {
						add(r)
					}
					per = append(per, GroupReason{g.Name, strings.Join(rs, ", ")})
				} else if r, ok := skipped[g.Name]; ok {
					add(r)
					per = append(per, GroupReason{g.Name, r})
				}
			}
			parts := make([]string, len(order))
			for i, r := range order {
				parts[i] = fmt.Sprintf("%d %s", counts[r], r)
			}
			msg = strings.Join(parts, ", ")
		}
		msg = "pod didn't trigger scale-up: " + msg
		for _, p := range pg.Pods {
			su.NoScaleUp = append(su.NoScaleUp, PodVerdict{Pod: p.Key(), Message: msg, PerGroup: per})
			if e == nil || a.notified[p.Key()] == msg {
				continue
			}
			a.notified[p.Key()] = msg
			a.record(e, "Pod", p.Namespace, p.Name, engine.EventNormal, ReasonNotTriggerScaleUp, msg)
		}
	}
}
