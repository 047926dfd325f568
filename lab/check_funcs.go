package lab

import (
	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab/check"
)

// checkFunc answers one function of the lesson check language; the
// arguments have been checked against check.Funcs (count, first shape).
type checkFunc func(c *checkEnv, args []check.Arg) (check.Value, error)

// checkFuncs implements every function check.Funcs declares — no more, no
// fewer (TestCheckFuncsImplementEveryDeclaredFunction).
var checkFuncs = map[string]checkFunc{
	"time":          checkTime,
	"skew":          checkSkew,
	"pending":       podsInState(engine.StatePending),
	"running":       podsInState(engine.StateRunning),
	"ready":         checkReady,
	"restarts":      func(c *checkEnv, args []check.Arg) (check.Value, error) { return c.restarts(args[0]) },
	"replicas":      func(c *checkEnv, args []check.Arg) (check.Value, error) { return c.replicas(args[0]) },
	"count":         func(c *checkEnv, args []check.Arg) (check.Value, error) { return c.count(args) },
	"evicted":       podBool(evicted),
	"preempted":     podBool(preempted),
	"terminating":   podBool(func(p *api.Pod) bool { return p.DeletionTimestamp != nil }),
	"scheduled":     podBool(func(p *api.Pod) bool { return p.Spec.NodeName != "" }),
	"exists":        checkExists,
	"node":          podString("", func(p *api.Pod) string { return p.Spec.NodeName }),
	"nominated":     podString("", func(p *api.Pod) string { return p.Status.NominatedNodeName }),
	"reason":        podString("", func(p *api.Pod) string { return p.Status.Reason }),
	"phase":         podString("Gone", func(p *api.Pod) string { return p.Status.Phase }),
	"status":        podString("Gone", PodStatus),
	"gates":         podNum(func(p *api.Pod) float64 { return float64(len(p.Spec.SchedulingGates)) }),
	"zone":          checkZone,
	"label":         checkLabel,
	"cordoned":      nodeBool(func(n *api.Node, _ []check.Arg) bool { return n.Spec.Unschedulable }),
	"tainted":       nodeBool(tainted),
	"pressure":      nodeBool(memoryPressure),
	"events":        checkEvents,
	"max_over_time": maxOverTime,
	"min_over_time": minOverTime,
}

func checkTime(c *checkEnv, _ []check.Arg) (check.Value, error) {
	return check.NumV(c.s.Now().Seconds()), nil
}

// checkSkew prefers the scheduler's own view: the workload's constraint on
// this key, counted over the domains its nodeAffinityPolicy and
// nodeTaintsPolicy make eligible; else the plain per-domain count.
func checkSkew(c *checkEnv, args []check.Arg) (check.Value, error) {
	s := c.s
	ns, wname, err := s.resolve(args[0].RefKind, args[0].Name)
	if err != nil {
		return check.Value{}, err
	}
	key := expandTopologyKey(wordOrText(args[1]), s.zoneLabel())
	for _, w := range s.Workloads() {
		if w.Kind == args[0].RefKind && w.Namespace == ns && w.Name == wname {
			for _, sv := range s.Spread(w) {
				if sv.TopologyKey == key {
					return check.NumV(float64(sv.CurrentSkew)), nil
				}
			}
		}
	}
	sp, err := s.ctl.WorkloadSpread(controllerKind(args[0].RefKind), ns, wname, key)
	if err != nil {
		return check.Value{}, err
	}
	return check.NumV(float64(sp.Skew)), nil
}

// podsInState counts the selected pods in one state (pending, running).
func podsInState(want engine.PodState) checkFunc {
	return func(c *checkEnv, args []check.Arg) (check.Value, error) {
		pods, err := c.selectPods(args)
		if err != nil {
			return check.Value{}, err
		}
		n := 0
		for _, p := range pods {
			if st, _ := c.s.eng.PodState(p.Key()); st == want {
				n++
			}
		}
		return check.NumV(float64(n)), nil
	}
}

func checkReady(c *checkEnv, args []check.Arg) (check.Value, error) {
	pods, err := c.selectPods(args)
	if err != nil {
		return check.Value{}, err
	}
	n := 0
	for _, p := range pods {
		if cond := p.Condition(api.PodReady); cond != nil && cond.Status == api.ConditionTrue && p.DeletionTimestamp == nil {
			n++
		}
	}
	return check.NumV(float64(n)), nil
}

