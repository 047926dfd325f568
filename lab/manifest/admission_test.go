package manifest

import (
	"testing"

	"podlab.dev/podlab/engine/admission"
	"podlab.dev/podlab/engine/api"
)

// Loaded pods go through admission as the lab does: a kubectl dump is
// already admitted (admitting it again changes nothing that matters), a
// doc pod gets its class's priority.
func TestLoadedPodsAdmit(t *testing.T) {
	objs := loadFile(t, "testdata/docs/priorityclass.yaml")
	p := objs.Pods[0]
	if err := admission.AdmitPod(p, objs.PriorityClassMap()); err != nil {
		t.Fatal(err)
	}
	if *p.Spec.Priority != 1000000 || *p.Spec.PreemptionPolicy != api.PreemptLowerPriority || len(p.Spec.Tolerations) != 2 {
		t.Errorf("admitted pod: priority %d policy %s tolerations %v", *p.Spec.Priority, *p.Spec.PreemptionPolicy, p.Spec.Tolerations)
	}

	dump := loadFile(t, "testdata/kubectl-list.yaml")
	q := dump.Pods[0]
	if err := admission.AdmitPod(q, dump.PriorityClassMap()); err != nil {
		t.Fatal(err)
	}
	if len(q.Spec.Tolerations) != 2 || q.Status.Phase != api.PodRunning || q.Status.QOSClass != api.QOSBurstable {
		t.Errorf("re-admitted dump pod: %+v", q.Spec.Tolerations)
	}
}
