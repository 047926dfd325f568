package controllers

import (
	"slices"
	"sort"
	"unsafe"

	"podlab.dev/podlab/engine/api"
)

// Batched list edits. The work queues' pod lists are replaced, not
// edited, while a caller may hold the old one (within a sync; a clone
// shares them), so editing one per pod change copied the whole list each
// time: scaling a ReplicaSet to 100,000
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

// editEntry is one list's edits in an apply.
type editEntry struct {
	id listID
	e  *listEdits
}

// editScanMax is how many lists an apply's edits are searched through
// before they are indexed by a map: a pod change edits two or three lists
// (its owner's, its labels'), and hashing a listID (four strings) on
// every edit cost more than comparing it with a few.
const editScanMax = 16

func (q *workQueues) editsOf(id listID) *listEdits {
	if q.editIndex != nil {
		if i, ok := q.editIndex[id]; ok {
			return q.edits[i].e
		}
	} else {
		for i := range q.edits {
			if q.edits[i].id == id {
				return q.edits[i].e
			}
		}
	}
	var e *listEdits
	if n := len(q.spareEdits); n > 0 {
		e, q.spareEdits = q.spareEdits[n-1], q.spareEdits[:n-1]
	} else {
		e = &listEdits{}
	}
	q.edits = append(q.edits, editEntry{id, e})
	switch {
	case q.editIndex != nil:
		q.editIndex[id] = len(q.edits) - 1
	case len(q.edits) > editScanMax:
		q.editIndex = make(map[listID]int, 2*len(q.edits))
		for i := range q.edits {
			q.editIndex[q.edits[i].id] = i
		}
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
// In place (inPlace, at a safe point: see applyInPlace) a list whose
// array this queue owns alone (mine) is edited where it is instead of
// copied: a pod's status change swaps one pointer, a creation or a
// removal moves the rest of the list. Each changed list of a pass was a
// new ~100-pod slice before, a quarter of every byte BenchmarkDayHPA
// allocated. Otherwise (a clone shares the array, or a reader may hold
// it) the list is built anew, with room to grow in place later.
func (q *workQueues) flush(inPlace bool) {
	for _, en := range q.edits {
		id, e := en.id, en.e
		switch id.kind {
		case ownerList:
			if l := q.edited(e, q.byOwner[id.name], inPlace); len(l) > 0 {
				q.byOwner[id.name] = l
			} else {
				q.forget(l)
				delete(q.byOwner, id.name)
			}
		case orphanList:
			if l := q.edited(e, q.orphans[id.name], inPlace); len(l) > 0 {
				q.orphans[id.name] = l
			} else {
				q.forget(l)
				delete(q.orphans, id.name)
			}
		case labelList:
			if list, ok := q.byLabel[id.lp]; ok {
				q.byLabel[id.lp] = q.edited(e, list, inPlace)
			}
		}
	}
	for _, en := range q.edits {
		en.e.reset()
		q.spareEdits = append(q.spareEdits, en.e)
	}
	// the scratch space must not keep removed pods alive (only what this
	// flush wrote: clearing the whole capacity, which the start's
	// thousands of pods grew, was most of the cost)
	clear(q.scratch.cur[:min(q.scratch.used, cap(q.scratch.cur))])
	q.scratch.used = 0
	clear(q.edits)
	q.edits, q.editIndex = q.edits[:0], nil
}

// edited returns list with e's edits: list itself edited in place when
// inPlace, its array is mine and the added pods fit in its capacity,
// else a new list (mine from then on; the old array is no longer).
func (q *workQueues) edited(e *listEdits, list []*api.Pod, inPlace bool) []*api.Pod {
	if inPlace && q.isMine(list) && len(list)+len(e.add) <= cap(list) {
		return e.editInPlace(list, &q.scratch)
	}
	out := e.buildNew(list, &q.scratch)
	if len(out) == 0 {
		out = e.applyTo(list) // as before: nil or empty as applyTo gives
	}
	q.forget(list)
	q.claim(out)
	return out
}

// mine holds the arrays of the lists this queue's indexes hold alone: no
// other list shares one (each list is built on its own), no clone does
// (cloneWorkQueues forgets them on both sides), and readers hold a list
// only within one sync (none keeps one in an object), so between two
// syncs such an array can be edited in place. Only arrays with room are
// recorded (an empty array has no address of its own).

func listArray(list []*api.Pod) unsafe.Pointer {
	return unsafe.Pointer(unsafe.SliceData(list))
}

func (q *workQueues) isMine(list []*api.Pod) bool {
	if cap(list) == 0 {
		return false
	}
	_, ok := q.mine[listArray(list)]
	return ok
}

func (q *workQueues) claim(list []*api.Pod) {
	if cap(list) == 0 {
		return
	}
	if q.mine == nil {
		q.mine = map[unsafe.Pointer]struct{}{}
	}
	q.mine[listArray(list)] = struct{}{}
}

func (q *workQueues) forget(list []*api.Pod) {
	if cap(list) > 0 {
		delete(q.mine, listArray(list))
	}
}

// editScratch is flush's working space: a list pods are added to is
// edited here before the merge (buildNew).
type editScratch struct {
	cur  []*api.Pod
	used int // the longest list copied here since the last clear
}

// buildNew is applyTo into a new slice with room to grow (withRoom;
// readers get it capped at its length, so an append by a reader copies
// it). The list is built in place of its copy rather than in scratch
// space and then copied; the scratch space holds only what the added pods
// are merged with.
func (e *listEdits) buildNew(list []*api.Pod, sc *editScratch) []*api.Pod {
	if len(e.add) == 0 {
		out := make([]*api.Pod, len(list), withRoom(len(list)))
		copy(out, list)
		return e.edit(out)
	}
	cur := append(sc.cur[:0], list...)
	sc.cur = cur
	sc.used = max(sc.used, len(cur))
	res := e.edit(cur)
	return e.merge(make([]*api.Pod, 0, withRoom(len(res)+len(e.add))), res)
}

// withRoom is the capacity of a new list of n pods: room for a few more,
// so that the creations of a ReplicaSet's replacements fit in place.
func withRoom(n int) int { return n + n/8 + 4 }

// editInPlace is applyTo in list's own array, which has room for the
// added pods: the swaps and drops are made where the pods are, the
// remaining pods are copied to scratch space and merged back with the
// added ones.
func (e *listEdits) editInPlace(list []*api.Pod, sc *editScratch) []*api.Pod {
	res := e.edit(list)
	if len(e.add) == 0 {
		return res
	}
	cur := append(sc.cur[:0], res...)
	sc.cur = cur
	sc.used = max(sc.used, len(cur))
	return e.merge(list[:0], cur)
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
	slices.SortFunc(e.add, comparePods)
	from := 0
	for _, p := range e.add {
		i := from + sort.Search(len(cur)-from, func(i int) bool { return !podLess(cur[from+i], p) })
		out = append(append(out, cur[from:i]...), p)
		from = i
	}
	return append(out, cur[from:]...)
}

// findScanMax is the longest list findPod scans.
const findScanMax = 512

// findPod returns the position of the object p in list (key order), or
// -1: the lookup of removePod and replacePod. A short list is scanned for
// the pointer: the binary search by key reads a pod object at every step,
// each a cache miss, where the scan reads only the list (a ReplicaSet's
// hundred pods); keys are unique in a list, so both find the same place.
func findPod(list []*api.Pod, p *api.Pod) int {
	if len(list) <= findScanMax {
		return slices.Index(list, p)
	}
	i := sort.Search(len(list), func(i int) bool { return !podLess(list[i], p) })
	if i < len(list) && list[i] == p {
		return i
	}
	return -1
}
