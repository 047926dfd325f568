package scheduler

import (
	"fmt"
	"strings"
	"testing"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// extPlugin is a PreFilter plugin with extensions that records calls.
type extPlugin struct {
	name    string
	skip    bool
	added   []string
	removed []string
	fail    bool
}

func (p *extPlugin) Name() string { return p.name }
func (p *extPlugin) PreFilter(*framework.CycleState, *framework.PodInfo, *framework.Snapshot) (*framework.PreFilterResult, *framework.Status) {
	if p.skip {
		return nil, framework.NewStatus(framework.Skip)
	}
	return nil, nil
}
func (p *extPlugin) PreFilterExtensions() framework.PreFilterExtensions { return p }
func (p *extPlugin) AddPod(_ *framework.CycleState, _, add *framework.PodInfo, _ *framework.NodeInfo) *framework.Status {
	p.added = append(p.added, add.Pod.Name)
	if p.fail {
		return framework.AsStatus(fmt.Errorf("boom"))
	}
	return nil
}
func (p *extPlugin) RemovePod(_ *framework.CycleState, _, rm *framework.PodInfo, _ *framework.NodeInfo) *framework.Status {
	p.removed = append(p.removed, rm.Pod.Name)
	return nil
}

func TestHandlePreFilterExtensions(t *testing.T) {
	snap := mkSnapshot(mkNode("a", 1000))
	active, skipped := &extPlugin{name: "PodTopologySpread"}, &extPlugin{name: "InterPodAffinity", skip: true}
	s := testScheduler(Config{}, snap, active, skipped)
	state := framework.NewCycleState()
	pi := mkPod("p", 1, 0)
	if _, st, _ := s.runPreFilter(state, pi); !st.IsSuccess() {
		t.Fatal(st)
	}
	other := mkPod("other", 1, 0)
	if st := s.RunPreFilterExtensionAddPod(state, pi, other, snap.Get("a")); !st.IsSuccess() {
		t.Fatal(st)
	}
	if st := s.RunPreFilterExtensionRemovePod(state, pi, other, snap.Get("a")); !st.IsSuccess() {
		t.Fatal(st)
	}
	if len(active.added) != 1 || len(active.removed) != 1 {
		t.Errorf("active plugin: added %v removed %v", active.added, active.removed)
	}
	if len(skipped.added)+len(skipped.removed) != 0 {
		t.Errorf("a plugin whose PreFilter skipped must not get extension calls")
	}
	active.fail = true
	st := s.RunPreFilterExtensionAddPod(state, pi, other, snap.Get("a"))
	if st.CodeOf() != framework.Error || !strings.Contains(st.Message(), `running AddPod on PreFilter plugin "PodTopologySpread": boom`) {
		t.Errorf("error status %+v", st)
	}
}

func TestHandleRunFilterPluginsSeesNominatedPods(t *testing.T) {
	snap := mkSnapshot(mkNode("a", 1000))
	s := testScheduler(Config{}, snap, fitFilter())
	state := framework.NewCycleState()
	pi := mkPod("p", 600, 5)
	if st := s.RunFilterPlugins(state, pi, snap.Get("a")); !st.IsSuccess() {
		t.Fatalf("empty node: %v", st)
	}
	s.Nominator().AddNominatedPod(mkPod("nominated", 600, 5), "a")
	st := s.RunFilterPlugins(state, pi, snap.Get("a"))
	if !st.IsRejected() || st.Plugin != "NodeResourcesFit" {
		t.Errorf("with a nominated pod of equal priority: %+v", st)
	}
	if got := snap.Get("a").Requested.MilliCPU; got != 0 {
		t.Errorf("the snapshot's node was changed: requested %d", got)
	}
}
