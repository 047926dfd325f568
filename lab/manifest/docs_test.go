package manifest

import (
	"path/filepath"
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// Manifests as published on kubernetes.io load without errors, and
// without warnings except for kinds the lab does not model.
func TestDocManifestsLoadCleanly(t *testing.T) {
	files, err := filepath.Glob("testdata/docs/*.yaml")
	if err != nil || len(files) < 10 {
		t.Fatalf("doc manifests: %v %v", files, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			objs := loadFile(t, f)
			for _, w := range objs.Warnings {
				if !strings.Contains(w.Message, "kind not modelled by the lab") {
					t.Errorf("warning: %s", w)
				}
			}
			if len(objs.Order) == 0 {
				t.Error("no objects")
			}
		})
	}
}

func TestDocDeploymentDecoded(t *testing.T) {
	objs := loadFile(t, "testdata/docs/deployment-full.yaml")
	d := objs.Deployments[0]
	s := d.Spec
	if *s.Replicas != 3 || *s.RevisionHistoryLimit != 5 || s.MinReadySeconds != 5 || *s.ProgressDeadlineSeconds != 600 {
		t.Errorf("spec counts: %+v", s)
	}
	ru := s.Strategy.RollingUpdate
	if s.Strategy.Type != "RollingUpdate" || !ru.MaxSurge.IsString || ru.MaxSurge.StrVal != "25%" || ru.MaxUnavailable.IsString || ru.MaxUnavailable.IntVal != 1 {
		t.Errorf("strategy: %+v %+v %+v", s.Strategy, ru.MaxSurge, ru.MaxUnavailable)
	}
	pod := s.Template.Spec
	c := pod.Containers[0]
	if *pod.TerminationGracePeriodSeconds != 60 || len(pod.InitContainers) != 1 || c.Ports[0].ContainerPort != 80 {
		t.Errorf("template: %+v", pod)
	}
	if *c.ProbeTerminationGracePeriodSeconds != 10 || c.Lifecycle.PreStop.ExecCommand[0] != "/bin/sh" {
		t.Errorf("probe grace / preStop: %v %+v", c.ProbeTerminationGracePeriodSeconds, c.Lifecycle.PreStop)
	}
	if c.Resources.Requests[api.ResourceMemory] != api.Units(64<<20) || c.Resources.Limits[api.ResourceCPU] != api.Milli(500) {
		t.Errorf("resources: %+v", c.Resources)
	}
	if s.Template.Labels["app"] != "nginx" || s.Template.Annotations["prometheus.io/scrape"] != "true" {
		t.Errorf("template meta: %+v", s.Template.ObjectMeta)
	}
}

func TestDocWorkloadsDecoded(t *testing.T) {
	sts := loadFile(t, "testdata/docs/statefulset-web.yaml").StatefulSets[0]
	if sts.Spec.ServiceName != "nginx" || *sts.Spec.Replicas != 3 || sts.Spec.PodManagementPolicy != "Parallel" ||
		*sts.Spec.UpdateStrategy.RollingUpdate.Partition != 1 || sts.Spec.OrdinalsStart != 5 || sts.Spec.MinReadySeconds != 10 {
		t.Errorf("statefulset: %+v", sts.Spec)
	}
	ds := loadFile(t, "testdata/docs/daemonset-fluentd.yaml").DaemonSets[0]
	if ds.Namespace != "kube-system" || len(ds.Spec.Template.Spec.Tolerations) != 2 || ds.Spec.Selector.MatchLabels["name"] != "fluentd-elasticsearch" {
		t.Errorf("daemonset: %+v", ds)
	}
	job := loadFile(t, "testdata/docs/job-pi.yaml").Jobs[0]
	if *job.Spec.BackoffLimit != 4 || *job.Spec.TTLSecondsAfterFinished != 100 || *job.Spec.ActiveDeadlineSeconds != 100 ||
		*job.Spec.Completions != 5 || *job.Spec.Parallelism != 2 || job.Spec.Template.Spec.RestartPolicy != "Never" {
		t.Errorf("job: %+v", job.Spec)
	}
	cj := loadFile(t, "testdata/docs/cronjob-hello.yaml").CronJobs[0]
	if cj.Spec.Schedule != "* * * * *" || *cj.Spec.TimeZone != "Etc/UTC" || cj.Spec.ConcurrencyPolicy != "Forbid" ||
		*cj.Spec.SuccessfulJobsHistoryLimit != 3 || cj.Spec.JobTemplate.Spec.Template.Spec.RestartPolicy != "OnFailure" {
		t.Errorf("cronjob: %+v", cj.Spec)
	}
	pdbs := loadFile(t, "testdata/docs/pdb.yaml").PodDisruptionBudgets
	if mu := pdbs[1].Spec.MaxUnavailable; mu == nil || mu.StrVal != "30%" || *pdbs[1].Spec.UnhealthyPodEvictionPolicy != "AlwaysAllow" {
		t.Errorf("pdb: %+v", pdbs[1].Spec)
	}
	pcs := loadFile(t, "testdata/docs/priorityclass.yaml").PriorityClasses
	if *pcs[1].PreemptionPolicy != api.PreemptNever {
		t.Errorf("priority class: %+v", pcs[1])
	}
}

