package controllers

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
)

// KindReplicationController is v1 ReplicationController's kind.
const KindReplicationController = "ReplicationController"

const replicationControllerSource = "replication-controller"

// AddReplicationController adds a v1 ReplicationController. It runs as a
// ReplicaSet whose selector is the RC's label map, as upstream's
// replication manager does (pkg/controller/replication/replication_controller.go
// wraps replicaset.NewBaseController with conversion.go's adapters): the
// same adoption, scale-down ranking and status, with the RC's kind in the
// pods' owner references and events from "replication-controller".
func (m *Manager) AddReplicationController(obj *api.ReplicationController) (*ReplicaSet, error) {
	if _, ok := m.replicationControllers[key(obj.Namespace, obj.Name)]; ok {
		return nil, fmt.Errorf("replicationcontroller %s already exists", obj.Key())
	}
	rc := *obj
	api.DefaultReplicationController(&rc)
	if rc.Spec.Template == nil {
		return nil, fmt.Errorf("replicationcontroller %s: spec.template: Required value", rc.Key())
	}
	rs := &ReplicaSet{kind: KindReplicationController, ReplicaSet: api.ReplicaSet{
		ObjectMeta: rc.ObjectMeta,
		Spec: api.ReplicaSetSpec{Replicas: rc.Spec.Replicas, Selector: &api.LabelSelector{MatchLabels: rc.Spec.Selector},
			Template: *rc.Spec.Template, MinReadySeconds: rc.Spec.MinReadySeconds},
	}}
	m.initMeta(&rs.ObjectMeta)
	sel, err := compileWorkloadSelector(rs.Spec.Selector, rs.Spec.Template.Labels)
	if err == nil {
		err = validateReplicas(rs.Spec.Replicas)
	}
	if err != nil {
		return nil, fmt.Errorf("replicationcontroller %s: %w", rs.Key(), err)
	}
	rs.selector = sel
	if rs.CreationTimestamp == 0 && m.started {
		rs.CreationTimestamp = m.now
	}
	m.replicationControllers[rs.Key()] = rs
	m.known[rs.UID] = true
	m.workloadsChanged()
	return rs, nil
}

// ReplicationController returns the ReplicationController namespace/name
// (run as a ReplicaSet), or nil.
func (m *Manager) ReplicationController(namespace, name string) *ReplicaSet {
	return m.replicationControllers[key(namespace, name)]
}

// ReplicationControllers returns every ReplicationController sorted by
// namespace/name.
func (m *Manager) ReplicationControllers() []*ReplicaSet {
	out := make([]*ReplicaSet, 0, len(m.replicationControllers))
	for _, k := range sortedKeys(m.replicationControllers) {
		out = append(out, m.replicationControllers[k])
	}
	return out
}

// Kind is the object's kind: ReplicaSet, or ReplicationController for an
// RC run by the ReplicaSet controller.
func (rs *ReplicaSet) Kind() string {
	if rs.kind == "" {
		return KindReplicaSet
	}
	return rs.kind
}

// source is the event source of the controller running rs.
func (rs *ReplicaSet) source() string {
	if rs.Kind() == KindReplicationController {
		return replicationControllerSource
	}
	return replicaSetSource
}
