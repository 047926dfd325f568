package preemption

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// copyWithout leaves exactly what Clone plus RemovePodInfo of each
// lower-priority pod leaves, and never touches the live node.
func TestCopyWithoutEqualsCloneAndRemove(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	var s scratchNode
	var buf []*framework.PodInfo
	for i := 0; i < 300; i++ {
		h, _ := randomCluster(r)
		for _, ni := range h.snap.Nodes() {
			prio := []int32{0, 10, 100, 1000, 5000}[r.IntN(5)]
			before := fmt.Sprintf("%+v", *ni.Clone())
			want := ni.Clone()
			var removed []*framework.PodInfo
			for _, p := range ni.Pods {
				if p.Pod.PriorityValue() < prio {
					removed = append(removed, p)
					want.RemovePodInfo(p)
				}
			}
			var got *framework.NodeInfo
			got, buf = s.copyWithout(ni, prio, buf)
			if !reflect.DeepEqual(keys(buf), keys(removed)) {
				t.Fatalf("removed %v, want %v", keys(buf), keys(removed))
			}
			if !reflect.DeepEqual(keys(got.Pods), keys(want.Pods)) || !reflect.DeepEqual(keys(got.PodsWithAffinity), keys(want.PodsWithAffinity)) ||
				!reflect.DeepEqual(keys(got.PodsWithRequiredAntiAffinity), keys(want.PodsWithRequiredAntiAffinity)) ||
				!reflect.DeepEqual(got.Requested, want.Requested) || !reflect.DeepEqual(got.NonZeroRequested, want.NonZeroRequested) ||
				len(got.UsedPorts) != len(want.UsedPorts) || got.Generation != want.Generation {
				t.Fatalf("node %s prio %d:\ngot  %+v\nwant %+v", ni.Node.Name, prio, *got, *want)
			}
			for hp := range want.UsedPorts {
				if _, ok := got.UsedPorts[hp]; !ok {
					t.Fatalf("port %v missing", hp)
				}
			}
			if after := fmt.Sprintf("%+v", *ni.Clone()); after != before {
				t.Fatalf("live node changed:\n%s\n%s", before, after)
			}
		}
	}
}
