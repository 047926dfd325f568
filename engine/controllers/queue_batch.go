package controllers

import (
	"slices"
	"sort"
	"unsafe"

	"podlab.dev/podlab/engine/api"
)

// Batched list edits. The work queues' pod lists are replaced, never
// edited (a caller may hold the old one), so editing one per pod change
// copied the whole list each time: scaling a ReplicaSet to 100,000
// replicas copied its owner list 100,000 times (issue 17). Instead the
// changes applied together (apply, UseWorkQueues) are collected per list
// and each changed list is rebuilt once, in one merge: the same lists in
// the same order as editing them one change at a time.

// listKind says which index a list belongs to.
type listKind uint8

const (
	ownerList  listKind = iota // byOwner, by controller UID
	orphanList                 // orphans, by namespace
	labelList                  // byLabel, by label pair
)

// listID names one list of the work queues.
type listID struct {
	kind listKind
	name string    // the UID or the namespace
	lp   labelPair // labelList only
}

// listEdits are the changes to one list: pods to insert, objects to drop
// and objects to replace by another object of the same pod.
// Each is a slice, not a set: apply sees each pending key once, so an
// object is dropped or replaced at most once per list and batch.
type listEdits struct {
	add  []*api.Pod
	drop []*api.Pod
	swap []podSwap
}

// podSwap replaces the object old by cur.
type podSwap struct{ old, cur *api.Pod }

// reset empties e for reuse, keeping its slices' space (and no pods).
func (e *listEdits) reset() {
	clear(e.add)
	clear(e.drop)
	clear(e.swap)
	e.add, e.drop, e.swap = e.add[:0], e.drop[:0], e.swap[:0]
}

func (q *workQueues) editsOf(id listID) *listEdits {
	if q.edits == nil {
		q.edits = map[listID]*listEdits{}
	}
	e := q.edits[id]
	if e == nil {
		if n := len(q.spareEdits); n > 0 {
			e, q.spareEdits = q.spareEdits[n-1], q.spareEdits[:n-1]
		} else {
			e = &listEdits{}
		}
		q.edits[id] = e
	}
	return e
}

// insertLater, removeLater and replaceLater record what insertPod,
// removePod and replacePod would do to the list id.
func (q *workQueues) insertLater(id listID, p *api.Pod) {
	e := q.editsOf(id)
	e.add = append(e.add, p)
}

func (q *workQueues) removeLater(id listID, p *api.Pod) {
	e := q.editsOf(id)
	e.drop = append(e.drop, p)
}

func (q *workQueues) replaceLater(id listID, old, cur *api.Pod) {
	e := q.editsOf(id)
	e.swap = append(e.swap, podSwap{old, cur})
}

// flush rebuilds every list with recorded edits. An owner's or a
// namespace's list that ends empty is deleted, as unindex did; a label
// pair's stays (it is still asked for).
//
// A list built with the same pods as one this flush already built is
// that one (buildNew's new slice is dropped): a Deployment's ReplicaSet's
// owner list and the label list its HPA selects by hold the same pods, so
// both are one slice. Lists are never edited in place (see above), so
// sharing one is invisible; each is allocated at its length, so an
// append by a reader copies it.
func (q *workQueues) flush() {
	built := q.built[:0]
	rebuilt := func(e *listEdits, list []*api.Pod) []*api.Pod {
		for _, b := range built {
			if b.from(e, list) {
				// the same list with the same edits (a shared list)
				return b.out
			}
		}
		out := e.buildNew(list, &q.scratch)
		if len(out) == 0 {
			return e.applyTo(list) // as before: nil or empty as applyTo gives
		}
		for _, b := range built {
			if slices.Equal(b.out, out) {
				return b.out
			}
		}
		built = append(built, builtList{list: list, edits: e, out: out})
		return out
	}
	for id, e := range q.edits {
		switch id.kind {
		case ownerList:
			if l := rebuilt(e, q.byOwner[id.name]); len(l) > 0 {
				q.byOwner[id.name] = l
			} else {
				delete(q.byOwner, id.name)
			}
		case orphanList:
			if l := rebuilt(e, q.orphans[id.name]); len(l) > 0 {
				q.orphans[id.name] = l
			} else {
				delete(q.orphans, id.name)
			}
		case labelList:
			if list, ok := q.byLabel[id.lp]; ok {
				q.byLabel[id.lp] = rebuilt(e, list)
			}
		}
	}
	for _, e := range q.edits {
		e.reset()
		q.spareEdits = append(q.spareEdits, e)
	}
	clear(built)
	q.built = built[:0]
	// the scratch space must not keep removed pods alive (only what this
	// flush wrote: clearing the whole capacity, which the start's
	// thousands of pods grew, was most of the cost)
	clear(q.scratch.cur[:min(q.scratch.used, cap(q.scratch.cur))])
	q.scratch.used = 0
	clear(q.edits)
}

