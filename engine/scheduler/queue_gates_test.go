package scheduler

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/schedulinggates"
)

func gatesQueue() *Queue {
	q := NewQueue()
	q.SetPreEnqueue(schedulinggates.New().PreEnqueue)
	return q
}

func withGates(pi *framework.PodInfo, gates ...string) *framework.PodInfo {
	p := *pi.Pod
	p.Spec.SchedulingGates = gates
	return framework.NewPodInfo(&p)
}

// A gated pod waits in the unschedulable pool (moveToActiveQ,
// backend/queue/scheduling_queue.go:684): Pop never returns it, no
// cluster event or flush moves it (scheduling_queue.go:1316), an update
// that keeps a gate keeps it there, and the update removing the last
// gate sends it to activeQ with its original timestamp — ahead of a pod
// of equal priority added later.
func TestQueueKeepsGatedPodsOutOfActiveQ(t *testing.T) {
	q := gatesQueue()
	old := withGates(mkPod("old", 1, 0), "a", "b")
	q.Add(old, at(0))
	if qp := q.Pending(); len(qp) != 1 || qp[0].Where != InUnschedulable || qp[0].Gate == nil || qp[0].Gate.Plugin != schedulinggates.Name {
		t.Fatalf("pending %+v, want old gated in the unschedulable pool", qp)
	}
	if got := popNames(q, at(0)); len(got) != 0 {
		t.Fatalf("popped %v", got)
	}
	for _, ev := range []ClusterEvent{NodeAdd, AssignedPodDelete, UnschedulableTimeout} {
		if n := q.MoveAllToActiveOrBackoff(ev, at(time.Second)); n != 0 {
			t.Errorf("%s moved %d gated pods", ev, n)
		}
	}
	if n := q.FlushUnschedulableLeftover(at(10 * time.Minute)); n != 0 {
		t.Errorf("the flush moved %d gated pods", n)
	}
	q.Update(withGates(mkPod("old", 1, 0), "b"), at(10*time.Minute))
	if g := q.Gate("default/old"); g == nil || g.Message() != "waiting for scheduling gates: [b]" {
		t.Fatalf("after removing a: gate %+v", g)
	}
	q.Add(mkPod("new", 1, 0), at(11*time.Minute))
	q.Update(withGates(mkPod("old", 1, 0)), at(12*time.Minute))
	if g := q.Gate("default/old"); g != nil {
		t.Fatalf("after removing b: still gated %+v", g)
	}
	if got, want := popNames(q, at(12*time.Minute)), []string{"old", "new"}; !reflect.DeepEqual(got, want) {
		t.Errorf("popped %v, want %v (old keeps its timestamp 0)", got, want)
	}
}

// Without a PreEnqueue hook (a queue of its own, or a profile without
// SchedulingGates) gates do not gate.
func TestQueueWithoutPreEnqueueIgnoresGates(t *testing.T) {
	q := NewQueue()
	q.Add(withGates(mkPod("p", 1, 0), "a"), at(0))
	if got := popNames(q, at(0)); !reflect.DeepEqual(got, []string{"p"}) {
		t.Errorf("popped %v, want [p]", got)
	}
}