// podBool is a yes/no question about a pod; a pod that does not exist
// answers no.
func podBool(f func(*api.Pod) bool) checkFunc {
	return func(c *checkEnv, args []check.Arg) (check.Value, error) {
		p, err := c.pod(args[0])
		if err != nil || p == nil {
			return check.BoolV(false), err
		}
		return check.BoolV(f(p)), nil
	}
}

func evicted(p *api.Pod) bool {
	if p.Status.Reason == "Evicted" {
		return true
	}
	d := p.Condition(api.DisruptionTarget)
	return d != nil && d.Reason != "PreemptionByScheduler"
}

func preempted(p *api.Pod) bool {
	d := p.Condition(api.DisruptionTarget)
	return d != nil && d.Reason == "PreemptionByScheduler"
}

// podNum is a number of a pod (0 once it is gone).
func podNum(f func(*api.Pod) float64) checkFunc {
	return func(c *checkEnv, args []check.Arg) (check.Value, error) {
		p, err := c.pod(args[0])
		if err != nil || p == nil {
			return check.NumV(0), err
		}
		return check.NumV(f(p)), nil
	}
}

// podString reads a field of a pod; gone is the answer for a pod that
// does not exist.
func podString(gone string, f func(*api.Pod) string) checkFunc {
	return func(c *checkEnv, args []check.Arg) (check.Value, error) {
		p, _ := c.pod(args[0])
		if p == nil {
			return check.StrV(gone), nil
		}
		return check.StrV(f(p)), nil
	}
}

func checkExists(c *checkEnv, args []check.Arg) (check.Value, error) {
	if args[0].RefKind == "node" {
		return check.BoolV(c.s.eng.Node(args[0].Name) != nil), nil
	}
	_, _, _, ok := c.s.lookup(args[0].RefKind, args[0].Name)
	return check.BoolV(ok), nil
}

func checkZone(c *checkEnv, args []check.Arg) (check.Value, error) {
	node := args[0].Name
	if args[0].RefKind == "pod" {
		p, _ := c.pod(args[0])
		if p == nil {
			return check.StrV(""), nil
		}
		node = p.Spec.NodeName
	}
	if n := c.s.eng.Node(node); n != nil {
		return check.StrV(n.Labels[c.s.zoneLabel()]), nil
	}
	return check.StrV(""), nil
}

func checkLabel(c *checkEnv, args []check.Arg) (check.Value, error) {
	key := wordOrText(args[1])
	if args[0].RefKind == "node" {
		if n := c.s.eng.Node(args[0].Name); n != nil {
			return check.StrV(n.Labels[key]), nil
		}
		return check.StrV(""), nil
	}
	p, _ := c.pod(args[0])
	if p == nil {
		return check.StrV(""), nil
	}
	return check.StrV(p.Labels[key]), nil
}

// nodeBool is a yes/no question about a node, which must exist.
func nodeBool(f func(*api.Node, []check.Arg) bool) checkFunc {
	return func(c *checkEnv, args []check.Arg) (check.Value, error) {
		n := c.s.eng.Node(args[0].Name)
		if n == nil {
			return check.Value{}, c.s.needNode(args[0].Name)
		}
		return check.BoolV(f(n, args)), nil
	}
}

// tainted: any taint, or one with the key given as second argument.
func tainted(n *api.Node, args []check.Arg) bool {
	if len(args) == 1 {
		return len(n.Spec.Taints) > 0
	}
	key := wordOrText(args[1])
	for _, t := range n.Spec.Taints {
		if t.Key == key {
			return true
		}
	}
	return false
}

func memoryPressure(n *api.Node, _ []check.Arg) bool {
	cond := n.Condition(api.NodeMemoryPressure)
	return cond != nil && cond.Status == api.ConditionTrue
}

func checkEvents(c *checkEnv, args []check.Arg) (check.Value, error) {
	reason := args[0].Word
	object := ""
	if len(args) > 1 {
		object = args[1].RefKind + "/" + args[1].Name
	}
	n := 0
	for _, e := range c.s.eng.Events() {
		if e.Reason != reason {
			continue
		}
		if object != "" && !eventConcerns(e.Object, object) {
			continue
		}
		n++
	}
	return check.NumV(float64(n)), nil
}