// builtList is a list flush built: from list with edits.
type builtList struct {
	list  []*api.Pod
	edits *listEdits
	out   []*api.Pod
}

// from reports whether building list with e gives b's list: the same
// slice (not only the same pods) edited the same way.
func (b *builtList) from(e *listEdits, list []*api.Pod) bool {
	return len(list) == len(b.list) && unsafe.SliceData(list) == unsafe.SliceData(b.list) &&
		slices.Equal(e.add, b.edits.add) && slices.Equal(e.drop, b.edits.drop) && slices.Equal(e.swap, b.edits.swap)
}

// editScratch is flush's working space: a list pods are added to is
// edited here before the merge (buildNew).
type editScratch struct {
	cur  []*api.Pod
	used int // the longest list copied here since the last clear
}

// buildNew is applyTo into a new slice whose capacity is its length
// (an append by a reader copies it). The list is built in place of its
// copy rather than in scratch space and then copied: a list is shared
// with another one only when both were built from one slice with the
// same edits (flush asks builtList.from first), so building a list a
// second time to find it equal to one already built is rare, and the
// copy was most of flush's time. The scratch space holds only what the
// added pods are merged with.
func (e *listEdits) buildNew(list []*api.Pod, sc *editScratch) []*api.Pod {
	if len(e.add) == 0 {
		out := e.edit(slices.Clone(list))
		return out[:len(out):len(out)]
	}
	cur := append(sc.cur[:0], list...)
	sc.cur = cur
	sc.used = max(sc.used, len(cur))
	res := e.edit(cur)
	out := e.merge(make([]*api.Pod, 0, len(res)+len(e.add)), res)
	return out[:len(out):len(out)]
}

// applyTo returns a new list: list (in key order) without the dropped
// objects, with the replaced ones swapped, merged with the added pods.
// A dropped or replaced object that is not in list changes nothing, as
// with removePod and replacePod; keys are unique within a list. The
// objects changed are found by binary search and the rest is copied in
// chunks, so a batch of k changes to a list of n pods costs one copy and
// O(k log n) comparisons.
func (e *listEdits) applyTo(list []*api.Pod) []*api.Pod {
	cur := e.edit(slices.Clone(list))
	if len(e.add) == 0 {
		return cur
	}
	return e.merge(make([]*api.Pod, 0, len(cur)+len(e.add)), cur)
}

// edit swaps and drops in cur (a copy of the list) and returns it
// shortened.
func (e *listEdits) edit(cur []*api.Pod) []*api.Pod {
	for _, sw := range e.swap {
		if i := findPod(cur, sw.old); i >= 0 {
			cur[i] = sw.cur
		}
	}
	var at []int
	for _, p := range e.drop {
		if i := findPod(cur, p); i >= 0 {
			at = append(at, i)
		}
	}
	if len(at) > 0 {
		slices.Sort(at)
		w := at[0]
		for k, i := range at {
			end := len(cur)
			if k+1 < len(at) {
				end = at[k+1]
			}
			w += copy(cur[w:], cur[i+1:end])
		}
		clear(cur[w:])
		cur = cur[:w]
	}
	return cur
}

// merge appends to out the pods of cur merged with the added ones.
func (e *listEdits) merge(out, cur []*api.Pod) []*api.Pod {
	slices.SortFunc(e.add, func(a, b *api.Pod) int {
		switch {
		case podLess(a, b):
			return -1
		case podLess(b, a):
			return 1
		}
		return 0
	})
	from := 0
	for _, p := range e.add {
		i := from + sort.Search(len(cur)-from, func(i int) bool { return !podLess(cur[from+i], p) })
		out = append(append(out, cur[from:i]...), p)
		from = i
	}
	return append(out, cur[from:]...)
}

// findPod returns the position of the object p in list (key order), or
// -1: the lookup of removePod and replacePod.
func findPod(list []*api.Pod, p *api.Pod) int {
	i := sort.Search(len(list), func(i int) bool { return !podLess(list[i], p) })
	if i < len(list) && list[i] == p {
		return i
	}
	return -1
}
