package controllers

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// A batch of edits gives the list that applying them one at a time with
// insertPod, removePod and replacePod gives, built anew (leaving the old
// list as it was: callers may hold it) or in place alike. Random lists and edits, each key changed
// at most once per batch (as apply sees each pending key once).
func TestListEditsMatchOneAtATime(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 2))
	for round := range 300 {
		var list []*api.Pod
		for i := range r.IntN(40) {
			list = insertPod(list, podNS(fmt.Sprint("ns", r.IntN(3)), fmt.Sprint("p", i)))
		}
		held := slices.Clone(list)
		one := list
		e := &listEdits{}
		changed := map[int]bool{}
		for range r.IntN(30) {
			switch k := r.IntN(len(list) + 1); {
			case k < len(list) && !changed[k] && r.IntN(2) == 0:
				changed[k] = true
				old := list[k]
				one = removePod(one, old)
				e.drop = append(e.drop, old)
			case k < len(list) && !changed[k]:
				changed[k] = true
				old := list[k]
				cur := podNS(old.Namespace, old.Name)
				one = replacePod(one, old, cur)
				e.swap = append(e.swap, podSwap{old, cur})
			default:
				p := podNS(fmt.Sprint("ns", r.IntN(4)), fmt.Sprint("new", round, "-", r.IntN(1e6)))
				if slices.ContainsFunc(one, func(x *api.Pod) bool { return x.Key() == p.Key() }) {
					continue
				}
				one = insertPod(one, p)
				e.add = append(e.add, p)
			}
		}
		// an object not in the list changes nothing
		e.drop = append(e.drop, podNS("ns0", "absent"))
		var sc editScratch
		sc.cur = make([]*api.Pod, 50) // stale contents must not leak in
		for i := range sc.cur {
			sc.cur[i] = podNS("stale", fmt.Sprint(i))
		}
		built := e.buildNew(list, &sc)
		if !slices.Equal(list, held) {
			t.Fatalf("round %d: build edited the old list", round)
		}
		// in place (flush at a safe point): the same pods, in the list's
		// own array
		own := make([]*api.Pod, len(list), len(list)+len(e.add))
		copy(own, list)
		inPlace := e.editInPlace(own, &sc)
		if !slices.Equal(inPlace, built) {
			t.Fatalf("round %d: editInPlace gives %d pods, buildNew %d", round, len(inPlace), len(built))
		}
		if len(inPlace) > 0 && &inPlace[0] != &own[:1][0] {
			t.Fatalf("round %d: editInPlace left the list's array", round)
		}
		if !slices.Equal(list, held) {
			t.Fatalf("round %d: editing a copy in place edited the old list", round)
		}
		got := e.applyTo(list)
		if !slices.Equal(built, got) {
			t.Fatalf("round %d: buildNew gives %d pods, applyTo %d", round, len(built), len(got))
		}
		if len(got) != len(one) {
			t.Fatalf("round %d: %d pods, want %d", round, len(got), len(one))
		}
		for i := range got {
			if got[i] != one[i] {
				t.Fatalf("round %d: at %d %s, want %s", round, i, got[i].Key(), one[i].Key())
			}
		}
		if !slices.Equal(list, held) {
			t.Fatalf("round %d: the old list was edited", round)
		}
	}
}

// findPod finds an object by pointer in short lists and by key in long
// ones: the same answer either way — the object's place, or -1 for an
// object not in the list, even one with the key of a listed pod.
func TestFindPodScanAndSearchAgree(t *testing.T) {
	for _, n := range []int{0, 1, 7, findScanMax, findScanMax + 1, 3 * findScanMax} {
		var list []*api.Pod
		for i := range n {
			list = append(list, podNS("ns", fmt.Sprintf("p%05d", i)))
		}
		for i, p := range list {
			if got := findPod(list, p); got != i {
				t.Fatalf("%d pods: %s at %d, want %d", n, p.Key(), got, i)
			}
			if got := findPod(list, podNS(p.Namespace, p.Name)); got != -1 {
				t.Fatalf("%d pods: another object of %s found at %d", n, p.Key(), got)
			}
		}
		if got := findPod(list, podNS("ns", "absent")); got != -1 {
			t.Fatalf("%d pods: an absent pod found at %d", n, got)
		}
	}
}
