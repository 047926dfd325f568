package lab

import (
	"sort"
	"strings"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/podtopologyspread"
)

// Workload is a workload as the UI lists it.
type Workload struct {
	Kind      string // command-language kind: deployment, statefulset, daemonset, job, cronjob, replicaset, or "pods" for bare pods
	Namespace string
	Name      string
	Desired   int32
	Ready     int32
	Template  *api.PodTemplateSpec
	// Selector of the workload (nil for bare pods).
	Selector *api.LabelSelector
}

// Ref is "kind/name" (namespace omitted when default) as commands take it.
func (w Workload) Ref() string {
	name := w.Name
	if w.Namespace != "default" && w.Namespace != "" {
		name = w.Namespace + "/" + w.Name
	}
	return w.Kind + "/" + name
}

// Workloads lists every workload grouped by kind and sorted by name, with
// bare pods (no controller) as one pseudo-workload per namespace. The
// ReplicaSets of a Deployment and the Jobs of a CronJob are part of their
// parent (parentWorkload), not workloads of their own.
func (s *Session) Workloads() []Workload {
	m := s.ctl.Manager
	var out []Workload
	for _, d := range m.Deployments() {
		out = append(out, Workload{Kind: "deployment", Namespace: d.Namespace, Name: d.Name, Desired: replicasOr1(d.Spec.Replicas), Ready: d.Status.ReadyReplicas, Template: &d.Spec.Template, Selector: d.Spec.Selector})
	}
	for _, ss := range m.StatefulSets() {
		out = append(out, Workload{Kind: "statefulset", Namespace: ss.Namespace, Name: ss.Name, Desired: replicasOr1(ss.Spec.Replicas), Ready: ss.Status.ReadyReplicas, Template: &ss.Spec.Template, Selector: ss.Spec.Selector})
	}
	for _, rs := range m.ReplicaSets() {
		if kind, _ := parentWorkload(&rs.ObjectMeta); kind == "" {
			out = append(out, Workload{Kind: "replicaset", Namespace: rs.Namespace, Name: rs.Name, Desired: replicasOr1(rs.Spec.Replicas), Ready: rs.Status.ReadyReplicas, Template: &rs.Spec.Template, Selector: rs.Spec.Selector})
		}
	}
	for _, rc := range m.ReplicationControllers() {
		out = append(out, Workload{Kind: "replicationcontroller", Namespace: rc.Namespace, Name: rc.Name, Desired: replicasOr1(rc.Spec.Replicas), Ready: rc.Status.ReadyReplicas, Template: &rc.Spec.Template, Selector: rc.Spec.Selector})
	}
	for _, ds := range m.DaemonSets() {
		out = append(out, Workload{Kind: "daemonset", Namespace: ds.Namespace, Name: ds.Name, Desired: ds.Status.DesiredNumberScheduled, Ready: ds.Status.NumberReady, Template: &ds.Spec.Template, Selector: ds.Spec.Selector})
	}
	for _, j := range m.Jobs() {
		if kind, _ := parentWorkload(&j.ObjectMeta); kind == "" {
			out = append(out, Workload{Kind: "job", Namespace: j.Namespace, Name: j.Name, Desired: replicasOr1(j.Spec.Parallelism), Ready: j.Status.Ready, Template: &j.Spec.Template, Selector: j.Spec.Selector})
		}
	}
	for _, cj := range m.CronJobs() {
		// The pods the active Jobs want and have ready; the Jobs' own
		// selectors are generated per Job, so the CronJob has none.
		w := Workload{Kind: "cronjob", Namespace: cj.Namespace, Name: cj.Name, Template: &cj.Spec.JobTemplate.Spec.Template}
		for _, name := range cj.Status.Active {
			if j := m.Job(cj.Namespace, name); j != nil {
				w.Desired += replicasOr1(j.Spec.Parallelism)
				w.Ready += j.Status.Ready
			}
		}
		out = append(out, w)
	}
	bare := map[string]int32{}
	for _, p := range s.eng.Pods() {
		if p.ControllerRef() == nil && !p.IsTerminal() {
			bare[p.Namespace]++
		}
	}
	var nss []string
	for ns := range bare {
		nss = append(nss, ns)
	}
	sort.Strings(nss)
	for _, ns := range nss {
		out = append(out, Workload{Kind: "pods", Namespace: ns, Name: "(no controller)", Desired: bare[ns]})
	}
	return out
}

