package controllers

import (
	"fmt"
	"sort"
	"time"

	"podlab.dev/podlab/engine/api"
)

// Epoch is the wall-clock instant virtual time 0 stands for, used where
// Kubernetes writes wall-clock time into objects (kubectl rollout restart's
// restartedAt) and where CronJob schedules are evaluated. A fixed instant
// keeps runs reproducible: 2026-01-01T00:00:00Z, a Thursday.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// WallClock maps a virtual instant to wall-clock time.
func WallClock(t api.Time) time.Time { return Epoch.Add(time.Duration(t)) }

// Scale sets spec.replicas of a Deployment, ReplicaSet or StatefulSet, as
// `kubectl scale`.
func (m *Manager) Scale(kind, namespace, name string, replicas int32) error {
	if replicas < 0 {
		return fmt.Errorf("scale %s/%s: replicas must be >= 0, got %d", kind, name, replicas)
	}
	k := key(namespace, name)
	switch kind {
	case KindDeployment:
		if d := m.deployments[k]; d != nil {
			d.Spec.Replicas = ptr(replicas)
			d.Generation++
			m.workloadsChanged() // a new scale: every skipped sync looks again
			return nil
		}
	case KindReplicaSet:
		if rs := m.replicaSets[k]; rs != nil {
			rs.Spec.Replicas = ptr(replicas)
			rs.Generation++
			m.workloadsChanged() // a new scale: every skipped sync looks again
			return nil
		}
	case KindReplicationController:
		if rc := m.replicationControllers[k]; rc != nil {
			rc.Spec.Replicas = ptr(replicas)
			rc.Generation++
			m.workloadsChanged() // a new scale: every skipped sync looks again
			return nil
		}
	case KindStatefulSet:
		if s := m.statefulSets[k]; s != nil {
			s.Spec.Replicas = ptr(replicas)
			s.Generation++
			m.workloadsChanged() // a new scale: every skipped sync looks again
			return nil
		}
	default:
		return fmt.Errorf("scale: kind %s has no replicas (use Deployment, ReplicaSet, ReplicationController or StatefulSet)", kind)
	}
	return fmt.Errorf("scale: %s %q not found", kind, k)
}

// UpdateDeployment applies an edit to a Deployment's spec (a template edit
// starts a new rollout), as `kubectl edit`/`apply`; the edited spec must
// still be valid.
func (m *Manager) UpdateDeployment(namespace, name string, edit func(*api.DeploymentSpec)) error {
	d := m.Deployment(namespace, name)
	if d == nil {
		return fmt.Errorf("deployment %q not found", key(namespace, name))
	}
	spec := d.Spec
	spec.Template = copyTemplate(&d.Spec.Template)
	edit(&spec)
	defaultDeployment(&spec)
	if err := validateDeploymentSpec(&spec); err != nil {
		return fmt.Errorf("deployment %s: %w", d.Key(), err)
	}
	sel, err := compileWorkloadSelector(spec.Selector, spec.Template.Labels)
	if err != nil {
		return fmt.Errorf("deployment %s: %w", d.Key(), err)
	}
	if sel.String() != d.selector.String() {
		// apps/v1 validation: the selector of an existing workload is immutable.
		return fmt.Errorf("deployment %s: spec.selector: Invalid value: %q: field is immutable", d.Key(), sel.String())
	}
	if specEqual(d.Spec, spec) {
		return nil // the API server keeps the generation when nothing changed
	}
	d.Spec, d.selector = spec, sel
	d.Generation++
	m.changed = true
	return nil
}

// SetImage is `kubectl set image deployment/NAME CONTAINER=IMAGE`.
func (m *Manager) SetImage(namespace, name, container, image string) error {
	found := false
	err := m.UpdateDeployment(namespace, name, func(s *api.DeploymentSpec) {
		for i := range s.Template.Spec.Containers {
			if s.Template.Spec.Containers[i].Name == container {
				s.Template.Spec.Containers[i].Image = image
				found = true
			}
		}
	})
	if err == nil && !found {
		return fmt.Errorf("unable to find container named %q", container)
	}
	return err
}

// Restart is `kubectl rollout restart`: it stamps the template with
// kubectl.kubernetes.io/restartedAt (RFC 3339 wall-clock time, see Epoch),
// which creates a new revision.
func (m *Manager) Restart(namespace, name string) error {
	if d := m.Deployment(namespace, name); d != nil && d.Spec.Paused {
		return fmt.Errorf("can't restart paused deployment (run rollout resume first)")
	}
	return m.UpdateDeployment(namespace, name, func(s *api.DeploymentSpec) {
		s.Template.Annotations = cloneMap(s.Template.Annotations)
		s.Template.Annotations[RestartedAtAnnotation] = WallClock(m.now).Format(time.RFC3339)
	})
}

// Pause and Resume are `kubectl rollout pause|resume`.
func (m *Manager) Pause(namespace, name string, paused bool) error {
	return m.UpdateDeployment(namespace, name, func(s *api.DeploymentSpec) { s.Paused = paused })
}

