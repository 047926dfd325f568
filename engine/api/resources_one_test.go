package api

import (
	"math/rand/v2"
	"testing"
)

// PodRequest is PodRequests' entry for the resource, on random pods:
// containers, init containers and sidecars in any order, pod-level
// requests (supported or not), overhead, resources set or absent.
func TestPodRequestIsPodRequests(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	names := []string{ResourceCPU, ResourceMemory, "ephemeral-storage", "hugepages-2Mi", "example.com/gpu"}
	list := func() ResourceList {
		if r.IntN(4) == 0 {
			return nil
		}
		out := ResourceList{}
		for _, n := range names {
			if r.IntN(2) == 0 {
				out[n] = Quantity(r.IntN(2000) - 100)
			}
		}
		return out
	}
	for iter := 0; iter < 20000; iter++ {
		p := &Pod{}
		for range r.IntN(4) {
			p.Spec.Containers = append(p.Spec.Containers, Container{Resources: ResourceRequirements{Requests: list()}})
		}
		for range r.IntN(4) {
			c := Container{Resources: ResourceRequirements{Requests: list()}}
			if r.IntN(2) == 0 {
				c.RestartPolicy = "Always"
			}
			p.Spec.InitContainers = append(p.Spec.InitContainers, c)
		}
		if r.IntN(3) == 0 {
			p.Spec.Resources = &ResourceRequirements{Requests: list()}
		}
		if r.IntN(3) == 0 {
			p.Spec.Overhead = list()
		}
		all := PodRequests(p, PodRequestsOptions{})
		for _, n := range names {
			if got, want := PodRequest(p, n), all[n]; got != want {
				t.Fatalf("case %d, %s: PodRequest %d, PodRequests %d (pod %+v)", iter, n, got, want, p.Spec)
			}
		}
	}
}
