package controllers

import (
	"slices"
	"sort"

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
type listEdits struct {
	add  []*api.Pod
	drop map[*api.Pod]struct{}
	swap map[*api.Pod]*api.Pod
}

func (q *workQueues) editsOf(id listID) *listEdits {
	if q.edits == nil {
		q.edits = map[listID]*listEdits{}
	}
	e := q.edits[id]
	if e == nil {
		e = &listEdits{}
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
	if e.drop == nil {
		e.drop = map[*api.Pod]struct{}{}
	}
	e.drop[p] = struct{}{}
}

func (q *workQueues) replaceLater(id listID, old, cur *api.Pod) {
	e := q.editsOf(id)
	if e.swap == nil {
		e.swap = map[*api.Pod]*api.Pod{}
	}
	e.swap[old] = cur
}

// flush rebuilds every list with recorded edits. An owner's or a
// namespace's list that ends empty is deleted, as unindex did; a label
// pair's stays (it is still asked for).
func (q *workQueues) flush() {
	for id, e := range q.edits {
		switch id.kind {
		case ownerList:
			if l := e.applyTo(q.byOwner[id.name]); len(l) > 0 {
				q.byOwner[id.name] = l
			} else {
				delete(q.byOwner, id.name)
			}
		case orphanList:
			if l := e.applyTo(q.orphans[id.name]); len(l) > 0 {
				q.orphans[id.name] = l
			} else {
				delete(q.orphans, id.name)
			}
		case labelList:
			if list, ok := q.byLabel[id.lp]; ok {
				q.byLabel[id.lp] = e.applyTo(list)
			}
		}
	}
	clear(q.edits)
}

// applyTo returns a new list: list (in key order) without the dropped
// objects, with the replaced ones swapped, merged with the added pods.
// A dropped or replaced object that is not in list changes nothing, as
// with removePod and replacePod; keys are unique within a list. The
// objects changed are found by binary search and the rest is copied in
// chunks, so a batch of k changes to a list of n pods costs one copy and
// O(k log n) comparisons.
func (e *listEdits) applyTo(list []*api.Pod) []*api.Pod {
	cur := slices.Clone(list)
	for old, p := range e.swap {
		if i := findPod(cur, old); i >= 0 {
			cur[i] = p
		}
	}
	var at []int
	for p := range e.drop {
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
	if len(e.add) == 0 {
		return cur
	}
	slices.SortFunc(e.add, func(a, b *api.Pod) int {
		switch {
		case podLess(a, b):
			return -1
		case podLess(b, a):
			return 1
		}
		return 0
	})
	out := make([]*api.Pod, 0, len(cur)+len(e.add))
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
