package lab

import (
	"fmt"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab/manifest"
)

// ObjectBudget is the lab's one bound on the objects a session may hold:
// the input limit of a file (manifest.DefaultMaxObjects) is also the most
// pods and nodes the engine lets exist at once (engine.Config.MaxObjects).
// A controller that would go beyond it gets its pod creations refused with
// a FailedCreate event, a scale or `add zone` beyond it is refused whole,
// and a file whose workloads ask for more is refused when it loads, so
// that no valid input (a Deployment of 1e9 replicas is valid) makes the
// lab work without bound.
const ObjectBudget = manifest.DefaultMaxObjects

// budgetCheck refuses a file whose nodes, pods and the pods its workloads
// ask for would take the cluster over ObjectBudget, naming the object
// that crosses it. Pods a controller owns are taken to be some of the
// replicas their workloads ask for (a cluster dump holds both); a
// DaemonSet asks for a pod on every node its nodeSelector matches (an
// upper bound: affinity and taints may exclude more).
func budgetCheck(f *File) error {
	return budgetCheckLimit(f, ObjectBudget)
}

func budgetCheckLimit(f *File, limit int64) error {
	var nodes int64
	var labels []map[string]string
	if sc := f.Scenario; sc != nil {
		for i, z := range sc.Cluster.Zones {
			n := int64(max(z.Nodes, len(z.Names), 1))
			if nodes+n > limit {
				return budgetDiag(z.Pos, &engine.BudgetError{Resource: "nodes", Requested: n, Used: nodes, Limit: limit},
					fmt.Sprintf("cluster.zones[%d] (%s)", i, z.Name), "give the zones fewer nodes")
			}
			nodes += n
		}
		if nodes > 0 && hasDaemonSet(f.Objects) {
			// the shorthand's labels, for the DaemonSets' selectors (an
			// error here is the session's to report)
			ns, _ := sc.Cluster.Nodes()
			for _, n := range ns {
				labels = append(labels, n.Labels)
			}
		}
	}
	return budgetCheckObjects(f.Objects, nodes, labels, limit)
}

func hasDaemonSet(objs *manifest.Objects) bool { return len(objs.DaemonSets) > 0 }

// budgetCheckObjects is budgetCheck of objs over a cluster that holds
// used objects already, among them nodes with the given labels.
func budgetCheckObjects(objs *manifest.Objects, used int64, nodeLabels []map[string]string, limit int64) error {
	if limit <= 0 {
		return nil
	}
	var standalone, owned, asked int64
	nodes := used + int64(len(objs.Nodes))
	if len(objs.DaemonSets) > 0 {
		for _, n := range objs.Nodes {
			nodeLabels = append(nodeLabels, n.Labels)
		}
	}
	for _, p := range objs.Pods {
		if p.ControllerRef() != nil {
			owned++
		} else {
			standalone++
		}
	}
	total := func() int64 { return nodes + standalone + max(owned, asked) }
	for _, o := range objs.Order {
		resource, name, field, n, ok := askedPods(o, nodeLabels)
		if !ok || n <= 0 {
			continue
		}
		before := total()
		asked += n
		if total() > limit {
			return budgetDiag(objs.PosOf(o), &engine.BudgetError{Resource: resource, Name: name, Requested: n, Used: before, Limit: limit},
				fmt.Sprintf(field, n), "ask for fewer")
		}
	}
	return nil
}

