package controllers

import (
	"fmt"
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// TestCopyTemplateIsTheJSONCopy: the typed copy gives what the JSON round
// trip (deepCopy) gave — nil and empty collections alike — and shares no
// pointer, slice or map with its source. The filled templates set every
// field reflectively, so a field added to the api types later and
// forgotten by copyTemplate fails here (as an aliased pointer, slice or
// map).
func TestCopyTemplateIsTheJSONCopy(t *testing.T) {
	rich := richTemplate()
	filled, empty := api.PodTemplateSpec{}, api.PodTemplateSpec{}
	fill(reflect.ValueOf(&filled).Elem(), 2, "x")
	fill(reflect.ValueOf(&empty).Elem(), 0, "y")
	for _, tc := range []struct {
		name string
		tmpl api.PodTemplateSpec
	}{
		{"zero", api.PodTemplateSpec{}},
		{"rich", rich},
		{"every field, two of each", filled},
		{"every field, empty collections", empty},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, want := copyTemplate(&tc.tmpl), deepCopy(tc.tmpl)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("copyTemplate differs from the JSON copy:\n got %+v\nwant %+v", got, want)
			}
			if !reflect.DeepEqual(got, tc.tmpl) {
				t.Fatalf("copy differs from the source")
			}
			if path := shared(reflect.ValueOf(got), reflect.ValueOf(tc.tmpl), "template"); path != "" {
				t.Fatalf("copy shares %s with its source", path)
			}
		})
	}
}

// richTemplate is a realistic template touching probes, affinity,
// tolerations, resources, env-like args, init containers (a sidecar),
// topology spread and annotations. (The lab's PodSpec models no volumes
// or env; the filled templates cover every field it does model.)
func richTemplate() api.PodTemplateSpec {
	grace, five, one := int64(30), int64(5), int32(1)
	honor := api.PolicyHonor
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": "web"},
		MatchExpressions: []api.LabelSelectorRequirement{{Key: "tier", Operator: api.LabelSelectorOpIn, Values: []string{"a", "b"}}}}
	return api.PodTemplateSpec{
		ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web", api.LabelPodTemplateHash: "abc"},
			Annotations: map[string]string{"prometheus.io/scrape": "true", api.AnnotationPodDeletionCost: "5"}},
		Spec: api.PodSpec{
			NodeSelector: map[string]string{"disk": "ssd"},
			Affinity: &api.Affinity{
				NodeAffinity: &api.NodeAffinity{
					RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
						MatchExpressions: []api.NodeSelectorRequirement{{Key: api.LabelTopologyZone, Operator: api.NodeSelectorOpIn, Values: []string{"z1", "z2"}}}}}},
					PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{{Weight: 10, Preference: api.NodeSelectorTerm{
						MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: api.NodeSelectorOpNotIn, Values: []string{"n1"}}}}}}},
				PodAffinity: &api.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 5,
					PodAffinityTerm: api.PodAffinityTerm{LabelSelector: sel, TopologyKey: api.LabelHostname, MatchLabelKeys: []string{api.LabelPodTemplateHash}}}}},
				PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
					LabelSelector: sel, TopologyKey: api.LabelTopologyZone, Namespaces: []string{"default"},
					NamespaceSelector: &api.LabelSelector{}, MismatchLabelKeys: []string{"team"}}}},
			},
			Tolerations: []api.Toleration{{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &five},
				{Key: "dedicated", Operator: api.TolerationOpEqual, Value: "web", Effect: api.TaintEffectNoSchedule}},
			TopologySpreadConstraints: []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.DoNotSchedule,
				LabelSelector: sel, MinDomains: &one, NodeAffinityPolicy: &honor, MatchLabelKeys: []string{api.LabelPodTemplateHash}}},
			PriorityClassName:             "high",
			TerminationGracePeriodSeconds: &grace,
			Containers: []api.Container{{Name: "web", Image: "web:1", Command: []string{"/web"}, Args: []string{"--port=80", "--env=PROD"},
				Ports: []api.ContainerPort{{Name: "http", ContainerPort: 80, Protocol: "TCP"}},
				Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: api.Milli(500), api.ResourceMemory: api.Units(1 << 30)},
					Limits: api.ResourceList{api.ResourceMemory: api.Units(2 << 30)}},
				Lifecycle:      &api.Lifecycle{PreStop: &api.LifecycleHandler{SleepSeconds: &five}},
				ReadinessProbe: &api.Probe{Handler: "httpGet", PeriodSeconds: 5},
				LivenessProbe:  &api.Probe{Handler: "tcpSocket", FailureThreshold: 3, TerminationGracePeriodSeconds: &five},
			}},
			InitContainers: []api.Container{{Name: "migrate", Image: "web:1", Command: []string{"/migrate"}},
				{Name: "proxy", Image: "envoy", RestartPolicy: "Always", StartupProbe: &api.Probe{Handler: "exec"}, Resources: api.ResourceRequirements{Requests: api.ResourceList{}}}},
			Overhead:        api.ResourceList{api.ResourceCPU: api.Milli(10)},
			Resources:       &api.ResourceRequirements{Limits: api.ResourceList{api.ResourceCPU: api.Units(2)}},
			SchedulingGates: []string{},
		},
	}
}

// fill sets every field of v: pointers point at filled values, slices and
// maps get n filled entries (n = 0: empty, not nil), strings and numbers
// non-zero values derived from tag.
func fill(v reflect.Value, n int, tag string) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n, fmt.Sprintf("%s%d", tag, i))
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n, tag)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := 0; i < n; i++ {
			fill(v.Index(i), n, fmt.Sprintf("%s.%d", tag, i))
		}
	case reflect.Map:
		v.Set(reflect.MakeMapWithSize(v.Type(), n))
		for i := 0; i < n; i++ {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k, n, fmt.Sprintf("%sk%d", tag, i))
			fill(e, n, fmt.Sprintf("%sv%d", tag, i))
			v.SetMapIndex(k, e)
		}
	case reflect.String:
		v.SetString(tag)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(len(tag)))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(len(tag)))
	}
}

// shared returns the path of the first pointer, map or non-empty slice
// that a and b (deeply equal values) share, or "".
func shared(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if p := shared(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); p != "" {
				return p
			}
		}
	case reflect.Pointer:
		if a.IsNil() {
			return ""
		}
		if a.Pointer() == b.Pointer() {
			return path
		}
		return shared(a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.Len() > 0 && a.Pointer() == b.Pointer() {
			return path
		}
		for i := 0; i < a.Len(); i++ {
			if p := shared(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	case reflect.Map:
		if !a.IsNil() && a.Pointer() == b.Pointer() {
			return path
		}
		for _, k := range a.MapKeys() {
			if p := shared(a.MapIndex(k), b.MapIndex(k), fmt.Sprintf("%s[%v]", path, k)); p != "" {
				return p
			}
		}
	}
	return ""
}
