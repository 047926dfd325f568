package manifest

import (
	"os"
	"strings"
	"testing"
	"time"

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

// A pod's recorded status is decoded with its times on the lab clock
// (the newest timestamp, 10:05:00, is t=0), and a ReplicationController
// gets its selector from the template.
func TestLoadPodStatus(t *testing.T) {
	data, err := os.ReadFile("testdata/pod-status.yaml")
	if err != nil {
		t.Fatal(err)
	}
	objs, err := Load("pod-status.yaml", data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := objs.Pods[0]
	if p.CreationTimestamp != api.Time(-5*time.Minute) || p.Status.StartTime == nil || *p.Status.StartTime != api.Time(-299*time.Second) {
		t.Errorf("created %v started %v, want -5m and -4m59s", p.CreationTimestamp, p.Status.StartTime)
	}
	if c := p.Condition(api.PodReady); c == nil || c.Status != api.ConditionFalse || c.LastTransitionTime != 0 {
		t.Errorf("Ready %+v, want False at 0", c)
	}
	cs := p.Status.ContainerStatuses[0]
	if cs.RestartCount != 7 || cs.State.Waiting == nil || cs.State.Waiting.Reason != "CrashLoopBackOff" ||
		cs.LastState.Terminated == nil || cs.LastState.Terminated.ExitCode != 1 || cs.LastState.Terminated.FinishedAt != 0 ||
		cs.LastState.Terminated.StartedAt != api.Time(-time.Minute) {
		t.Errorf("container status %+v (last %+v)", cs, cs.LastState.Terminated)
	}
	ic := p.Status.InitContainerStatuses[0]
	if ic.RestartCount != 2 || ic.Started == nil || !*ic.Started || ic.State.Running == nil || ic.State.Running.StartedAt != api.Time(-4*time.Minute) {
		t.Errorf("init container status %+v", ic)
	}
	rc := objs.ReplicationControllers[0]
	if rc.Spec.Selector["app"] != "web" || *rc.Spec.Replicas != 2 {
		t.Errorf("rc selector %v replicas %v, want app=web and 2", rc.Spec.Selector, *rc.Spec.Replicas)
	}
	c := rc.Spec.Template.Spec.Containers[0]
	if c.ReadinessProbe == nil || c.ReadinessProbe.PeriodSeconds != 5 || c.ReadinessProbe.SuccessThreshold != 2 || c.ReadinessProbe.Handler != "httpGet" ||
		c.LivenessProbe == nil || *c.LivenessProbe.TerminationGracePeriodSeconds != 5 || c.StartupProbe.FailureThreshold != 30 {
		t.Errorf("probes %+v %+v %+v", c.ReadinessProbe, c.LivenessProbe, c.StartupProbe)
	}
}