// askedPods is how many pods a top-level workload asks for: replicas
// (default 1), or a Job's pods at once (parallelism, at most completions),
// or a CronJob's Job's.
// Workloads owned by another (a Deployment's ReplicaSets, a CronJob's
// Jobs) are counted through their owner.
func askedPods(o any, nodeLabels []map[string]string) (resource, name, field string, n int64, ok bool) {
	orOne := func(p *int32) int64 {
		if p == nil {
			return 1
		}
		return int64(*p)
	}
	switch w := o.(type) {
	case *api.Deployment:
		return "deployments", w.Name, "spec.replicas %d", orOne(w.Spec.Replicas), true
	case *api.ReplicaSet:
		if w.ControllerRef() != nil {
			return "", "", "", 0, false
		}
		return "replicasets", w.Name, "spec.replicas %d", orOne(w.Spec.Replicas), true
	case *api.StatefulSet:
		return "statefulsets", w.Name, "spec.replicas %d", orOne(w.Spec.Replicas), true
	case *api.ReplicationController:
		return "replicationcontrollers", w.Name, "spec.replicas %d", orOne(w.Spec.Replicas), true
	case *api.Job:
		if w.ControllerRef() != nil {
			return "", "", "", 0, false
		}
		return "jobs", w.Name, "spec.parallelism %d", jobPods(w.Spec), true
	case *api.CronJob:
		// at least one Job's pods at each run (more when runs overlap)
		return "cronjobs", w.Name, "spec.jobTemplate.spec.parallelism %d", jobPods(w.Spec.JobTemplate.Spec), true
	case *api.DaemonSet:
		sel := w.Spec.Template.Spec.NodeSelector
		for _, l := range nodeLabels {
			if matchesAll(l, sel) {
				n++
			}
		}
		return "daemonsets", w.Name, "%d pods (one on each node its nodeSelector matches)", n, true
	}
	return "", "", "", 0, false
}

func budgetDiag(pos manifest.Position, be *engine.BudgetError, what, fix string) error {
	return &manifest.Error{Diagnostics: []manifest.Diagnostic{{
		File: pos.File, Line: pos.Line, Col: pos.Col, Severity: manifest.SeverityError,
		Message: fmt.Sprintf("%s would take the cluster over the lab's object budget: %v", what, be),
		Hint:    fmt.Sprintf("%s: the lab holds at most %d pods and nodes at once", fix, be.Limit),
	}}}
}

// scaleBudget refuses a scale whose new pods would take the cluster over
// the object budget, with the refusal the controller would meet pod by
// pod.
func (s *Session) scaleBudget(kind, ns, name string, replicas int32) error {
	var cur int32
	switch kind {
	case "deployment":
		if d := s.ctl.Deployment(ns, name); d != nil && d.Spec.Replicas != nil {
			cur = *d.Spec.Replicas
		}
	case "replicaset":
		if rs := s.ctl.ReplicaSet(ns, name); rs != nil && rs.Spec.Replicas != nil {
			cur = *rs.Spec.Replicas
		}
	case "replicationcontroller":
		if rc := s.ctl.ReplicationController(ns, name); rc != nil && rc.Spec.Replicas != nil {
			cur = *rc.Spec.Replicas
		}
	case "statefulset":
		if st := s.ctl.StatefulSet(ns, name); st != nil && st.Spec.Replicas != nil {
			cur = *st.Spec.Replicas
		}
	}
	if err := s.eng.CheckObjects("pods", "", int64(replicas)-int64(cur)); err != nil {
		return fmt.Errorf("scale %s/%s to %d: %w", kind, name, replicas, err)
	}
	return nil
}

// nodesBudget refuses `add zone` of n nodes beyond the object budget.
func (s *Session) nodesBudget(zone string, n int) error {
	if err := s.eng.CheckObjects("nodes", "", int64(n)); err != nil {
		return fmt.Errorf("add zone %s with %d nodes: %w", zone, n, err)
	}
	return nil
}

// jobPods is how many pods a Job runs at once: parallelism (default 1),
// at most completions.
func jobPods(sp api.JobSpec) int64 {
	n := int64(1)
	if sp.Parallelism != nil {
		n = int64(*sp.Parallelism)
	}
	if sp.Completions != nil {
		n = min(n, int64(*sp.Completions))
	}
	return n
}

// matchesAll reports whether labels hold every key=value of sel.
func matchesAll(labels, sel map[string]string) bool {
	for k, v := range sel {
		if lv, ok := labels[k]; !ok || lv != v {
			return false
		}
	}
	return true
}

// nodeLabels is the labels of the session's nodes when objs hold a
// DaemonSet (its pods go to the nodes its selector matches).
func (s *Session) nodeLabels(objs *manifest.Objects) []map[string]string {
	if len(objs.DaemonSets) == 0 {
		return nil
	}
	nodes := s.eng.Nodes()
	out := make([]map[string]string, len(nodes))
	for i, n := range nodes {
		out[i] = n.Labels
	}
	return out
}
