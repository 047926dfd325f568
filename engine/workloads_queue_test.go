package engine

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers"
	"podlab.dev/podlab/engine/kubelet"
)

// queueMode is how the controller manager of a run decides what to sync.
type queueMode int

const (
	modeFull   queueMode = iota // every object on every pass (the reference)
	modeMemo                    // SkipUnchangedSyncs without the work queues
	modeQueued                  // the work queues (engine.NewWorkloads)
)

// TestWorkQueuesAreInvisible runs a busy cluster with every workload kind
// three times — the work queues (as the engine runs), memoised syncs
// only, and every controller synced on every pass — and requires
// identical events, pods and statuses: Deployments (RollingUpdate with
// probes, minReadySeconds and HPAs on a load curve; a Recreate one),
// rollouts and an undo, a pause, scaling, a StatefulSet, a DaemonSet, a
// Job, a CronJob, a bare ReplicaSet adopting orphans created before and
// during the run, relabelled pods released and re-adopted, random pod
// deletions, workload deletions with every propagation policy, a clone
// mid-run, node NotReady flaps and memory pressure.
func TestWorkQueuesAreInvisible(t *testing.T) {
	ref := runQueueScenario(t, modeFull)
	if len(ref.events) < 1500 {
		t.Fatalf("only %d events: the scenario is too quiet to compare", len(ref.events))
	}
	for _, mode := range []queueMode{modeMemo, modeQueued} {
		got := runQueueScenario(t, mode)
		if !reflect.DeepEqual(got.events, ref.events) {
			for i := range min(len(got.events), len(ref.events)) {
				if got.events[i] != ref.events[i] {
					t.Fatalf("mode %d: event %d differs:\n got:  %+v\n full: %+v", mode, i, got.events[i], ref.events[i])
				}
			}
			t.Fatalf("mode %d: %d events, %d with full syncs", mode, len(got.events), len(ref.events))
		}
		if got.pods != ref.pods {
			t.Errorf("mode %d: pods differ:\n%s\nfull:\n%s", mode, got.pods, ref.pods)
		}
		if got.status != ref.status {
			t.Errorf("mode %d: workload status differs:\n%s\nfull:\n%s", mode, got.status, ref.status)
		}
	}
}

type queueRun struct {
	events       []Event
	pods, status string
}

