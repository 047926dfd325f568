package controllers

import (
	"slices"
	"sort"

	"podlab.dev/podlab/engine/api"
)

// The one-change-at-a-time list edits. The work queues apply a pass's
// changes to each list in one merge (queue_batch.go); these are the
// reference TestListEditsMatchOneAtATime compares the batches with.

// replacePod returns a new list with cur in place of old (same key), or
// list itself when old is not in it. It is the one-at-a-time reference
// of the batched edits (queue_batch.go), which replace objects in the
// lists the work queues use: those lists are shared with clones
// (queue_clone.go), so they are never edited in place.
func replacePod(list []*api.Pod, old, cur *api.Pod) []*api.Pod {
	i := sort.Search(len(list), func(i int) bool { return !podLess(list[i], old) })
	if i >= len(list) || list[i] != old {
		return list
	}
	out := slices.Clone(list)
	out[i] = cur
	return out
}

// insertPod returns a new list with p in key order (callers may still
// hold the old one).
func insertPod(list []*api.Pod, p *api.Pod) []*api.Pod {
	i := sort.Search(len(list), func(i int) bool { return !podLess(list[i], p) })
	out := make([]*api.Pod, 0, len(list)+1)
	out = append(out, list[:i]...)
	out = append(out, p)
	return append(out, list[i:]...)
}

// removePod returns a new list without the object p.
func removePod(list []*api.Pod, p *api.Pod) []*api.Pod {
	i := sort.Search(len(list), func(i int) bool { return !podLess(list[i], p) })
	if i >= len(list) || list[i] != p {
		return list
	}
	out := make([]*api.Pod, 0, len(list)-1)
	out = append(out, list[:i]...)
	return append(out, list[i+1:]...)
}