// The default profile gates; one that disables SchedulingGates does not
// (the plugin is the only PreEnqueue the lab models).
func TestSchedulerPreEnqueueFollowsTheProfile(t *testing.T) {
	gated := withGates(mkPod("p", 1, 0), "example.com/foo").Pod
	def, err := Build(Config{}, framework.NewSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	if st := def.PreEnqueue(gated); st == nil || st.Plugin != schedulinggates.Name || st.Code != framework.UnschedulableAndUnresolvable {
		t.Errorf("default profile: %+v, want SchedulingGates' rejection", st)
	}
	if st := def.PreEnqueue(mkPod("q", 1, 0).Pod); st != nil {
		t.Errorf("default profile, no gates: %+v", st)
	}
	for _, plugins := range []*Plugins{
		{MultiPoint: PluginSet{Disabled: []string{schedulinggates.Name}}},
		{PreEnqueue: PluginSet{Disabled: []string{"*"}}},
	} {
		off, err := Build(Config{Profiles: []ProfileConfig{{Plugins: plugins}}}, framework.NewSnapshot())
		if err != nil {
			t.Fatal(err)
		}
		if st := off.PreEnqueue(gated); st != nil {
			t.Errorf("%+v: %+v, want no gate", plugins, st)
		}
	}
	other := *gated
	other.Spec.SchedulerName = "elsewhere"
	if st := def.PreEnqueue(&other); st != nil {
		t.Errorf("no profile for the pod: %+v, want nil", st)
	}
}

// A clone keeps gated pods gated with their Gate, and the hook.
func TestQueueCloneKeepsGates(t *testing.T) {
	q := gatesQueue()
	q.Add(withGates(mkPod("g", 1, 0), "a"), at(0))
	c := q.Clone(nil)
	if g := c.Gate("default/g"); g == nil {
		t.Fatalf("clone lost the gate")
	}
	if got := popNames(c, at(time.Hour)); len(got) != 0 {
		t.Errorf("clone popped %v", got)
	}
	c.Add(withGates(mkPod("h", 1, 0), "x"), at(0))
	if c.Gate("default/h") == nil {
		t.Errorf("the clone has no PreEnqueue hook")
	}
}

// cloneQueueHandles lists what Queue.Clone does with each field of
// Queue and QueuedPod: a field added later must be decided in
// queue_clone.go and listed here, or a clone (undo, checkpoints, forks)
// would run without it.
func TestCloneQueueKnowsEveryField(t *testing.T) {
	for _, tc := range []struct {
		typ     reflect.Type
		handled []string
	}{
		{reflect.TypeOf(Queue{}), []string{
			"active", "backoff", "errBackoff", "unsched", "pods", // copied pod by pod
			"seq", "InitialBackoff", "MaxBackoff", "MaxInUnschedulable", "preEnqueue",
		}},
		{reflect.TypeOf(QueuedPod{}), []string{
			"Info",                                                           // the owner's PodInfo (infoOf)
			"Plugins",                                                        // copied
			"Timestamp", "UnschedulableCount", "ErrorCount", "Where", "Gate", // values (Gate is immutable)
			"backoffExpiry", "hasExpiry", "inErrQ", "index",
		}},
	} {
		var fields []string
		for i := range tc.typ.NumField() {
			fields = append(fields, tc.typ.Field(i).Name)
		}
		slices.Sort(fields)
		slices.Sort(tc.handled)
		if !slices.Equal(fields, tc.handled) {
			t.Errorf("%s has fields %v;\nClone handles %v", tc.typ.Name(), fields, tc.handled)
		}
	}
}

// A profile that switches SchedulingGates off says so in its policy
// (explain's profile lines); DefaultPreemption's PreEnqueue, which the
// lab does not model, is not listed there when preemption is off.
func TestPolicyNamesDisabledSchedulingGates(t *testing.T) {
	for _, tc := range []struct {
		plugins *Plugins
		want    []string
	}{
		{&Plugins{MultiPoint: PluginSet{Disabled: []string{schedulinggates.Name}}}, []string{"preEnqueue disabled: SchedulingGates"}},
		{&Plugins{MultiPoint: PluginSet{Disabled: []string{DefaultPreemptionName}}}, []string{"postFilter disabled: DefaultPreemption"}},
	} {
		s, err := Build(Config{Profiles: []ProfileConfig{{Plugins: tc.plugins}}}, framework.NewSnapshot())
		if err != nil {
			t.Fatal(err)
		}
		if got := s.profiles["default-scheduler"].policy; !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%+v: policy %q, want %q", tc.plugins, got, tc.want)
		}
	}
}