func TestDocPodLifecycleDecoded(t *testing.T) {
	p := loadFile(t, "testdata/docs/pod-lifecycle.yaml").Pods[0]
	s := p.Spec
	if *s.TerminationGracePeriodSeconds != 45 || s.SchedulingGates[0] != "example.com/foo" || !s.HostNetwork || s.NodeSelector["disktype"] != "ssd" {
		t.Errorf("spec: %+v", s)
	}
	if s.Resources.Limits[api.ResourceCPU] != api.Units(1) || s.Overhead[api.ResourceCPU] != api.Milli(250) {
		t.Errorf("pod resources/overhead: %+v %+v", s.Resources, s.Overhead)
	}
	if !s.InitContainers[0].IsSidecar() || *s.Containers[0].Lifecycle.PreStop.SleepSeconds != 20 || s.Containers[1].Lifecycle.PreStop.HTTPGetPath != "/shutdown" {
		t.Errorf("containers: %+v %+v", s.InitContainers, s.Containers)
	}
	if s.Containers[1].Ports[0].HostPort != 8080 || *s.Tolerations[0].TolerationSeconds != 3600 {
		t.Errorf("ports/tolerations: %+v %+v", s.Containers[1].Ports, s.Tolerations)
	}
	anti := s.Affinity.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0]
	if anti.Weight != 100 || anti.PodAffinityTerm.MatchLabelKeys[0] != "pod-template-hash" || anti.PodAffinityTerm.LabelSelector.MatchExpressions[0].Values[0] != "S2" {
		t.Errorf("anti-affinity: %+v", anti)
	}
	aff := s.Affinity.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0]
	if aff.NamespaceSelector == nil || len(aff.NamespaceSelector.MatchLabels) != 0 || aff.TopologyKey != api.LabelTopologyZone {
		t.Errorf("affinity: %+v", aff)
	}
}

// `kubectl get nodes,pods,services -o yaml`: a v1 List with status,
// managedFields and server-populated fields.
func TestKubectlList(t *testing.T) {
	objs := loadFile(t, "testdata/kubectl-list.yaml")
	if len(objs.Nodes) != 1 || len(objs.Pods) != 1 || len(objs.Services) != 1 {
		t.Fatalf("%d nodes, %d pods, %d services", len(objs.Nodes), len(objs.Pods), len(objs.Services))
	}
	var msgs []string
	for _, w := range objs.Warnings {
		msgs = append(msgs, w.String())
	}
	want := []string{
		`testdata/kubectl-list.yaml:1:1: ignored 3 managedFields entries`,
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}
	n, p := objs.Nodes[0], objs.Pods[0]
	if n.Status.Allocatable[api.ResourceMemory] != api.Units(32560904*1024) || n.Status.Allocatable[api.ResourcePods] != api.Units(110) {
		t.Errorf("allocatable: %v", n.Status.Allocatable)
	}
	if c := n.Condition(api.NodeReady); c == nil || c.Status != api.ConditionTrue || c.LastTransitionTime.String() != "-7175s" {
		t.Errorf("ready condition: %+v", c)
	}
	if n.CreationTimestamp.String() != "-7205s" || p.CreationTimestamp.String() != "-5s" || p.Status.StartTime.String() != "-4s" {
		t.Errorf("times: node %s pod %s start %s (reference %s)", n.CreationTimestamp, p.CreationTimestamp, p.Status.StartTime, objs.Reference)
	}
	if len(n.Status.Images) != 1 || n.Status.Images[0].SizeBytes != 57236178 {
		t.Errorf("images: %+v", n.Status.Images)
	}
	if p.Namespace != "shop" || p.Spec.NodeName != "kind-worker" || p.Status.Phase != api.PodRunning || p.ControllerRef().Name != "web-5d8b9c7f4" {
		t.Errorf("pod: %+v", p.ObjectMeta)
	}
	if cs := p.Status.ContainerStatuses[0]; !cs.Ready || cs.RestartCount != 2 || p.Condition(api.PodReady).Status != "True" {
		t.Errorf("pod status: %+v", p.Status)
	}
	if *p.Spec.Priority != 0 || *p.Spec.PreemptionPolicy != api.PreemptLowerPriority || p.Spec.ServiceAccount != "default" {
		t.Errorf("pod spec: %+v", p.Spec)
	}
}

func TestKubectlDeployment(t *testing.T) {
	objs := loadFile(t, "testdata/kubectl-deployment.yaml")
	if len(objs.Warnings) != 0 {
		t.Errorf("warnings: %v", objs.Warnings)
	}
	d := objs.Deployments[0]
	if _, ok := d.Annotations["kubectl.kubernetes.io/last-applied-configuration"]; ok {
		t.Error("last-applied-configuration kept")
	}
	if d.Annotations["deployment.kubernetes.io/revision"] != "1" || d.Generation != 1 || d.UID == "" {
		t.Errorf("meta: %+v", d.ObjectMeta)
	}
	if ru := d.Spec.Strategy.RollingUpdate; ru.MaxSurge.StrVal != "25%" || ru.MaxUnavailable.StrVal != "25%" {
		t.Errorf("strategy: %+v", ru)
	}
	if tpl := d.Spec.Template; tpl.CreationTimestamp != 0 || tpl.Spec.RestartPolicy != "Always" || tpl.Spec.SchedulerName != "default-scheduler" {
		t.Errorf("template: %+v", tpl)
	}
}
