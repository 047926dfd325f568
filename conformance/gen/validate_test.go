package gen_test

import (
	"bytes"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	core "k8s.io/kubernetes/pkg/apis/core"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"k8s.io/kubernetes/pkg/apis/policy"
	policyvalidation "k8s.io/kubernetes/pkg/apis/policy/validation"
	"k8s.io/kubernetes/pkg/apis/scheduling"
	schedulingvalidation "k8s.io/kubernetes/pkg/apis/scheduling/validation"

	"podlab.dev/podlab/conformance/gen"
	"podlab.dev/podlab/conformance/scenario"
)

func TestDeterministic(t *testing.T) {
	for i := 0; i < 20; i++ {
		a, b := gen.Scenario(7, i, gen.Config{}), gen.Scenario(7, i, gen.Config{})
		if !bytes.Equal(a, b) {
			t.Fatalf("scenario 7/%d differs between two runs", i)
		}
	}
	if bytes.Equal(gen.Scenario(7, 0, gen.Config{}), gen.Scenario(8, 0, gen.Config{})) {
		t.Error("seeds 7 and 8 give the same scenario")
	}
}

// TestValidAPIObjects checks that generated objects pass the API server's
// own validation (pkg/apis/*/validation) after defaulting and admission.
func TestValidAPIObjects(t *testing.T) {
	for i := 0; i < 60; i++ {
		data := gen.Scenario(3, i, gen.Mixed(i))
		s, err := scenario.Decode(data)
		if err != nil {
			t.Fatalf("scenario 3/%d: %v\n%s", i, err, data)
		}
		var errs field.ErrorList
		for _, n := range s.Nodes {
			in := &core.Node{}
			convert(t, n, in)
			errs = append(errs, corevalidation.ValidateNode(in)...)
		}
		for _, p := range append(s.Bound[:len(s.Bound):len(s.Bound)], s.Pending...) {
			in := &core.Pod{}
			convert(t, p, in)
			opts := podutil.GetValidationOptionsFromPodSpecAndMeta(&in.Spec, nil, &in.ObjectMeta, nil)
			opts.ResourceIsPod = true
			errs = append(errs, corevalidation.ValidatePodCreate(in, opts)...)
		}
		for _, pdb := range s.PDBs {
			in := &policy.PodDisruptionBudget{}
			convert(t, pdb, in)
			errs = append(errs, policyvalidation.ValidatePodDisruptionBudget(in, policyvalidation.PodDisruptionBudgetValidationOptions{})...)
		}
		for _, pc := range s.PriorityClasses {
			in := &scheduling.PriorityClass{}
			convert(t, pc, in)
			errs = append(errs, schedulingvalidation.ValidatePriorityClass(in)...)
		}
		if len(errs) > 0 {
			t.Fatalf("scenario 3/%d invalid: %v\n%s", i, errs.ToAggregate(), data)
		}
	}
}

func convert(t *testing.T, in, out runtime.Object) {
	t.Helper()
	if err := legacyscheme.Scheme.Convert(in, out, nil); err != nil {
		t.Fatal(err)
	}
}

// TestValidationCatchesInvalid guards the check above: an invalid spread
// constraint (maxSkew 0, minDomains with ScheduleAnyway) must be reported.
func TestValidationCatchesInvalid(t *testing.T) {
	data := []byte(`apiVersion: v1
kind: Pod
metadata: {name: bad}
spec:
  containers: [{name: c, image: pause}]
  topologySpreadConstraints:
  - {maxSkew: 0, minDomains: 2, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {a: b}}}
`)
	s, err := scenario.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	in := &core.Pod{}
	convert(t, s.Pending[0], in)
	opts := podutil.GetValidationOptionsFromPodSpecAndMeta(&in.Spec, nil, &in.ObjectMeta, nil)
	if errs := corevalidation.ValidatePodCreate(in, opts); len(errs) < 2 {
		t.Errorf("want ≥2 validation errors, got %v", errs)
	}
}

// TestKnownSwitchesOnlyRemoveTheirFeature: turning the known-difference
// switches off must leave the rest of a scenario unchanged (the test
// suite relies on it to attribute a disagreement to a known difference).
func TestKnownSwitchesOnlyRemoveTheirFeature(t *testing.T) {
	changed := 0
	for i := 0; i < 200; i++ {
		cfg := gen.Mixed(i)
		a := gen.Scenario(9, i, cfg)
		cfg.NoPodLevelResources, cfg.NoNominations = true, true
		b := gen.Scenario(9, i, cfg)
		if bytes.Equal(a, b) {
			continue
		}
		changed++
		if la, lb := bytes.Count(a, []byte("\n")), bytes.Count(b, []byte("\n")); la <= lb {
			t.Errorf("scenario 9/%d: switching features off did not shorten it (%d → %d lines)", i, la, lb)
		}
		for _, kind := range []string{"kind: Node", "kind: Pod", "kind: PodDisruptionBudget", "kind: ReplicaSet"} {
			if bytes.Count(a, []byte(kind)) != bytes.Count(b, []byte(kind)) {
				t.Errorf("scenario 9/%d: %q count changed", i, kind)
			}
		}
	}
	if changed == 0 {
		t.Error("no scenario had pod-level resources or a nomination")
	}
}