// Revision is one entry of `kubectl rollout history`.
type Revision struct {
	Revision   int64
	ReplicaSet string
	Replicas   int32
	// ChangeCause is the kubernetes.io/change-cause annotation.
	ChangeCause string
	Current     bool
}

// History is `kubectl rollout history deployment/NAME`: one entry per
// ReplicaSet the Deployment controls, by revision.
func (m *Manager) History(namespace, name string) ([]Revision, error) {
	d := m.Deployment(namespace, name)
	if d == nil {
		return nil, fmt.Errorf("deployment %q not found", key(namespace, name))
	}
	cur := d.Annotations[RevisionAnnotation]
	var out []Revision
	for _, rs := range m.ownedReplicaSets(d) {
		out = append(out, Revision{Revision: revision(&rs.ObjectMeta), ReplicaSet: rs.Name, Replicas: *rs.Spec.Replicas,
			ChangeCause: rs.Annotations["kubernetes.io/change-cause"], Current: rs.Annotations[RevisionAnnotation] == cur})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Revision < out[j].Revision })
	return out, nil
}

func (m *Manager) ownedReplicaSets(d *Deployment) []*ReplicaSet {
	var out []*ReplicaSet
	// the sorted keys are cached per epoch: the spread report asks once
	// per Deployment
	for _, k := range namespaceKeys(keysOf(m, m.replicaSets), d.Namespace) {
		if rs := m.replicaSets[k]; rs.Namespace == d.Namespace && isControlledBy(&rs.ObjectMeta, d.UID) {
			out = append(out, rs)
		}
	}
	return out
}

// Undo is `kubectl rollout undo [--to-revision=N]` (kubectl's
// DeploymentRollbacker): the template of the ReplicaSet with that revision
// (the previous one when toRevision is 0) is copied back into the
// Deployment, without its pod-template-hash label, with its annotations.
// It returns kubectl's output line.
func (m *Manager) Undo(namespace, name string, toRevision int64) (string, error) {
	d := m.Deployment(namespace, name)
	if d == nil {
		return "", fmt.Errorf("deployment %q not found", key(namespace, name))
	}
	if d.Spec.Paused {
		return "", fmt.Errorf("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again")
	}
	owned := m.ownedReplicaSets(d)
	if toRevision == 0 {
		toRevision = lastRevision(owned)
		if toRevision == 0 {
			return "", fmt.Errorf("no rollout history found for deployment %q", name)
		}
	}
	var target *ReplicaSet
	for _, rs := range owned {
		if revision(&rs.ObjectMeta) == toRevision {
			target = rs
		}
	}
	if target == nil {
		return "", fmt.Errorf("unable to find specified revision %d in history", toRevision)
	}
	if templatesEqual(&target.Spec.Template, &d.Spec.Template) {
		return fmt.Sprintf("deployment.apps/%s skipped rollback (current template already matches revision %d)", name, toRevision), nil
	}
	tmpl := copyTemplate(&target.Spec.Template)
	delete(tmpl.Labels, api.LabelPodTemplateHash)
	annotations := map[string]string{}
	for k, v := range d.Annotations {
		if skipCopyAnnotation(k) {
			annotations[k] = v
		}
	}
	for k, v := range target.Annotations {
		if !skipCopyAnnotation(k) {
			annotations[k] = v
		}
	}
	if err := m.UpdateDeployment(namespace, name, func(s *api.DeploymentSpec) { s.Template = tmpl }); err != nil {
		return "", err
	}
	d.Annotations = annotations
	return fmt.Sprintf("deployment.apps/%s rolled back", name), nil
}

// RolloutStatus is `kubectl rollout status deployment/NAME` (kubectl's
// DeploymentStatusViewer): the line it prints and whether the rollout is
// done; a rollout past its progress deadline is an error.
func (m *Manager) RolloutStatus(namespace, name string) (string, bool, error) {
	d := m.Deployment(namespace, name)
	if d == nil {
		return "", false, fmt.Errorf("deployment %q not found", key(namespace, name))
	}
	if d.Generation > d.Status.ObservedGeneration {
		return "Waiting for deployment spec update to be observed...", false, nil
	}
	if c := d.condition(DeploymentProgressing); c != nil && c.Reason == reasonTimedOut {
		return "", false, fmt.Errorf("deployment %q exceeded its progress deadline", name)
	}
	st, want := d.Status, *d.Spec.Replicas
	switch {
	case st.UpdatedReplicas < want:
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d out of %d new replicas have been updated...", name, st.UpdatedReplicas, want), false, nil
	case st.Replicas > st.UpdatedReplicas:
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d old replicas are pending termination...", name, st.Replicas-st.UpdatedReplicas), false, nil
	case st.AvailableReplicas < st.UpdatedReplicas:
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d of %d updated replicas are available...", name, st.AvailableReplicas, st.UpdatedReplicas), false, nil
	}
	return fmt.Sprintf("deployment %q successfully rolled out", name), true, nil
}
