package manifest

import (
	"os"
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
)

func loadFile(t *testing.T, path string) *Objects {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := Load(path, data, Options{KeepFieldPositions: true})
	if err != nil {
		t.Fatalf("Load(%s): %v", path, err)
	}
	return objs
}

func TestLoadBasicKinds(t *testing.T) {
	objs := loadFile(t, "testdata/basic.yaml")
	if len(objs.Nodes) != 1 || len(objs.Pods) != 1 || len(objs.PriorityClasses) != 1 || len(objs.PodDisruptionBudgets) != 1 {
		t.Fatalf("counts: %d nodes %d pods %d classes %d pdbs", len(objs.Nodes), len(objs.Pods), len(objs.PriorityClasses), len(objs.PodDisruptionBudgets))
	}
	if len(objs.Warnings) != 0 {
		t.Errorf("unexpected warnings: %v", objs.Warnings)
	}
	n := objs.Nodes[0]
	if n.Status.Allocatable[api.ResourceCPU] != api.Milli(3800) || n.Status.Capacity[api.ResourceMemory] != api.Units(8<<30) {
		t.Errorf("node resources: %v / %v", n.Status.Allocatable, n.Status.Capacity)
	}
	if len(n.Spec.Taints) != 1 || n.Spec.Taints[0].String() != "dedicated=gpu:NoSchedule" {
		t.Errorf("taints: %v", n.Spec.Taints)
	}
	// the pod's creationTimestamp is the newest time in the file: 0; the
	// node condition an hour older: -3600s.
	if got := n.Status.Conditions[0].LastTransitionTime.String(); got != "-3600s" {
		t.Errorf("condition time = %s, want -3600s", got)
	}
	p := objs.Pods[0]
	if p.Namespace != "default" || p.Spec.PriorityClassName != "high-priority" {
		t.Errorf("pod meta/spec: %q %q", p.Namespace, p.Spec.PriorityClassName)
	}
	c := p.Spec.TopologySpreadConstraints
	if len(c) != 1 || c[0].MaxSkew != 1 || c[0].TopologyKey != "zone" || c[0].LabelSelector.MatchLabels["foo"] != "bar" {
		t.Errorf("spread constraints: %+v", c)
	}
	if got := p.Spec.Containers[0].Resources.Limits[api.ResourceCPU]; got != api.Milli(200) {
		t.Errorf("cpu limit = %v", got)
	}
	if got := objs.PosOf(p).String(); got != "testdata/basic.yaml:39:1" {
		t.Errorf("pod position = %s", got)
	}
	if got := objs.FieldPos(p, "spec.topologySpreadConstraints[0].maxSkew").String(); got != "testdata/basic.yaml:49:14" {
		t.Errorf("maxSkew position = %s", got)
	}
	pdb := objs.PodDisruptionBudgets[0]
	if pdb.Spec.MinAvailable == nil || pdb.Spec.MinAvailable.IsString || pdb.Spec.MinAvailable.IntVal != 2 || pdb.Status.StatusGiven {
		t.Errorf("pdb: %+v", pdb.Spec)
	}
	if pc := objs.PriorityClasses[0]; pc.Value != 1000000 || pc.GlobalDefault || !strings.HasPrefix(pc.Description, "This priority") {
		t.Errorf("priority class: %+v", pc)
	}
	if m := objs.PriorityClassMap(); len(m) != 1 || m["high-priority"] != objs.PriorityClasses[0] {
		t.Errorf("PriorityClassMap = %v", m)
	}
	if len(objs.Order) != 4 || objs.Order[0] != any(n) || objs.Order[3] != any(p) {
		t.Errorf("order: %v", objs.Order)
	}
}