// replicasOr1 is a replica count (or parallelism) with the API's default
// of 1 when unset.
func replicasOr1(p *int32) int32 {
	if p == nil {
		return 1
	}
	return *p
}

// WorkloadOf names the workload a pod belongs to (its top-level owner):
// "deployment/web", "statefulset/db", "cronjob/tick", or "" for a bare pod.
func (s *Session) WorkloadOf(p *api.Pod) (kind, name string) {
	ref := p.ControllerRef()
	if ref == nil {
		return "", ""
	}
	return s.workloadOfOwner(p.Namespace, ref.Kind, ref.Name)
}

// workloadOfOwner is WorkloadOf for a pod's controller.
func (s *Session) workloadOfOwner(namespace, refKind, refName string) (kind, name string) {
	switch refKind {
	case controllers.KindReplicaSet:
		if rs := s.ctl.ReplicaSet(namespace, refName); rs != nil {
			if kind, name := parentWorkload(&rs.ObjectMeta); kind != "" {
				return kind, name
			}
		}
	case controllers.KindJob:
		if j := s.ctl.Job(namespace, refName); j != nil {
			if kind, name := parentWorkload(&j.ObjectMeta); kind != "" {
				return kind, name
			}
		}
	}
	return strings.ToLower(refKind), refName
}

// SpreadView is one topology spread constraint of a workload as the
// scheduler sees it for the workload's next pod: counts per domain, the
// global minimum and the skew, computed by the PodTopologySpread plugin
// itself.
type SpreadView struct {
	podtopologyspread.ConstraintExplanation
	// Default is true when the constraint comes from the cluster's default
	// constraints (the template sets none).
	Default bool
	// CurrentSkew is max − min over the eligible domains now.
	CurrentSkew int
}

// Spread explains the spread constraints of a workload's next pod.
func (s *Session) Spread(w Workload) []SpreadView {
	if w.Template == nil || s.sched == nil {
		return nil
	}
	// The next pod carries the labels of the newest pod (pod-template-hash
	// of the current revision) and the owner, so matchLabelKeys and the
	// default constraints apply as they would.
	var newest *api.Pod
	for _, p := range s.workloadPods(w.Kind, w.Namespace, w.Name) {
		if newest == nil || p.CreationTimestamp > newest.CreationTimestamp {
			newest = p
		}
	}
	return s.spread(w, newest)
}

// spread is Spread with the workload's newest pod found by the caller
// (newestSpreadPod over newestByOwner when there are many
// workloads).
func (s *Session) spread(w Workload, newest *api.Pod) []SpreadView {
	if w.Template == nil || s.sched == nil {
		return nil
	}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: w.Namespace, Name: w.Name + "-next", Labels: copyMap(w.Template.Labels)}, Spec: w.Template.Spec}
	if newest != nil {
		pod.Labels = copyMap(newest.Labels)
		pod.OwnerReferences = newest.OwnerReferences
	}
	api.DefaultPod(pod)
	// the plugin's account on the first node that has one, as Explain
	// would give it, without explaining every node and plugin
	d, _ := s.sched.ExplainPlugin(framework.NewPodInfo(pod), podtopologyspread.Name, func(x any) bool {
		e, ok := x.(*podtopologyspread.Explanation)
		return ok && e != nil && (len(e.Hard) > 0 || len(e.Soft) > 0)
	}).(*podtopologyspread.Explanation)
	if d == nil {
		return nil
	}
	isDefault := len(w.Template.Spec.TopologySpreadConstraints) == 0
	var out []SpreadView
	for _, c := range append(append([]podtopologyspread.ConstraintExplanation(nil), d.Hard...), d.Soft...) {
		v := SpreadView{ConstraintExplanation: c, Default: isDefault}
		lo, hi, any := 0, 0, false
		for _, dc := range c.Domains {
			if !dc.Eligible {
				continue
			}
			if !any {
				lo, hi, any = dc.Count, dc.Count, true
			}
			lo, hi = min(lo, dc.Count), max(hi, dc.Count)
		}
		v.CurrentSkew = hi - lo
		out = append(out, v)
	}
	return out
}
