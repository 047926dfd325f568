package noderesources

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"
	"unsafe"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

// TestAllocIndexFollowsTheSnapshot changes a snapshot at random (pods
// bound and deleted, nodes resized, added and removed) and checks after
// every change that Score through the index equals Score on a copy of the
// NodeInfo (which reads the NodeInfo itself).
func TestAllocIndexFollowsTheSnapshot(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	cpus := []string{"0", "500m", "1", "2", "4"}
	mems := []string{"0", "1Gi", "2Gi", "8Gi"}
	node := func(name string) *api.Node {
		return tu.MakeNode().Name(name).Capacity(tu.Res{"cpu": cpus[rng.Intn(len(cpus))], "memory": mems[rng.Intn(len(mems))],
			"pods": []string{"3", "110"}[rng.Intn(2)], "ephemeral-storage": []string{"0", "2Gi"}[rng.Intn(2)]}).Obj()
	}
	var nodes []*api.Node
	for i := 0; i < 6; i++ {
		nodes = append(nodes, node(fmt.Sprintf("n%d", i)))
	}
	snap := tu.NewSnapshot(nodes, nil)
	var bound []string
	incoming := []*framework.PodInfo{
		usage(cm("300m", "512Mi")).Name("a").Info(),
		usage(cpuOnly("1")).Name("b").Info(),
		usage(cm("2", "4Gi")).Name("d").Info(),
		usage(tu.Res{"cpu": "1", "ephemeral-storage": "1Gi"}).Name("e").Info(),
		tu.MakePod().Name("c").Container("nginx").Info(),
	}
	fit, ba := NewFit(), NewBalancedAllocation()
	for step := 0; step < 1000; step++ {
		switch op := rng.Intn(10); {
		case op < 5:
			n := snap.Nodes()[rng.Intn(len(snap.Nodes()))].Node.Name
			name := fmt.Sprintf("p%d", step)
			p := usage(cm(cpus[rng.Intn(3)], mems[rng.Intn(3)])).Name(name).Node(n)
			switch rng.Intn(5) {
			case 0:
				p = tu.MakePod().Name(name).Node(n).Container("x")
			case 1:
				p = usage(tu.Res{"cpu": "100m", "ephemeral-storage": "1Gi"}).Name(name).Node(n)
			}
			snap.AddPod(p.Info())
			bound = append(bound, "default/"+name)
		case op < 8 && len(bound) > 0:
			i := rng.Intn(len(bound))
			snap.RemovePod(bound[i])
			bound = append(bound[:i], bound[i+1:]...)
		case op == 8:
			snap.UpdateNode(node(snap.Nodes()[rng.Intn(len(snap.Nodes()))].Node.Name))
		default:
			if rng.Intn(2) == 0 && len(snap.Nodes()) > 2 {
				snap.RemoveNode(snap.Nodes()[rng.Intn(len(snap.Nodes()))].Node.Name)
			} else {
				snap.AddNode(node(fmt.Sprintf("m%d", step)))
			}
		}
		for _, pod := range incoming {
			state := framework.NewCycleState()
			fit.PreFilter(state, pod, snap)
			for _, ni := range snap.Nodes() {
				got, want := fit.Filter(state, pod, ni), fit.Filter(state, pod, ni.Clone())
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("step %d Filter on %s: index %+v, direct %+v", step, ni.Node.Name, got, want)
				}
			}
			fit.PreScore(state, pod, snap, snap.Nodes())
			ba.PreScore(state, pod, snap, snap.Nodes())
			for _, ni := range snap.Nodes() {
				clone := ni.Clone()
				for _, pl := range []framework.ScorePlugin{fit, ba} {
					got, _ := pl.Score(state, pod, ni)
					want, _ := pl.Score(state, pod, clone)
					if got != want {
						t.Fatalf("step %d %s on %s: index %d, direct %d", step, pl.Name(), ni.Node.Name, got, want)
					}
				}
			}
		}
	}
}

func TestScoreMemoIsSmall(t *testing.T) {
	if size := unsafe.Sizeof(scoreMemo{}); size > 12 {
		t.Fatalf("scoreMemo is %d bytes", size)
	}
}
