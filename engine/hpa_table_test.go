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

// TestHPAPodTableIsInvisible runs autoscalers of every shape the lab
// models with the HPA's per-pod table (the work queues, as the engine
// runs) and without it (full syncs, every pod read on every sync), and
// requires identical events, HPA statuses and pods: cpu utilization from
// a load timeline, from the pods' cpu-usage annotation (a quantity and a
// percentage) and from per-pod settings that change mid-run; memory
// utilization; an AverageValue target; two metrics on one HPA; a
// Deployment, a StatefulSet and a bare ReplicaSet as targets; readiness
// probes and scale-down behavior; pods deleted at random, relabelled out
// of and back into a selector, a node NotReady, and a clone mid-run.
func TestHPAPodTableIsInvisible(t *testing.T) {
	ref := runHPATableScenario(t, false)
	if ref.rescales < 10 {
		t.Fatalf("only %d rescales: the scenario is too quiet to compare", ref.rescales)
	}
	got := runHPATableScenario(t, true)
	requireSameEvents(t, "table", got.events, "full", ref.events)
	if got.status != ref.status {
		t.Errorf("HPA status differs:\n%s\nwithout the table:\n%s", got.status, ref.status)
	}
	if got.pods != ref.pods {
		t.Errorf("pods differ:\n%s\nwithout the table:\n%s", got.pods, ref.pods)
	}
}

type hpaTableRun struct {
	events       []Event
	status, pods string
	rescales     int
	// asidePods and asideEvents: the clone driven apart (cloneAside)
	asidePods   string
	asideEvents []Event
}

func runHPATableScenario(t *testing.T, table bool) hpaTableRun {
	return runHPAScenario(t, table, cloneSwitch, 0)
}

// How runHPAScenario uses a clone at second 420.
type hpaCloneMode int

const (
	cloneSwitch    hpaCloneMode = iota // go on with the clone
	cloneNone                          // no clone
	cloneAside                         // go on with the original, the clone driven apart alongside
	cloneAsideIdle                     // drive the clone as cloneAside, the original left idle
)

