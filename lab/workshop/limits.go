package workshop

import (
	"fmt"
	"time"

	"podlab.dev/podlab/lab"
	"podlab.dev/podlab/lab/command"
	"podlab.dev/podlab/lab/manifest"
)

// Limits bound what one participant's lab may hold and do, so one
// participant (curious or malicious) cannot slow the room: every lab shares
// the server's CPUs and memory. Zero means no limit.
type Limits struct {
	Nodes   int // nodes in the cluster
	Pods    int // pods, whatever created them
	Objects int // nodes + pods + workloads
	// Advance caps one `advance` command (a long advance runs every
	// controller and CronJob over that virtual span).
	Advance time.Duration
	// Commands caps a lab's history: undo rebuilds the lab by replaying
	// every command, so a history of thousands would make each undo cost
	// seconds of the server's CPU.
	Commands int
	// CommandsPerSecond caps input events (keys, clicks, pastes) per
	// second, with a burst of four times as many; the server drops the
	// rest.
	CommandsPerSecond int
}

// DefaultLimits fit every preset lesson with room to experiment; memory
// per session stays well under 20 MB at these sizes (docs/benchmarks.md).
var DefaultLimits = Limits{Nodes: 50, Pods: 500, Objects: 1000, Advance: time.Hour, Commands: 1000, CommandsPerSecond: 30}

// LimitError is a command refused by a limit; its message says which
// limit, the value, and what to do.
type LimitError struct {
	What  string // "pods", "nodes", "objects", "advance"
	Limit string
	Got   string
}

func (e *LimitError) Error() string {
	advice := "scale down or delete something first"
	switch e.What {
	case "commands":
		advice = "undo is still possible; ask the instructor for a fresh lab to go on"
	case "of virtual time in one advance":
		advice = "advance in smaller steps"
	}
	return fmt.Sprintf("workshop limit: at most %s %s per lab (this would make %s) — the command was not applied; %s", e.Limit, e.What, e.Got, advice)
}

// Guard returns the lab.Guard enforcing l.
func (l Limits) Guard() lab.Guard { return guard{l} }

type guard struct{ l Limits }

// Before refuses what can be judged from the command alone, so a scale to
// 100000 replicas never creates the pods it would then undo.
func (g guard) Before(s *lab.Session, cmd command.Command) error {
	l := g.l
	switch cmd.(type) {
	case command.Undo, command.Redo:
	default:
		if n := len(s.History()); l.Commands > 0 && n >= l.Commands {
			return &LimitError{What: "commands", Limit: fmt.Sprint(l.Commands), Got: fmt.Sprint(n + 1)}
		}
	}
	nodes := len(s.Engine().Nodes())
	switch c := cmd.(type) {
	case command.Scale:
		if l.Pods > 0 && int(c.Replicas) > l.Pods {
			return &LimitError{What: "pods", Limit: fmt.Sprint(l.Pods), Got: fmt.Sprint(c.Replicas)}
		}
	case command.AddZone:
		n := max(c.Nodes, 1)
		if l.Nodes > 0 && nodes+n > l.Nodes {
			return &LimitError{What: "nodes", Limit: fmt.Sprint(l.Nodes), Got: fmt.Sprint(nodes + n)}
		}
	case command.AddNode:
		if l.Nodes > 0 && nodes+1 > l.Nodes {
			return &LimitError{What: "nodes", Limit: fmt.Sprint(l.Nodes), Got: fmt.Sprint(nodes + 1)}
		}
	case command.Advance:
		if l.Advance > 0 && c.D > l.Advance {
			return &LimitError{What: "of virtual time in one advance", Limit: l.Advance.String(), Got: c.D.String()}
		}
	case command.Apply:
		if c.Inline == "" {
			return nil
		}
		objs, err := manifest.Load("inline", []byte(c.Inline), manifest.Options{})
		if err != nil {
			return nil // the command reports it
		}
		if want := manifestPods(objs); l.Pods > 0 && want > l.Pods {
			return &LimitError{What: "pods", Limit: fmt.Sprint(l.Pods), Got: fmt.Sprint(want)}
		}
		if l.Nodes > 0 && nodes+len(objs.Nodes) > l.Nodes {
			return &LimitError{What: "nodes", Limit: fmt.Sprint(l.Nodes), Got: fmt.Sprint(nodes + len(objs.Nodes))}
		}
	}
	return nil
}

// After checks the settled cluster: whatever path the pods took (a
// DaemonSet on every node, a Job's parallelism), the totals must fit.
func (g guard) After(s *lab.Session) error {
	l := g.l
	c := Count(s)
	switch {
	case l.Nodes > 0 && c.Nodes > l.Nodes:
		return &LimitError{What: "nodes", Limit: fmt.Sprint(l.Nodes), Got: fmt.Sprint(c.Nodes)}
	case l.Pods > 0 && c.Pods > l.Pods:
		return &LimitError{What: "pods", Limit: fmt.Sprint(l.Pods), Got: fmt.Sprint(c.Pods)}
	case l.Objects > 0 && c.Objects() > l.Objects:
		return &LimitError{What: "objects", Limit: fmt.Sprint(l.Objects), Got: fmt.Sprint(c.Objects())}
	}
	return nil
}

// Counts are a lab's sizes.
type Counts struct{ Nodes, Pods, Workloads int }

// Objects is everything counted.
func (c Counts) Objects() int { return c.Nodes + c.Pods + c.Workloads }

// Count measures a session.
func Count(s *lab.Session) Counts {
	return Counts{Nodes: len(s.Engine().Nodes()), Pods: len(s.Engine().Pods()), Workloads: len(s.Workloads())}
}

// manifestPods is how many pods a manifest asks for directly: bare pods
// plus the replicas of its workloads (a DaemonSet's depend on the nodes;
// After catches those).
func manifestPods(o *manifest.Objects) int {
	n := len(o.Pods)
	rep := func(p *int32) int {
		if p == nil {
			return 1
		}
		return int(*p)
	}
	for _, d := range o.Deployments {
		n += rep(d.Spec.Replicas)
	}
	for _, r := range o.ReplicaSets {
		n += rep(r.Spec.Replicas)
	}
	for _, s := range o.StatefulSets {
		n += rep(s.Spec.Replicas)
	}
	for _, j := range o.Jobs {
		n += rep(j.Spec.Parallelism)
	}
	return n
}
