// Package podside runs podlab's own scheduler (engine/scheduler, default
// profile, name tie-break) on a scenario file loaded through podlab's
// manifest loader and admission, and reports the outcome in the same
// side-neutral form as package real.
package podside

import (
	"fmt"
	"time"

	"podlab.dev/podlab/engine/admission"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab/manifest"
)

// Epoch is the instant api.Time 0 stands for. Start times the harness
// synthesizes (bound pods without status.startTime, pods it binds) are
// the same instants on both sides: see scenario.StartEpoch and
// real.BindEpoch.
var Epoch = time.Date(2029, 1, 1, 0, 0, 0, 0, time.UTC)

// BindEpoch mirrors real.BindEpoch (kept equal by a test).
var BindEpoch = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

// Scenario is a scenario file as podlab reads it.
type Scenario struct {
	Nodes      []*api.Node
	Bound      []*api.Pod
	Pending    []*api.Pod
	Namespaces []*api.Namespace
	PDBs       []*api.PodDisruptionBudget
	// ReplicaSets own pods: their selectors drive the default topology
	// spread constraints, with the Services selecting a pod.
	ReplicaSets []*api.ReplicaSet
	Services    []*api.Service
	// SchedulerConfig is the scenario's KubeSchedulerConfiguration (nil:
	// the default profile).
	SchedulerConfig *manifest.SchedulerConfiguration
}

// Load decodes a scenario with lab/manifest, then defaults and admits
// every pod with engine/admission (as podlab does when objects are
// created) and defaults the nodes.
func Load(name string, data []byte) (*Scenario, error) {
	objs, err := manifest.Load(name, data, manifest.Options{Reference: Epoch})
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", name, err)
	}
	classes := map[string]*api.PriorityClass{}
	for _, pc := range objs.PriorityClasses {
		classes[pc.Name] = pc
	}
	s := &Scenario{Namespaces: objs.Namespaces, PDBs: objs.PodDisruptionBudgets, ReplicaSets: objs.ReplicaSets, Services: objs.Services}
	if len(objs.SchedulerConfigs) > 0 {
		s.SchedulerConfig = objs.SchedulerConfigs[0]
	}
	for _, rs := range s.ReplicaSets {
		if rs.Namespace == "" {
			rs.Namespace = "default"
		}
	}
	for _, n := range objs.Nodes {
		api.DefaultNode(n)
		s.Nodes = append(s.Nodes, n)
	}
	for _, p := range objs.Pods {
		if err := admission.AdmitPod(p, classes); err != nil {
			return nil, fmt.Errorf("admit pod %s: %w", p.Key(), err)
		}
		switch {
		case p.IsTerminal():
		case p.Spec.NodeName != "":
			s.Bound = append(s.Bound, p)
		default:
			s.Pending = append(s.Pending, p)
		}
	}
	for i, p := range s.Bound {
		if p.Status.StartTime == nil {
			t := api.Time(time.Duration(i) * time.Second)
			p.Status.StartTime = &t
		}
	}
	for _, pdb := range s.PDBs {
		if pdb.Namespace == "" {
			pdb.Namespace = "default"
		}
	}
	return s, nil
}

// pdbStatus mirrors scenario.PDBStatus on podlab's types (the harness's
// rule for budgets given without a status).
func pdbStatus(pdb *api.PodDisruptionBudget, bound []*api.Pod) api.PDBStatus {
	var expected int32
	if pdb.Spec.Selector != nil {
		if sel, err := api.CompileSelector(pdb.Spec.Selector); err == nil {
			for _, p := range bound {
				if p.Namespace == pdb.Namespace && !p.IsTerminating() && sel.Matches(p.Labels) {
					expected++
				}
			}
		}
	}
	var desired int32
	switch {
	case pdb.Spec.MinAvailable != nil:
		desired = scaled(pdb.Spec.MinAvailable, expected)
	case pdb.Spec.MaxUnavailable != nil:
		desired = max(expected-scaled(pdb.Spec.MaxUnavailable, expected), 0)
	}
	return api.PDBStatus{
		ExpectedPods: expected, CurrentHealthy: expected, DesiredHealthy: desired,
		DisruptionsAllowed: max(expected-desired, 0),
	}
}

// scaled is intstr.GetScaledValueFromIntOrPercent with roundUp (podlab's
// api.IntOrString.ScaledValue; an invalid value counts as 0).
func scaled(v *api.IntOrString, total int32) int32 {
	n, _ := v.ScaledValue(total, true)
	return n
}

// OwnerSelectors returns the SpreadSelectors hook the lab uses (the
// selector of the pod's controlling ReplicaSet, looked up by name as
// helper.DefaultSelector does; Nothing when there is none).
func (s *Scenario) OwnerSelectors() func(*api.Pod) api.Selector {
	byKey := map[string]*api.ReplicaSet{}
	for _, rs := range s.ReplicaSets {
		byKey[rs.Namespace+"/"+rs.Name] = rs
	}
	owner := func(p *api.Pod) *api.Selector {
		ref := p.ControllerRef()
		if ref == nil || ref.Kind != "ReplicaSet" {
			return nil
		}
		rs := byKey[p.Namespace+"/"+ref.Name]
		if rs == nil || rs.Spec.Selector == nil {
			return nil
		}
		sel, err := api.CompileSelector(rs.Spec.Selector)
		if err != nil {
			return nil
		}
		return &sel
	}
	return func(p *api.Pod) api.Selector {
		return api.DefaultSelector(p, s.Services, owner(p))
	}
}