// asideSeed seeds the clone's actions (cloneAside, cloneAsideIdle).
func runHPAScenario(t *testing.T, table bool, mode hpaCloneMode, asideSeed uint64) hpaTableRun {
	e := New(Config{Seed: 7, NewScheduler: DefaultScheduler})
	for n := 0; n < 9; n++ {
		nd := node(fmt.Sprintf("node-%02d", n), "8", "32Gi")
		nd.Labels[api.LabelTopologyZone] = fmt.Sprintf("zone-%d", n%3)
		must(t, e.AddNode(nd))
	}
	w := e.NewWorkloads(3)
	m := w.Manager
	if !table {
		m.SkipUnchangedSyncs(false) // the full path: no work queues, no table
	}
	tmpl := func(app string, ann map[string]string) api.PodTemplateSpec {
		return api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": app}, Annotations: ann},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: app + ":1",
				Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: q("200m"), api.ResourceMemory: q("256Mi")}}}}}}
	}
	sel := func(app string) *api.LabelSelector {
		return &api.LabelSelector{MatchLabels: map[string]string{"app": app}}
	}
	util := func(res string, pct int32) api.MetricSpec {
		return api.MetricSpec{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Name: res,
			Target: api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: &pct}}}
	}
	hpa := func(kind, name string, minR, maxR int32, b *api.HorizontalPodAutoscalerBehavior, metrics ...api.MetricSpec) {
		_, err := m.AddHPA(&api.HorizontalPodAutoscaler{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec: api.HorizontalPodAutoscalerSpec{ScaleTargetRef: api.CrossVersionObjectReference{Kind: kind, Name: name},
				MinReplicas: &minR, MaxReplicas: maxR, Metrics: metrics, Behavior: b}})
		must(t, err)
	}
	r4 := int32(4)
	deploy := func(name string, tp api.PodTemplateSpec) {
		_, err := m.AddDeployment(&api.Deployment{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec: api.DeploymentSpec{Replicas: &r4, Selector: sel(name), Template: tp}})
		must(t, err)
	}
	zero := int32(0)
	fast := &api.HorizontalPodAutoscalerBehavior{ScaleDown: &api.HPAScalingRules{StabilizationWindowSeconds: &zero}}

	// a load timeline, with readiness probes
	lt := tmpl("load", map[string]string{kubelet.AnnotationReadyAfter: "20s"})
	lt.Spec.Containers[0].ReadinessProbe = &api.Probe{Handler: "httpGet", PeriodSeconds: 5}
	deploy("load", lt)
	hpa(controllers.KindDeployment, "load", 2, 12, fast, util(api.ResourceCPU, 50))
	for s, milli := range []int64{300, 900, 200, 1500, 400, 100} {
		must(t, m.SetLoad(controllers.KindDeployment, "default", "load", controllers.LoadStep{At: sec(float64(60 + s*120)), MilliCPU: milli}))
	}
	// the pods' own annotation (a percentage) and memory: two metrics
	deploy("ann", tmpl("ann", map[string]string{controllers.AnnotationCPUUsage: "90%", kubelet.AnnotationMemoryUsage: "70%"}))
	hpa(controllers.KindDeployment, "ann", 1, 8, nil, util(api.ResourceCPU, 60), util(api.ResourceMemory, 80))
	// per-pod settings changed during the run, an AverageValue target
	deploy("avg", tmpl("avg", map[string]string{controllers.AnnotationCPUUsage: "150m"}))
	avg := api.Milli(120)
	hpa(controllers.KindDeployment, "avg", 1, 9, fast, api.MetricSpec{Type: api.ResourceMetricSourceType,
		Resource: &api.ResourceMetricSource{Name: api.ResourceCPU, Target: api.MetricTarget{Type: api.AverageValueMetricType, AverageValue: &avg}}})
	// memory on a StatefulSet
	r3 := int32(3)
	_, err := m.AddStatefulSet(&api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "default"},
		Spec: api.StatefulSetSpec{Replicas: &r3, Selector: sel("db"), ServiceName: "db",
			Template: tmpl("db", map[string]string{kubelet.AnnotationMemoryUsage: "95%"})}})
	must(t, err)
	hpa(controllers.KindStatefulSet, "db", 2, 6, nil, util(api.ResourceMemory, 60))
	// a bare ReplicaSet with a quantity annotation
	_, err = m.AddReplicaSet(&api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "cache", Namespace: "default"},
		Spec: api.ReplicaSetSpec{Replicas: &r3, Selector: sel("cache"), Template: tmpl("cache", map[string]string{controllers.AnnotationCPUUsage: "40m"})}})
	must(t, err)
	hpa(controllers.KindReplicaSet, "cache", 1, 5, fast, util(api.ResourceCPU, 50))

	if mode != cloneSwitch {
		// a DaemonSet (a pod per node, narrowed to it by name) and a
		// zone spread (the snapshot's spread indexes) for the clone's
		// node changes to move
		_, err = m.AddDaemonSet(&api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "agent", Namespace: "default"},
			Spec: api.DaemonSetSpec{Selector: sel("agent"), Template: tmpl("agent", nil)}})
		must(t, err)
		sp := tmpl("spread", map[string]string{controllers.AnnotationCPUUsage: "100m"})
		sp.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: api.LabelTopologyZone,
			WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: sel("spread")}}
		deploy("spread", sp)
	}
	m.Start()
	e.Settle()
	firstOf := func(prefix string) *api.Pod {
		for _, p := range e.Pods() {
			if strings.HasPrefix(p.Key(), prefix) && p.DeletionTimestamp == nil {
				return p
			}
		}
		return nil
	}
	relabel := func(p *api.Pod, labels map[string]string) {
		if p != nil {
			_ = e.ControllerCluster().SetPodOwnership(p.Namespace, p.Name, labels, p.OwnerReferences)
			e.Settle()
		}
	}
	r := rand.New(rand.NewPCG(11, 12))
	var aside *Engine
	ra := rand.New(rand.NewPCG(asideSeed, 22))
	for s := 1; s <= 900; s++ {
		if aside != nil {
			// the clone changes what it shares with the original: pods
			// deleted, workloads scaled, pods relabelled, loads moved
			must(t, aside.Step(time.Second))
			am := aside.Workloads().Manager
			switch s % 7 {
			case 0:
				if keys := aside.sortedPodKeys(); len(keys) > 0 {
					_ = aside.DeletePod(keys[ra.IntN(len(keys))], DeleteOptions{})
				}
			case 1:
				// nodes come and go: the snapshot (its pod index and
				// plugin indexes) and the node lists
				if s%3 == 0 {
					var zone []*api.Node
					for i := 0; i < 3; i++ {
						nd := node(fmt.Sprintf("extra-%03d-%d", s, i), "4", "16Gi")
						nd.Labels[api.LabelTopologyZone] = "zone-x"
						zone = append(zone, nd)
					}
					must(t, aside.AddNodes(zone))
				} else if nodes := aside.Nodes(); len(nodes) > 6 {
					must(t, aside.RemoveNode(nodes[ra.IntN(len(nodes))].Name))
				}
			case 3:
				_ = am.Scale(controllers.KindReplicaSet, "default", "cache", int32(1+ra.IntN(6)))
				_ = am.Scale(controllers.KindDeployment, "default", "ann", int32(1+ra.IntN(8)))
				_ = am.Scale(controllers.KindDeployment, "default", "spread", int32(1+ra.IntN(9)))
			case 5:
				for _, p := range aside.Pods() {
					if strings.HasPrefix(p.Key(), "default/load-") && p.DeletionTimestamp == nil {
						_ = aside.ControllerCluster().SetPodOwnership(p.Namespace, p.Name, map[string]string{"app": "other"}, p.OwnerReferences)
						break
					}
				}
				for _, p := range aside.Pods() {
					if strings.HasPrefix(p.Key(), "default/avg-") {
						am.SetPodCPU(p, int64(ra.IntN(900)))
					}
				}
			}
			aside.Settle()
			if s == 600 {
				// a clone of the clone goes on in its place
				aside = aside.Clone()
			}
			if mode == cloneAsideIdle {
				continue
			}
		}
		must(t, e.Step(time.Second))
		if s%9 == 0 {
			if keys := e.sortedPodKeys(); len(keys) > 0 {
				_ = e.DeletePod(keys[r.IntN(len(keys))], DeleteOptions{})
			}
		}
		switch s {
		case 100, 400:
			for _, p := range e.Pods() {
				if strings.HasPrefix(p.Key(), "default/avg-") {
					m.SetPodCPU(p, int64(50+r.IntN(400)))
				}
			}
		case 250:
			if p := firstOf("default/avg-"); p != nil {
				m.SetPodCPU(p, -1)
			}
			relabel(firstOf("default/cache-"), map[string]string{"app": "cache-debug"})
		case 300:
			_ = e.SetNodeCondition("node-02", NodeConditionNotReady)
			e.Settle()
		case 420:
			switch mode {
			case cloneSwitch:
				e = e.Clone()
				m = e.Workloads().Manager
			case cloneAside, cloneAsideIdle:
				aside = e.Clone()
			}
		case 500:
			_ = e.SetNodeCondition("node-02", NodeConditionReady)
			relabel(firstOf("default/cache-debug"), map[string]string{"app": "cache"})
		case 600:
			must(t, m.SetLoad(controllers.KindDeployment, "default", "load", controllers.LoadStep{At: sec(700), MilliCPU: 2500}))
		}
	}
	res := hpaTableRun{events: e.Events()}
	for _, ev := range res.events {
		if ev.Reason == "SuccessfulRescale" {
			res.rescales++
		}
	}
	var st, pods strings.Builder
	for _, h := range m.HPAs() {
		b, _ := json.Marshal(h.Status)
		fmt.Fprintf(&st, "hpa %s %s\n", h.Key(), b)
	}
	for _, p := range e.Pods() {
		fmt.Fprintf(&pods, "%s %s %v\n", p.Key(), p.Status.Phase, p.Labels)
	}
	res.status, res.pods = st.String(), pods.String()
	if aside != nil {
		var ap strings.Builder
		for _, p := range aside.Pods() {
			fmt.Fprintf(&ap, "%s %s %v\n", p.Key(), p.Status.Phase, p.Labels)
		}
		res.asidePods, res.asideEvents = ap.String(), aside.Events()
	}
	return res
}

