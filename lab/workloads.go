package lab

import (
	"fmt"
	"sort"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers"
)

// parentWorkload is the workload (command-language kind and name) that
// controls a ReplicaSet or a Job: its Deployment or CronJob, or "" when it
// stands alone. Workloads, WorkloadOf and workloadPods all follow it.
func parentWorkload(m *api.ObjectMeta) (kind, name string) {
	ref := m.ControllerRef()
	if ref == nil {
		return "", ""
	}
	switch ref.Kind {
	case controllers.KindDeployment:
		return "deployment", ref.Name
	case controllers.KindCronJob:
		return "cronjob", ref.Name
	}
	return "", ""
}

// workloadPods returns the pods a workload controls (through its
// ReplicaSets for a Deployment, its Jobs for a CronJob), sorted by key.
func (s *Session) workloadPods(kind, ns, name string) []*api.Pod {
	owners := s.workloadOwners(kind, ns, name)
	var out []*api.Pod
	for _, p := range s.eng.Pods() {
		if p.Namespace != ns {
			continue
		}
		if ref := p.ControllerRef(); ref != nil && owners[ref.Kind+"/"+ref.Name] {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

// workloadOwners is the "Kind/name" of the direct owners of a workload's
// pods (its ReplicaSets, its Jobs, or itself).
func (s *Session) workloadOwners(kind, ns, name string) map[string]bool {
	owners := map[string]bool{} // "Kind/name" of direct pod owners
	switch kind {
	case "deployment":
		for _, rs := range s.ctl.ReplicaSets() {
			if k, n := parentWorkload(&rs.ObjectMeta); rs.Namespace == ns && k == kind && n == name {
				owners[controllers.KindReplicaSet+"/"+rs.Name] = true
			}
		}
	case "cronjob":
		for _, j := range s.ctl.Jobs() {
			if k, n := parentWorkload(&j.ObjectMeta); j.Namespace == ns && k == kind && n == name {
				owners[controllers.KindJob+"/"+j.Name] = true
			}
		}
	default:
		owners[controllerKind(kind)+"/"+name] = true
	}
	return owners
}

// newerPod is the order Spread picks a workload's newest pod by: the
// latest creation, the first key among equals.
func newerPod(p, than *api.Pod) bool {
	if than == nil || p.CreationTimestamp != than.CreationTimestamp {
		return than == nil || p.CreationTimestamp > than.CreationTimestamp
	}
	return p.Key() < than.Key()
}

// newestByOwner is each direct owner's newest pod, keyed
// "namespace/Kind/name": one pass over the pods for every workload's
// spread (Fork.Compare), not one per workload.
func (s *Session) newestByOwner() map[string]*api.Pod {
	out := map[string]*api.Pod{}
	s.eng.EachPod(func(p *api.Pod, _ engine.PodState) {
		ref := p.ControllerRef()
		if ref == nil {
			return
		}
		k := p.Namespace + "/" + ref.Kind + "/" + ref.Name
		if newerPod(p, out[k]) {
			out[k] = p
		}
	})
	return out
}

// workloadStatus is `kubectl rollout status`-like text.
func (s *Session) workloadStatus(kind, ns, name string) string {
	switch kind {
	case "deployment":
		if d := s.ctl.Deployment(ns, name); d != nil {
			want := replicasOr1(d.Spec.Replicas)
			st := d.Status
			if st.UpdatedReplicas == want && st.Replicas == want && st.AvailableReplicas == want {
				return fmt.Sprintf("deployment %q successfully rolled out", name)
			}
			return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d of %d updated replicas are available (%d updated, %d total)...",
				name, st.AvailableReplicas, want, st.UpdatedReplicas, st.Replicas)
		}
	case "statefulset":
		if ss := s.ctl.StatefulSet(ns, name); ss != nil {
			want := replicasOr1(ss.Spec.Replicas)
			if ss.Status.ReadyReplicas == want && ss.Status.UpdatedReplicas == want {
				return fmt.Sprintf("partitioned roll out complete: %d new pods have been updated...", want)
			}
			return fmt.Sprintf("Waiting for %d pods to be ready...", want-ss.Status.ReadyReplicas)
		}
	case "daemonset":
		if ds := s.ctl.DaemonSet(ns, name); ds != nil {
			st := ds.Status
			if st.UpdatedNumberScheduled == st.DesiredNumberScheduled && st.NumberAvailable == st.DesiredNumberScheduled {
				return fmt.Sprintf("daemon set %q successfully rolled out", name)
			}
			return fmt.Sprintf("Waiting for daemon set %q rollout to finish: %d of %d updated pods are available...", name, st.NumberAvailable, st.DesiredNumberScheduled)
		}
	}
	return fmt.Sprintf("%s/%s not found", kind, name)
}

// newestSpreadPod is the newest pod of a workload from newestByOwner, as
// Spread picks it.
func (s *Session) newestSpreadPod(w Workload, byOwner map[string]*api.Pod) *api.Pod {
	var newest *api.Pod
	for o := range s.workloadOwners(w.Kind, w.Namespace, w.Name) {
		if p := byOwner[w.Namespace+"/"+o]; p != nil && newerPod(p, newest) {
			newest = p
		}
	}
	return newest
}
