package admission

import (
	"errors"
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
)

func i32(v int32) *int32   { return &v }
func i64(v int64) *int64   { return &v }
func str(s string) *string { return &s }
func pod(name string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "i"}}}}
}

func class(name string, value int32, def bool, policy *string) *api.PriorityClass {
	return &api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: name}, Value: value, GlobalDefault: def, PreemptionPolicy: policy}
}

func classes(pcs ...*api.PriorityClass) map[string]*api.PriorityClass {
	m := map[string]*api.PriorityClass{}
	for _, pc := range pcs {
		m[pc.Name] = pc
	}
	return m
}

// As plugin/pkg/admission/priority/admission_test.go TestPodAdmission.
func TestPriorityAdmission(t *testing.T) {
	never := str(api.PreemptNever)
	tests := []struct {
		name       string
		className  string
		priority   *int32
		policy     *string
		classes    map[string]*api.PriorityClass
		wantClass  string
		wantValue  int32
		wantPolicy string
		wantErr    string
	}{
		{name: "no class, no default: priority 0", wantValue: 0, wantPolicy: api.PreemptLowerPriority},
		{name: "named class", className: "high", classes: classes(class("high", 1000, false, nil)),
			wantClass: "high", wantValue: 1000, wantPolicy: api.PreemptLowerPriority},
		{name: "class preemptionPolicy Never is copied", className: "batch", classes: classes(class("batch", 10, false, never)),
			wantClass: "batch", wantValue: 10, wantPolicy: api.PreemptNever},
		{name: "globalDefault applies to pods without a class", classes: classes(class("high", 1000, false, nil), class("def", 5, true, nil)),
			wantClass: "def", wantValue: 5, wantPolicy: api.PreemptLowerPriority},
		{name: "several defaults: the lowest value wins", classes: classes(class("a", 50, true, nil), class("b", 7, true, nil)),
			wantClass: "b", wantValue: 7, wantPolicy: api.PreemptLowerPriority},
		{name: "explicit class beats the default", className: "high", classes: classes(class("high", 1000, false, nil), class("def", 5, true, nil)),
			wantClass: "high", wantValue: 1000, wantPolicy: api.PreemptLowerPriority},
		{name: "built-in system-cluster-critical", className: api.SystemClusterCritical,
			wantClass: api.SystemClusterCritical, wantValue: 2000000000, wantPolicy: api.PreemptLowerPriority},
		{name: "built-in system-node-critical", className: api.SystemNodeCritical,
			wantClass: api.SystemNodeCritical, wantValue: 2000001000, wantPolicy: api.PreemptLowerPriority},
		{name: "unknown class", className: "nope", wantErr: `pods "p" is forbidden: no PriorityClass with name nope was found`},
		{name: "priority equal to the class's is accepted", className: "high", priority: i32(1000), classes: classes(class("high", 1000, false, nil)),
			wantClass: "high", wantValue: 1000, wantPolicy: api.PreemptLowerPriority},
		{name: "priority disagreeing with the class is rejected", className: "high", priority: i32(7), classes: classes(class("high", 1000, false, nil)),
			wantErr: `pods "p" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name`},
		{name: "priority without any class must be 0", priority: i32(3),
			wantErr: `pods "p" is forbidden: the integer value of priority (3) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name`},
		{name: "preemptionPolicy disagreeing with the class is rejected", className: "high", policy: never, classes: classes(class("high", 1000, false, nil)),
			wantErr: `pods "p" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := pod("p")
			p.Spec.PriorityClassName, p.Spec.Priority, p.Spec.PreemptionPolicy = tt.className, tt.priority, tt.policy
			err := AdmitPod(p, tt.classes)
			if tt.wantErr != "" {
				var fe *ForbiddenError
				if err == nil || err.Error() != tt.wantErr || !errors.As(err, &fe) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Spec.PriorityClassName != tt.wantClass || p.Spec.Priority == nil || *p.Spec.Priority != tt.wantValue ||
				p.Spec.PreemptionPolicy == nil || *p.Spec.PreemptionPolicy != tt.wantPolicy {
				t.Errorf("got class %q priority %v policy %v", p.Spec.PriorityClassName, p.Spec.Priority, p.Spec.PreemptionPolicy)
			}
		})
	}
}

// As defaulttolerationseconds/admission_test.go.
func TestDefaultTolerationSeconds(t *testing.T) {
	notReady := api.Toleration{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: i64(300)}
	unreachable := api.Toleration{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: i64(300)}
	other := api.Toleration{Key: "foo", Operator: api.TolerationOpEqual, Value: "bar", Effect: api.TaintEffectNoSchedule}
	tests := []struct {
		name string
		in   []api.Toleration
		want []api.Toleration
	}{
		{name: "none: both added", in: nil, want: []api.Toleration{notReady, unreachable}},
		{name: "unrelated toleration kept, both added", in: []api.Toleration{other}, want: []api.Toleration{other, notReady, unreachable}},
		{name: "own not-ready toleration kept as is",
			in:   []api.Toleration{{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: i64(60)}},
			want: []api.Toleration{{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: i64(60)}, unreachable}},
		{name: "not-ready with empty effect counts",
			in:   []api.Toleration{{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists}},
			want: []api.Toleration{{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists}, unreachable}},
		{name: "not-ready NoSchedule does not count",
			in:   []api.Toleration{{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}},
			want: []api.Toleration{{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}, notReady, unreachable}},
		{name: "tolerate-everything toleration: nothing added",
			in:   []api.Toleration{{Operator: api.TolerationOpExists}},
			want: []api.Toleration{{Operator: api.TolerationOpExists}}},
		{name: "empty key with NoExecute covers both",
			in:   []api.Toleration{{Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute}},
			want: []api.Toleration{{Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := pod("p")
			p.Spec.Tolerations = tt.in
			if err := AdmitPod(p, nil); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Spec.Tolerations, tt.want) {
				t.Errorf("tolerations = %+v\nwant %+v", p.Spec.Tolerations, tt.want)
			}
		})
	}
}

// Pods stamped from one template share its tolerations slice: admitting
// one must not write the default tolerations into the shared array.
func TestDefaultTolerationsDoNotWriteIntoASharedSlice(t *testing.T) {
	other := api.Toleration{Key: "foo", Operator: api.TolerationOpExists}
	shared := make([]api.Toleration, 1, 4)
	shared[0] = other
	a, b := pod("a"), pod("b")
	a.Spec.Tolerations, b.Spec.Tolerations = shared, shared
	if err := AdmitPod(a, nil); err != nil {
		t.Fatal(err)
	}
	if got := shared[:cap(shared)][1]; got != (api.Toleration{}) {
		t.Fatalf("admitting pod a wrote %+v into the shared array", got)
	}
	if len(b.Spec.Tolerations) != 1 || len(a.Spec.Tolerations) != 3 {
		t.Fatalf("tolerations a %d b %d, want 3 and 1", len(a.Spec.Tolerations), len(b.Spec.Tolerations))
	}
}

// As pkg/registry/core/pod/strategy_test.go TestApplyMatchLabelKeysAndMismatchLabelKeys.
func TestAffinityLabelKeysMerge(t *testing.T) {
	sel := func(reqs ...api.LabelSelectorRequirement) *api.LabelSelector {
		return &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: reqs}
	}
	in := func(k, v string) api.LabelSelectorRequirement {
		return api.LabelSelectorRequirement{Key: k, Operator: api.LabelSelectorOpIn, Values: []string{v}}
	}
	notIn := func(k, v string) api.LabelSelectorRequirement {
		return api.LabelSelectorRequirement{Key: k, Operator: api.LabelSelectorOpNotIn, Values: []string{v}}
	}
	tests := []struct {
		name    string
		labels  map[string]string
		term    api.PodAffinityTerm
		wantSel *api.LabelSelector
	}{
		{name: "matchLabelKeys become In",
			labels:  map[string]string{"app": "web", "version": "v1"},
			term:    api.PodAffinityTerm{LabelSelector: sel(), MatchLabelKeys: []string{"version"}, TopologyKey: "zone"},
			wantSel: sel(in("version", "v1"))},
		{name: "mismatchLabelKeys become NotIn",
			labels:  map[string]string{"tenant": "a"},
			term:    api.PodAffinityTerm{LabelSelector: sel(), MismatchLabelKeys: []string{"tenant"}, TopologyKey: "zone"},
			wantSel: sel(notIn("tenant", "a"))},
		{name: "both, in order: match then mismatch",
			labels:  map[string]string{"version": "v1", "tenant": "a"},
			term:    api.PodAffinityTerm{LabelSelector: sel(), MatchLabelKeys: []string{"version"}, MismatchLabelKeys: []string{"tenant"}, TopologyKey: "zone"},
			wantSel: sel(in("version", "v1"), notIn("tenant", "a"))},
		{name: "keys the pod lacks are skipped",
			labels:  map[string]string{"app": "web"},
			term:    api.PodAffinityTerm{LabelSelector: sel(), MatchLabelKeys: []string{"version"}, TopologyKey: "zone"},
			wantSel: sel()},
		{name: "nil labelSelector stays nil",
			labels:  map[string]string{"version": "v1"},
			term:    api.PodAffinityTerm{MatchLabelKeys: []string{"version"}, TopologyKey: "zone"},
			wantSel: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shared := tt.term.LabelSelector
			var before *api.LabelSelector
			if shared != nil {
				before = cloneSelector(shared)
			}
			p := pod("p")
			p.Labels = tt.labels
			p.Spec.Affinity = &api.Affinity{
				PodAffinity:     &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{tt.term}},
				PodAntiAffinity: &api.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 1, PodAffinityTerm: tt.term}}},
			}
			if err := AdmitPod(p, nil); err != nil {
				t.Fatal(err)
			}
			if err := AdmitPod(p, nil); err != nil { // idempotent
				t.Fatal(err)
			}
			got1 := p.Spec.Affinity.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector
			got2 := p.Spec.Affinity.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].PodAffinityTerm.LabelSelector
			if !reflect.DeepEqual(got1, tt.wantSel) || !reflect.DeepEqual(got2, tt.wantSel) {
				t.Errorf("selectors = %+v / %+v, want %+v", got1, got2, tt.wantSel)
			}
			if shared != nil && !reflect.DeepEqual(shared, before) {
				t.Errorf("the caller's selector was mutated: %+v", shared)
			}
		})
	}
}

func TestTopologySpreadMatchLabelKeysLeftToScheduler(t *testing.T) {
	p := pod("p")
	p.Labels = map[string]string{"app": "web", "version": "v1"}
	c := api.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: api.DoNotSchedule,
		LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, MatchLabelKeys: []string{"version"}}
	p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{c}
	if err := AdmitPod(p, nil); err != nil {
		t.Fatal(err)
	}
	if got := p.Spec.TopologySpreadConstraints[0].LabelSelector; len(got.MatchExpressions) != 0 {
		t.Errorf("topology spread selector changed: %+v", got)
	}
}

func TestAdmitPodDefaultsAndGates(t *testing.T) {
	p := pod("p")
	p.Spec.SchedulingGates = []string{"example.com/wait"}
	if err := AdmitPod(p, nil); err != nil {
		t.Fatal(err)
	}
	if p.Generation != 1 || p.Namespace != "default" || p.Status.Phase != api.PodPending || *p.Spec.TerminationGracePeriodSeconds != 30 || p.Status.QOSClass != api.QOSBestEffort {
		t.Errorf("defaults not applied: ns=%q phase=%q grace=%v qos=%q", p.Namespace, p.Status.Phase, *p.Spec.TerminationGracePeriodSeconds, p.Status.QOSClass)
	}
	c := p.Condition(api.PodScheduled)
	if c == nil || c.Status != api.ConditionFalse || c.Reason != "SchedulingGated" || c.Message != "Scheduling is blocked due to non-empty scheduling gates" {
		t.Errorf("PodScheduled condition = %+v", c)
	}
	if err := AdmitPod(p, nil); err != nil {
		t.Fatal(err)
	}
	if n := len(p.Status.Conditions); n != 1 {
		t.Errorf("%d conditions after a second admission, want 1", n)
	}

	running := pod("r")
	running.Spec.NodeName = "n1"
	running.Status.Phase = api.PodRunning
	if err := AdmitPod(running, nil); err != nil {
		t.Fatal(err)
	}
	if running.Status.Phase != api.PodRunning {
		t.Errorf("an imported pod's phase was reset to %q", running.Status.Phase)
	}
}

func TestPortDefaulting(t *testing.T) {
	p := pod("p")
	p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80}, {ContainerPort: 53, Protocol: "UDP", HostPort: 5353}}
	if err := AdmitPod(p, nil); err != nil {
		t.Fatal(err)
	}
	want := []api.ContainerPort{{ContainerPort: 80, Protocol: "TCP"}, {ContainerPort: 53, Protocol: "UDP", HostPort: 5353}}
	if !reflect.DeepEqual(p.Spec.Containers[0].Ports, want) {
		t.Errorf("ports = %+v", p.Spec.Containers[0].Ports)
	}

	h := pod("h")
	h.Spec.HostNetwork = true
	h.Spec.InitContainers = []api.Container{{Name: "i", Image: "i", Ports: []api.ContainerPort{{ContainerPort: 9000}}}}
	h.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 8080}, {ContainerPort: 53, HostPort: 5353}}
	if err := AdmitPod(h, nil); err != nil {
		t.Fatal(err)
	}
	if got := h.Spec.Containers[0].Ports; got[0].HostPort != 8080 || got[1].HostPort != 5353 || h.Spec.InitContainers[0].Ports[0].HostPort != 9000 {
		t.Errorf("hostNetwork ports = %+v / %+v", got, h.Spec.InitContainers[0].Ports)
	}
}
