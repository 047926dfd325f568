package scenario

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func TestPDBStatus(t *testing.T) {
	pod := func(ns, app string) *v1.Pod {
		return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Labels: map[string]string{"app": app}}}
	}
	bound := []*v1.Pod{pod("default", "web"), pod("default", "web"), pod("default", "web"), pod("other", "web"), pod("default", "db")}
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	i, s := intstr.FromInt32, intstr.FromString
	for _, tc := range []struct {
		name                     string
		minAvail, maxUnavail     *intstr.IntOrString
		wantDesired, wantAllowed int32
	}{
		{"minAvailable 2 of 3", ptr(i(2)), nil, 2, 1},
		{"minAvailable 50% of 3 rounds up", ptr(s("50%")), nil, 2, 1},
		{"maxUnavailable 1", nil, ptr(i(1)), 2, 1},
		{"maxUnavailable 25% of 3 rounds up", nil, ptr(s("25%")), 2, 1},
		{"minAvailable above expected", ptr(i(5)), nil, 5, 0},
	} {
		pdb := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Namespace: "default"},
			Spec: policyv1.PodDisruptionBudgetSpec{Selector: sel, MinAvailable: tc.minAvail, MaxUnavailable: tc.maxUnavail}}
		st := PDBStatus(pdb, bound)
		if st.ExpectedPods != 3 || st.DesiredHealthy != tc.wantDesired || st.DisruptionsAllowed != tc.wantAllowed {
			t.Errorf("%s: got expected %d desired %d allowed %d, want 3 %d %d", tc.name, st.ExpectedPods, st.DesiredHealthy, st.DisruptionsAllowed, tc.wantDesired, tc.wantAllowed)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestDecodeResolvesPriorityAndAdmits(t *testing.T) {
	s, err := Decode([]byte(`apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: base}
value: 7
globalDefault: true
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: never}
value: 50
preemptionPolicy: Never
---
apiVersion: v1
kind: Pod
metadata: {name: a, labels: {h: x}}
spec:
  containers: [{name: c, image: i}]
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {topologyKey: zone, labelSelector: {matchLabels: {app: a}}, matchLabelKeys: [h]}
---
apiVersion: v1
kind: Pod
metadata: {name: b}
spec: {priorityClassName: never, containers: [{name: c, image: i}]}
`))
	if err != nil {
		t.Fatal(err)
	}
	a, b := s.Pending[0], s.Pending[1]
	if *a.Spec.Priority != 7 || a.Spec.PriorityClassName != "base" {
		t.Errorf("globalDefault not applied: %v %q", *a.Spec.Priority, a.Spec.PriorityClassName)
	}
	if *b.Spec.Priority != 50 || b.Spec.PreemptionPolicy == nil || *b.Spec.PreemptionPolicy != v1.PreemptNever {
		t.Errorf("class never not applied: %v %v", *b.Spec.Priority, b.Spec.PreemptionPolicy)
	}
	// PrepareForCreate merged matchLabelKeys into the selector.
	exprs := a.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector.MatchExpressions
	if len(exprs) != 1 || exprs[0].Key != "h" || exprs[0].Values[0] != "x" {
		t.Errorf("matchLabelKeys not merged: %+v", exprs)
	}
	// DefaultTolerationSeconds added not-ready/unreachable tolerations.
	if len(a.Spec.Tolerations) != 2 {
		t.Errorf("tolerations = %+v", a.Spec.Tolerations)
	}
	if len(s.Namespaces) != 1 || s.Namespaces[0].Labels[v1.LabelMetadataName] != "default" {
		t.Errorf("implicit namespace: %+v", s.Namespaces)
	}
}
