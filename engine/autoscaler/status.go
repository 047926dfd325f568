package autoscaler

import (
	"time"

	"podlab.dev/podlab/engine/api"
)

// Status is what the last loop decided and why — the data behind the
// lab's `autoscaler status` and the autoscaler panel.
type Status struct {
	Ran      bool
	LoopAt   api.Time
	NextLoop api.Time
	Error    string
	Groups   []GroupStatus
	ScaleUp  ScaleUpStatus
	// ScaleDown is the last scale-down evaluation.
	ScaleDown ScaleDownStatus
}

// GroupStatus is one node group's size and what the loop did with it.
type GroupStatus struct {
	Name               string
	Min, Max           int
	Registered, Coming int
	Deleting           int
	Target             int
	Zone               string
	Nodes              []string
	Upcoming           []UpcomingNode
	Skipped            string // why scale-up skipped the group ("max node group size reached")
	Option             *Option
	ScaleUp            *ScaleUpInfo
}

// UpcomingNode is a node being provisioned.
type UpcomingNode struct {
	Name    string
	ReadyAt api.Time
}

// ScaleUpStatus is the last scale-up evaluation.
type ScaleUpStatus struct {
	// Unschedulable counts the pods the scheduler could not place;
	// FitExisting those that fit existing or upcoming nodes after all.
	Unschedulable int
	FitExisting   []string
	// Ignored lists pods left out (expendable, too young) with why.
	Ignored []PodNote
	// Options are the expansion options per group, in group order.
	Options []Option
	// Expander is how the expander chain chose.
	Expander []string
	Infos    []ScaleUpInfo
	// Triggered lists the pods that triggered the scale-up.
	Triggered []string
	// NoScaleUp lists the pods left unschedulable with the message of
	// their NotTriggerScaleUp event and the reason per group.
	NoScaleUp []PodVerdict
	// Evaluated: pods reached the orchestrator, which went over the
	// groups this loop.
	Evaluated bool
	// Awaiting lists the pods another group could take, left for the
	// next loop after this scale-up (PodsAwaitEvaluation).
	Awaiting []string
	Result   string
}

// PodNote is a pod with a note.
type PodNote struct {
	Pod  string
	Note string
}

// PodVerdict is a pod CA could not help, with the reason per group.
type PodVerdict struct {
	Pod      string
	Message  string
	PerGroup []GroupReason
}

// GroupReason is why one group cannot take a pod.
type GroupReason struct {
	Group  string
	Reason string
}

// ScaleDownStatus is the last scale-down evaluation.
type ScaleDownStatus struct {
	// Skipped says why scale-down did not run or act this loop (cooldown,
	// a scale-up happened, disabled).
	Skipped string
	Nodes   []NodeStatus
	// Deleting lists the nodes being removed.
	Deleting []DeletionStatus
}

// NodeStatus is one autoscaled node's scale-down verdict.
type NodeStatus struct {
	Node        string
	Group       string
	Utilization float64
	// Resource is the resource the utilisation was taken from.
	Resource string
	// Unneeded: the node could go; UnneededFor how long it has been.
	Unneeded      bool
	UnneededSince api.Time
	// UnneededFor is how long it must stay unneeded before it goes (the
	// unneeded time, or the unready time for an unready node).
	UnneededFor time.Duration
	// Reason is why the node cannot go (an unremovable reason, with the
	// blocking pod when a pod blocks).
	Reason string
	// Destinations maps each pod to move to the node it would go to.
	Destinations []PodNote
	Removing     bool
}

// DeletionStatus is a node being removed.
type DeletionStatus struct {
	Node    string
	Started api.Time
	Pending []string
	Evicted []string
}

// Status returns what the last loop decided.
func (a *Autoscaler) Status() Status {
	a.statusHandedOut = true
	return a.status
}

// fillGroups adds each group's sizes and nodes to the status, in one
// pass over the loop's nodes (the cluster's nodes at the end of the
// loop). A group's member list is the previous status's when unchanged.
func (a *Autoscaler) fillGroups(st *Status) {
	nodes := a.loop.nodes
	if cap(a.groupBuf) < len(nodes) {
		a.groupBuf = make([]int, len(nodes))
	}
	group := a.groupBuf[:len(nodes)]
	count := make([]int, len(a.groups))
	for i, n := range nodes {
		g := a.loop.factOf(i, n, a).group
		group[i] = g
		if g >= 0 {
			count[g]++
		}
	}
	registered := a.byName(count)
	members := make([][]string, len(a.groups))
	fresh := make([]bool, len(a.groups))
	for gi := range a.groups {
		if prev := a.previousMembers(gi); len(prev) == count[gi] && sameMembers(prev, nodes, group, gi) {
			members[gi] = prev // never modified once published
		} else if count[gi] > 0 {
			members[gi] = make([]string, 0, count[gi])
			fresh[gi] = true
		}
	}
	for i, n := range nodes {
		if g := group[i]; g >= 0 && fresh[g] {
			members[g] = append(members[g], n.Name)
		}
	}
	coming, deleting := a.inFlight()
	for gi, g := range a.groups {
		gs := GroupStatus{Name: g.Name, Min: g.Min, Max: g.Max, Registered: registered[g.Name], Coming: coming[g.Name], Deleting: deleting[g.Name],
			Target: a.targetSize(g.Name, registered, coming, deleting), Zone: g.Template.Labels[a.zoneLabel], Nodes: members[gi]}
		for _, u := range a.upcoming {
			if u.Group == g.Name {
				gs.Upcoming = append(gs.Upcoming, UpcomingNode{Name: u.Name, ReadyAt: u.ReadyAt})
			}
		}
		if gs.Target >= g.Max && st.ScaleUp.Evaluated {
			gs.Skipped = MaxLimitReachedReason
		}
		for i := range st.ScaleUp.Options {
			if st.ScaleUp.Options[i].Group == g.Name {
				o := st.ScaleUp.Options[i]
				gs.Option = &o
			}
		}
		for i := range st.ScaleUp.Infos {
			if st.ScaleUp.Infos[i].Group == g.Name {
				info := st.ScaleUp.Infos[i]
				gs.ScaleUp = &info
			}
		}
		st.Groups = append(st.Groups, gs)
	}
}

// previousMembers is the last status's node list of group gi.
func (a *Autoscaler) previousMembers(gi int) []string {
	if gs := a.status.Groups; !a.reference && gi < len(gs) && gs[gi].Name == a.groups[gi].Name {
		return gs[gi].Nodes
	}
	return nil
}

// sameMembers reports whether prev lists group gi's nodes in order.
func sameMembers(prev []string, nodes []*api.Node, group []int, gi int) bool {
	j := 0
	for i, n := range nodes {
		if group[i] != gi {
			continue
		}
		if prev[j] != n.Name {
			return false
		}
		j++
	}
	return true
}