func runQueueScenario(t *testing.T, mode queueMode) queueRun {
	e := New(Config{Seed: 5, NewScheduler: DefaultScheduler})
	for n := 0; n < 12; n++ {
		nd := node(fmt.Sprintf("node-%02d", n), "8", "32Gi")
		nd.Labels[api.LabelTopologyZone] = fmt.Sprintf("zone-%d", n%3)
		must(t, e.AddNode(nd))
	}
	res := func(cpu string) api.ResourceRequirements {
		return api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: q(cpu), api.ResourceMemory: q("512Mi")}}
	}
	tmpl := func(app string, ann map[string]string) api.PodTemplateSpec {
		return api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": app}, Annotations: ann},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: app + ":1", Resources: res("250m")}}}}
	}
	sel := func(app string) *api.LabelSelector {
		return &api.LabelSelector{MatchLabels: map[string]string{"app": app}}
	}
	bare := func(ns, name, app string) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"app": app}},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: app + ":0", Resources: res("100m")}}}}
	}
	// orphans present before the controllers start: the bare ReplicaSet
	// adopts them
	must(t, e.CreatePod(bare("shop", "cart-orphan-a", "cart")))
	must(t, e.CreatePod(bare("shop", "cart-orphan-b", "cart")))
	w := e.NewWorkloads(2)
	m := w.Manager
	switch mode {
	case modeFull:
		m.SkipUnchangedSyncs(false)
	case modeMemo:
		m.SkipUnchangedSyncs(false)
		m.SkipUnchangedSyncs(true)
	}
	for d := 0; d < 6; d++ {
		name := fmt.Sprintf("app-%d", d)
		tp := tmpl(name, map[string]string{kubelet.AnnotationMemoryUsage: fmt.Sprintf("%d%%", 80+d*10)})
		if d%2 == 0 {
			tp.Spec.Containers[0].ReadinessProbe = &api.Probe{Handler: "httpGet", PeriodSeconds: 10}
			tp.Annotations[kubelet.AnnotationReadyAfter] = "15s"
		}
		r := int32(5)
		_, err := m.AddDeployment(&api.Deployment{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec: api.DeploymentSpec{Replicas: &r, MinReadySeconds: int32(d % 3 * 5), Selector: sel(name), Template: tp}})
		must(t, err)
		if d%3 != 0 {
			continue
		}
		minR, pct := int32(2), int32(50)
		_, err = m.AddHPA(&api.HorizontalPodAutoscaler{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec: api.HorizontalPodAutoscalerSpec{
				ScaleTargetRef: api.CrossVersionObjectReference{Kind: controllers.KindDeployment, Name: name, APIVersion: "apps/v1"},
				MinReplicas:    &minR, MaxReplicas: 10,
				Metrics: []api.MetricSpec{{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Name: api.ResourceCPU,
					Target: api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: &pct}}}}}})
		must(t, err)
		for s, f := range []int64{100, 250, 60, 180} {
			must(t, m.SetLoad(controllers.KindDeployment, "default", name, controllers.LoadStep{At: sec(float64(s * 150)), MilliCPU: 5 * 125 * f / 100}))
		}
	}
	r3 := int32(3)
	_, err := m.AddDeployment(&api.Deployment{ObjectMeta: api.ObjectMeta{Name: "batch-api", Namespace: "shop"},
		Spec: api.DeploymentSpec{Replicas: &r3, Selector: sel("batch-api"), Template: tmpl("batch-api", nil),
			Strategy: api.DeploymentStrategy{Type: api.RecreateDeploymentStrategyType}}})
	must(t, err)
	_, err = m.AddReplicaSet(&api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "cart", Namespace: "shop"},
		Spec: api.ReplicaSetSpec{Replicas: &r3, Selector: sel("cart"), Template: tmpl("cart", nil)}})
	must(t, err)
	_, err = m.AddStatefulSet(&api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "shop"},
		Spec: api.StatefulSetSpec{Replicas: &r3, Selector: sel("db"), ServiceName: "db", Template: tmpl("db", nil)}})
	must(t, err)
	_, err = m.AddDaemonSet(&api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "agent", Namespace: "kube-system"},
		Spec: api.DaemonSetSpec{Selector: sel("agent"), Template: tmpl("agent", nil)}})
	must(t, err)
	jt := tmpl("report", map[string]string{controllers.AnnotationRunFor: "40s"})
	jt.Spec.RestartPolicy = "Never"
	six, two := int32(6), int32(2)
	_, err = m.AddJob(&api.Job{ObjectMeta: api.ObjectMeta{Name: "report", Namespace: "shop"},
		Spec: api.JobSpec{Completions: &six, Parallelism: &two, Template: jt}})
	must(t, err)
	ct := tmpl("tick", map[string]string{controllers.AnnotationRunFor: "20s"})
	ct.Spec.RestartPolicy = "Never"
	_, err = m.AddCronJob(&api.CronJob{ObjectMeta: api.ObjectMeta{Name: "tick", Namespace: "shop"},
		Spec: api.CronJobSpec{Schedule: "*/2 * * * *", JobTemplate: api.JobTemplateSpec{Spec: api.JobSpec{Template: ct}}}})
	must(t, err)
	m.Start()
	e.Settle()
	relabel := func(key string, labels map[string]string) {
		if p := e.Pod(key); p != nil {
			_ = e.ControllerCluster().SetPodOwnership(p.Namespace, p.Name, labels, p.OwnerReferences)
			e.Settle()
		}
	}
	firstOf := func(prefix string) string {
		for _, p := range e.Pods() {
			if strings.HasPrefix(p.Key(), prefix) && p.DeletionTimestamp == nil {
				return p.Key()
			}
		}
		return ""
	}
	r := rand.New(rand.NewPCG(9, 10))
	for s := 1; s <= 1000; s++ {
		must(t, e.Step(time.Second))
		if s%4 == 0 {
			if pods := e.Pods(); len(pods) > 0 {
				_ = e.DeletePod(pods[r.IntN(len(pods))].Key(), DeleteOptions{})
			}
		}
		switch s {
		case 100:
			must(t, e.CreatePod(bare("shop", "cart-late", "cart"))) // adopted, then the surplus deleted
			e.Settle()
		case 150:
			relabel(firstOf("shop/cart-"), map[string]string{"app": "cart-debug"}) // released and replaced
		case 200:
			must(t, m.SetImage("default", "app-1", "c", "app-1:2"))
			must(t, m.UpdateDeployment("shop", "batch-api", func(s *api.DeploymentSpec) { s.Template.Spec.Containers[0].Image = "batch-api:2" }))
			e.Settle()
		case 250:
			must(t, m.UpdateStatefulSet("shop", "db", func(s *api.StatefulSetSpec) { s.Template.Spec.Containers[0].Image = "db:2" }))
			e.Settle()
		case 300:
			must(t, m.Scale(controllers.KindDeployment, "default", "app-2", 8))
			must(t, m.Scale(controllers.KindStatefulSet, "shop", "db", 4))
			e.Settle()
		case 350:
			relabel("shop/cart-debug-none", nil)
			if k := firstOf("shop/cart-"); k != "" {
				relabel(k, map[string]string{"app": "cart", "extra": "x"})
			}
		case 400:
			_ = e.SetNodeCondition("node-04", NodeConditionNotReady)
			must(t, m.Pause("default", "app-4", true))
			e.Settle()
		case 450:
			_, err := m.Undo("default", "app-1", 0)
			must(t, err)
			e.Settle()
		case 500:
			_ = e.SetNodePressure("node-07", 120, false)
			must(t, m.Pause("default", "app-4", false))
			e.Settle()
		case 600:
			must(t, m.Delete(controllers.KindDeployment, "default", "app-5", controllers.PropagationBackground))
			e.Settle()
		case 650:
			must(t, m.Delete(controllers.KindReplicaSet, "shop", "cart", controllers.PropagationOrphan))
			e.Settle()
		case 700:
			_ = e.SetNodeCondition("node-04", NodeConditionReady)
			_ = e.SetNodePressure("node-07", 0, true)
			must(t, m.Delete(controllers.KindStatefulSet, "shop", "db", controllers.PropagationForeground))
			e.Settle()
		case 720:
			// a fork mid-run carries on in place of the original
			e = e.Clone()
			m = e.Workloads().Manager
		case 750:
			must(t, m.Scale(controllers.KindDeployment, "default", "app-4", 2))
			r2 := int32(2)
			_, err := m.AddReplicaSet(&api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "cart-v2", Namespace: "shop"},
				Spec: api.ReplicaSetSpec{Replicas: &r2, Selector: sel("cart"), Template: tmpl("cart", nil)}})
			must(t, err) // adopts the orphans of the deleted "cart"
			e.Settle()
		case 800:
			relabel(firstOf("default/app-3-"), map[string]string{"app": "app-3-debug"})
		}
	}
	var pods strings.Builder
	for _, p := range e.Pods() {
		owner := ""
		if ref := p.ControllerRef(); ref != nil {
			owner = ref.Kind + "/" + ref.Name
		}
		fmt.Fprintf(&pods, "%s %s ready=%v owner=%s labels=%v\n", p.Key(), p.Status.Phase,
			p.Condition(api.PodReady) != nil && p.Condition(api.PodReady).Status == api.ConditionTrue, owner, p.Labels)
	}
	var st strings.Builder
	for _, d := range m.Deployments() {
		fmt.Fprintf(&st, "deploy %s %d %+v %v\n", d.Key(), *d.Spec.Replicas, d.Status, d.Annotations)
	}
	for _, rs := range m.ReplicaSets() {
		fmt.Fprintf(&st, "rs %s %d %+v %v\n", rs.Key(), *rs.Spec.Replicas, rs.Status, rs.Annotations)
	}
	for _, s := range m.StatefulSets() {
		fmt.Fprintf(&st, "sts %s %+v\n", s.Key(), s.Status)
	}
	for _, ds := range m.DaemonSets() {
		fmt.Fprintf(&st, "ds %s %+v\n", ds.Key(), ds.Status)
	}
	for _, j := range m.Jobs() {
		fmt.Fprintf(&st, "job %s %+v\n", j.Key(), j.Status)
	}
	for _, cj := range m.CronJobs() {
		fmt.Fprintf(&st, "cronjob %s %+v\n", cj.Key(), cj.Status)
	}
	for _, h := range m.HPAs() {
		b, _ := json.Marshal(h.Status)
		fmt.Fprintf(&st, "hpa %s %s\n", h.Key(), b)
	}
	return queueRun{events: e.Events(), pods: pods.String(), status: st.String()}
}
