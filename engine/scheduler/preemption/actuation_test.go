package preemption

import (
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

func TestActuationHelpers(t *testing.T) {
	pre := mkPod(podSpec{name: "urgent", cpu: "1", prio: 100})
	c := VictimCondition(pre, 5)
	if c.Type != api.DisruptionTarget || c.Status != api.ConditionTrue || c.Reason != "PreemptionByScheduler" ||
		c.Message != "default-scheduler: preempting to accommodate a higher priority pod" || c.LastTransitionTime != 5 {
		t.Errorf("VictimCondition = %+v", c)
	}
	if got := PreemptedEventMessage(pre, "n1"); got != "Preempted by pod uid-urgent on node n1" {
		t.Errorf("PreemptedEventMessage = %q", got)
	}
	running := framework.NewPodInfo(mkPod(podSpec{name: "a", node: "n1", cpu: "1", prio: 1}))
	gone := mkPod(podSpec{name: "b", node: "n1", cpu: "1", prio: 1})
	var now api.Time
	gone.DeletionTimestamp = &now
	if got := keys(VictimsToDelete([]*framework.PodInfo{running, framework.NewPodInfo(gone)})); fmtKeys(got) != "[default/a]" {
		t.Errorf("VictimsToDelete = %v", got)
	}
	low := framework.NewPodInfo(mkPod(podSpec{name: "low", cpu: "1", prio: 99}))
	same := framework.NewPodInfo(mkPod(podSpec{name: "same", cpu: "1", prio: 100}))
	if got := keys(LowerPriorityNominated([]*framework.PodInfo{low, same}, pre)); fmtKeys(got) != "[default/low]" {
		t.Errorf("LowerPriorityNominated = %v", got)
	}
}
