package scenario

import (
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// StatusGiven reports whether a PDB carried a status in the file; such
// budgets are used as given.
func StatusGiven(pdb *policyv1.PodDisruptionBudget) bool {
	st := pdb.Status
	return st.ExpectedPods != 0 || st.CurrentHealthy != 0 || st.DesiredHealthy != 0 || st.DisruptionsAllowed != 0
}

// PDBStatus computes a budget's status from the pods bound now, the way the
// conformance harness feeds both schedulers (a harness rule, not a
// behaviour under test): every matching bound, non-terminating pod in the
// budget's namespace is expected and healthy; desiredHealthy follows
// minAvailable, or expected − maxUnavailable (percentages of the expected
// count rounded up, as pkg/controller/disruption does with
// GetScaledValueFromIntOrPercent); disruptionsAllowed = max(0, healthy −
// desired).
func PDBStatus(pdb *policyv1.PodDisruptionBudget, bound []*v1.Pod) policyv1.PodDisruptionBudgetStatus {
	sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
	var expected int32
	if err == nil && pdb.Spec.Selector != nil {
		for _, p := range bound {
			if p.Namespace == pdb.Namespace && p.DeletionTimestamp == nil && sel.Matches(labels.Set(p.Labels)) {
				expected++
			}
		}
	}
	var desired int32
	switch {
	case pdb.Spec.MinAvailable != nil:
		desired = scaled(pdb.Spec.MinAvailable, expected)
	case pdb.Spec.MaxUnavailable != nil:
		desired = expected - scaled(pdb.Spec.MaxUnavailable, expected)
		if desired < 0 {
			desired = 0
		}
	}
	allowed := expected - desired
	if allowed < 0 {
		allowed = 0
	}
	return policyv1.PodDisruptionBudgetStatus{
		ExpectedPods: expected, CurrentHealthy: expected, DesiredHealthy: desired, DisruptionsAllowed: allowed,
	}
}

func scaled(v *intstr.IntOrString, total int32) int32 {
	n, err := intstr.GetScaledValueFromIntOrPercent(v, int(total), true)
	if err != nil {
		return 0
	}
	return int32(n)
}
