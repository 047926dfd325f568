package controllers

import (
	"slices"

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
// with removePod and replacePod; keys are unique within a list.
func (e *listEdits) applyTo(list []*api.Pod) []*api.Pod {
	slices.SortFunc(e.add, func(a, b *api.Pod) int {
		switch {
		case podLess(a, b):
			return -1
		case podLess(b, a):
			return 1
		}
		return 0
	})
	out := make([]*api.Pod, 0, len(list)+len(e.add))
	j := 0
	for _, p := range list {
		if _, gone := e.drop[p]; gone {
			continue
		}
		if cur, ok := e.swap[p]; ok {
			p = cur
		}
		for ; j < len(e.add) && podLess(e.add[j], p); j++ {
			out = append(out, e.add[j])
		}
		out = append(out, p)
	}
	return append(out, e.add[j:]...)
}
