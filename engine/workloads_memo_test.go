package engine

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers"
	"podlab.dev/podlab/engine/kubelet"
)

// TestSkipUnchangedSyncsIsInvisible runs the same busy workload cluster
// with the controller manager skipping unchanged syncs (as the engine
// does) and re-syncing everything on every pass: Deployments with
// minReadySeconds and probes, HPAs on a load curve, a rollout, scaling,
// random pod deletions, node NotReady flaps and memory pressure. Events,
// pods and workload status must be identical.
func TestSkipUnchangedSyncsIsInvisible(t *testing.T) {
	run := func(memo bool) ([]Event, []string, string) {
		e := New(Config{Seed: 3, NewScheduler: DefaultScheduler})
		for n := 0; n < 12; n++ {
			nd := node(fmt.Sprintf("node-%02d", n), "8", "32Gi")
			nd.Labels[api.LabelTopologyZone] = fmt.Sprintf("zone-%d", n%3)
			must(t, e.AddNode(nd))
		}
		w := e.NewWorkloads(1)
		m := w.Manager
		m.SkipUnchangedSyncs(memo)
		for d := 0; d < 6; d++ {
			name := fmt.Sprintf("app-%d", d)
			tmpl := api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": name},
				Annotations: map[string]string{kubelet.AnnotationMemoryUsage: fmt.Sprintf("%d%%", 80+d*10)}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "app:1",
					Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: q("500m"), api.ResourceMemory: q("1Gi")}}}}}}
			if d%2 == 0 {
				tmpl.Spec.Containers[0].ReadinessProbe = &api.Probe{Handler: "httpGet", PeriodSeconds: 10}
				tmpl.Annotations[kubelet.AnnotationReadyAfter] = "15s"
			}
			r := int32(6)
			_, err := m.AddDeployment(&api.Deployment{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
				Spec: api.DeploymentSpec{Replicas: &r, MinReadySeconds: int32(d % 3 * 5),
					Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": name}}, Template: tmpl}})
			must(t, err)
			if d%3 != 0 {
				continue
			}
			minR, pct := int32(3), int32(50)
			_, err = m.AddHPA(&api.HorizontalPodAutoscaler{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
				Spec: api.HorizontalPodAutoscalerSpec{
					ScaleTargetRef: api.CrossVersionObjectReference{Kind: controllers.KindDeployment, Name: name, APIVersion: "apps/v1"},
					MinReplicas:    &minR, MaxReplicas: 12,
					Metrics: []api.MetricSpec{{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Name: api.ResourceCPU,
						Target: api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: &pct}}}}}})
			must(t, err)
			for s, f := range []int64{100, 250, 60, 180} {
				must(t, m.SetLoad(controllers.KindDeployment, "default", name, controllers.LoadStep{At: sec(float64(s * 150)), MilliCPU: 6 * 250 * f / 100}))
			}
		}
		m.Start()
		e.Settle()
		r := rand.New(rand.NewPCG(7, 8))
		for s := 1; s <= 900; s++ {
			must(t, e.Step(time.Second))
			if s%3 == 0 {
				if pods := e.Pods(); len(pods) > 0 {
					_ = e.DeletePod(pods[r.IntN(len(pods))].Key(), DeleteOptions{})
				}
			}
			switch s {
			case 200:
				must(t, m.SetImage("default", "app-1", "app", "app:2"))
			case 300:
				must(t, m.Scale(controllers.KindDeployment, "default", "app-2", 9))
			case 400:
				_ = e.SetNodeCondition("node-04", NodeConditionNotReady)
			case 500:
				_ = e.SetNodePressure("node-07", 120, false)
			case 700:
				_ = e.SetNodeCondition("node-04", NodeConditionReady)
				_ = e.SetNodePressure("node-07", 0, true)
			case 750:
				must(t, m.Scale(controllers.KindDeployment, "default", "app-4", 2))
			}
		}
		var names []string
		for _, p := range e.Pods() {
			names = append(names, fmt.Sprintf("%s %s ready=%v", p.Key(), p.Status.Phase, p.Condition(api.PodReady) != nil && p.Condition(api.PodReady).Status == api.ConditionTrue))
		}
		status := ""
		for _, rs := range m.ReplicaSets() {
			status += fmt.Sprintf("%s %d %+v\n", rs.Key(), *rs.Spec.Replicas, rs.Status)
		}
		return e.Events(), names, status
	}
	evOn, podsOn, stOn := run(true)
	evOff, podsOff, stOff := run(false)
	if len(evOn) < 500 {
		t.Fatalf("only %d events: the scenario is too quiet to compare", len(evOn))
	}
	requireSameEvents(t, "skipping", evOn, "full", evOff)
	if !reflect.DeepEqual(podsOn, podsOff) {
		t.Errorf("pods differ:\n%v\n%v", podsOn, podsOff)
	}
	if stOn != stOff {
		t.Errorf("ReplicaSet status differs:\n%s\n%s", stOn, stOff)
	}
}