// TestCloneDrivenApartLeavesTheOriginAlone clones the HPA scenario's
// engine mid-run and drives the clone differently (deletions, scaling,
// relabelling, per-pod CPU) alongside the original: the original must end
// exactly as a twin that was never cloned. The two share pod states,
// timelines, the work queues' indexes, the ReplicaSets' pod facts and the
// snapshot's pod index copy-on-write.
func TestCloneDrivenApartLeavesTheOriginAlone(t *testing.T) {
	ref := runHPAScenario(t, true, cloneNone, 0)
	for seed := uint64(1); seed <= 6; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) { checkCloneDrivenApart(t, ref, seed) })
	}
}

func checkCloneDrivenApart(t *testing.T, ref hpaTableRun, seed uint64) {
	got := runHPAScenario(t, true, cloneAside, seed)
	if got.asidePods == got.pods {
		t.Fatalf("the clone did not drift from the original: the test compares nothing")
	}
	// and the clone ends as a clone whose original stayed idle
	idle := runHPAScenario(t, true, cloneAsideIdle, seed)
	if !reflect.DeepEqual(got.asideEvents, idle.asideEvents) {
		for i := range min(len(got.asideEvents), len(idle.asideEvents)) {
			if got.asideEvents[i] != idle.asideEvents[i] {
				t.Fatalf("clone's event %d differs:\n original driven: %+v\n original idle:   %+v", i, got.asideEvents[i], idle.asideEvents[i])
			}
		}
		t.Fatalf("the clone has %d events with its original driven, %d with it idle", len(got.asideEvents), len(idle.asideEvents))
	}
	if got.asidePods != idle.asidePods {
		t.Errorf("the clone's pods differ with its original driven:\n%s\noriginal idle:\n%s", got.asidePods, idle.asidePods)
	}
	requireSameEvents(t, "cloned", got.events, "never cloned", ref.events)
	if got.status != ref.status {
		t.Errorf("HPA status differs:\n%s\nnever cloned:\n%s", got.status, ref.status)
	}
	if got.pods != ref.pods {
		t.Errorf("pods differ:\n%s\nnever cloned:\n%s", got.pods, ref.pods)
	}
}
