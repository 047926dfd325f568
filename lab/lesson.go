package lab

import (
	"fmt"
	"strings"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab/check"
)

// CheckResult is one check of a lesson step, evaluated now.
type CheckResult struct {
	Expr   string
	Hint   string
	OK     bool
	Detail string // the values that decided it
	Err    error  // the check could not be evaluated (e.g. unknown object)
}

// Lesson returns the scenario's lesson, or nil.
func (s *Session) Lesson() *Lesson {
	if s.file.Scenario == nil {
		return nil
	}
	return s.file.Scenario.Lesson
}

// Step returns the current lesson step index.
func (s *Session) Step() int { return s.step }

// SetStep moves to a lesson step (clamped to the lesson's range).
func (s *Session) SetStep(i int) {
	l := s.Lesson()
	if l == nil {
		return
	}
	s.step = max(0, min(i, len(l.Steps)-1))
}

// CheckStep evaluates every check of step i against the cluster now.
func (s *Session) CheckStep(i int) []CheckResult {
	l := s.Lesson()
	if l == nil || i < 0 || i >= len(l.Steps) {
		return nil
	}
	env := &checkEnv{s: s}
	var out []CheckResult
	for _, c := range l.Steps[i].Checks {
		r := CheckResult{Expr: c.Expr, Hint: c.Hint}
		chk, err := c.parsed, error(nil)
		if chk == nil {
			chk, err = check.Parse(c.Expr)
		}
		if err != nil {
			r.Err = err
		} else if res, err := chk.Eval(env); err != nil {
			r.Err = err
		} else {
			r.OK, r.Detail = res.OK, res.Detail
		}
		out = append(out, r)
	}
	return out
}

// EvalCheck evaluates one expression (the palette's `check EXPR`).
func (s *Session) EvalCheck(expr string) (check.Result, error) {
	chk, err := check.Parse(expr)
	if err != nil {
		return check.Result{}, err
	}
	return chk.Eval(&checkEnv{s: s})
}

// checkEnv answers lesson checks from the session's cluster.
type checkEnv struct{ s *Session }

func (c *checkEnv) InDomain(node, domain string) (bool, error) {
	if node == domain {
		return true, nil
	}
	n := c.s.eng.Node(node)
	if n == nil {
		return false, nil
	}
	for _, key := range []string{c.s.zoneLabel(), api.LabelTopologyRegion, api.LabelHostname} {
		if n.Labels[key] == domain {
			return true, nil
		}
	}
	return false, nil
}

func (c *checkEnv) pod(a check.Arg) (*api.Pod, error) {
	ns, name, _, ok := c.s.lookup("pod", a.Name)
	if !ok {
		return nil, nil // a pod that does not exist (yet, or any more) is not an error in a check
	}
	return c.s.eng.Pod(ns + "/" + name), nil
}

// Call implements check.Env: the function's implementation from
// checkFuncs (check_funcs.go).
func (c *checkEnv) Call(name string, args []check.Arg) (check.Value, error) {
	f, ok := checkFuncs[name]
	if !ok {
		return check.Value{}, fmt.Errorf("function %s is not available", name)
	}
	return f(c, args)
}

// eventConcerns matches an event's object ("pod/default/web-1") against a
// check's ref ("pod/web-1" or "pod/default/web-1").
func eventConcerns(obj, ref string) bool {
	if obj == ref {
		return true
	}
	kind, name, _ := strings.Cut(ref, "/")
	return strings.HasPrefix(obj, kind+"/") && strings.HasSuffix(obj, "/"+name)
}

func wordOrText(a check.Arg) string {
	switch a.Kind {
	case check.ArgWord:
		return a.Word
	case check.ArgRef:
		return a.RefKind + "/" + a.Name
	case check.ArgSelector:
		return a.Key + a.Op + a.Val
	}
	if a.Expr != nil {
		return strings.Trim(a.Expr.String(), `"'`)
	}
	return ""
}

func (c *checkEnv) replicas(a check.Arg) (check.Value, error) {
	ns, name, err := c.s.resolve(a.RefKind, a.Name)
	if err != nil {
		return check.Value{}, err
	}
	var r *int32
	m := c.s.ctl
	switch a.RefKind {
	case "deployment":
		r = m.Deployment(ns, name).Spec.Replicas
	case "statefulset":
		r = m.StatefulSet(ns, name).Spec.Replicas
	case "replicaset":
		r = m.ReplicaSet(ns, name).Spec.Replicas
	case "replicationcontroller":
		r = m.ReplicationController(ns, name).Spec.Replicas
	case "daemonset":
		return check.NumV(float64(m.DaemonSet(ns, name).Status.DesiredNumberScheduled)), nil
	case "job":
		r = m.Job(ns, name).Spec.Completions
	}
	if r == nil {
		return check.NumV(1), nil
	}
	return check.NumV(float64(*r)), nil
}

// selectPods resolves the first argument (a workload, or "pods") and
// applies label filters that follow.
func (c *checkEnv) selectPods(args []check.Arg) ([]*api.Pod, error) {
	var pods []*api.Pod
	if args[0].Kind == check.ArgRef {
		ns, name, err := c.s.resolve(args[0].RefKind, args[0].Name)
		if err != nil {
			return nil, err
		}
		pods = c.s.workloadPods(args[0].RefKind, ns, name)
	} else {
		pods = c.s.eng.Pods()
	}
	return c.filterPods(pods, args[1:])
}

func (c *checkEnv) filterPods(pods []*api.Pod, filters []check.Arg) ([]*api.Pod, error) {
	var out []*api.Pod
	for _, p := range pods {
		ok := true
		for _, f := range filters {
			if f.Kind != check.ArgSelector {
				return nil, fmt.Errorf("filter %s: write key=value", f.String())
			}
			var v string
			has := true
			switch f.Key {
			case "zone":
				n := c.s.eng.Node(p.Spec.NodeName)
				v, has = "", n != nil
				if n != nil {
					v = n.Labels[c.s.zoneLabel()]
				}
			case "node":
				v = p.Spec.NodeName
			case "phase":
				v = p.Status.Phase
			case "namespace":
				v = p.Namespace
			case "state":
				st, _ := c.s.eng.PodState(p.Key())
				v = st.String()
			default:
				v, has = p.Labels[f.Key]
			}
			match := has && strings.EqualFold(v, f.Val)
			if f.Op == "!=" {
				match = !match
			}
			if !match {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, p)
		}
	}
	return out, nil
}

func (c *checkEnv) count(args []check.Arg) (check.Value, error) {
	if args[0].Word == "nodes" {
		n := 0
		for _, node := range c.s.eng.Nodes() {
			ok := true
			for _, f := range args[1:] {
				if f.Kind != check.ArgSelector {
					return check.Value{}, fmt.Errorf("filter %s: write key=value", f.String())
				}
				key := f.Key
				if key == "zone" {
					key = c.s.zoneLabel()
				}
				v, has := node.Labels[key]
				m := has && v == f.Val
				if f.Op == "!=" {
					m = !m
				}
				if !m {
					ok = false
				}
			}
			if ok {
				n++
			}
		}
		return check.NumV(float64(n)), nil
	}
	var live []*api.Pod
	for _, p := range c.s.eng.Pods() {
		if st, _ := c.s.eng.PodState(p.Key()); st != engine.StateTerminated || hasFilter(args[1:], "phase") {
			live = append(live, p)
		}
	}
	pods, err := c.filterPods(live, args[1:])
	if err != nil {
		return check.Value{}, err
	}
	return check.NumV(float64(len(pods))), nil
}

func hasFilter(args []check.Arg, key string) bool {
	for _, a := range args {
		if a.Kind == check.ArgSelector && a.Key == key {
			return true
		}
	}
	return false
}
