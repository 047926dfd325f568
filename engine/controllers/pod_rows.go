package controllers

import "podlab.dev/podlab/engine/api"

// Per-pod row tables — the ReplicaSet's facts (replicaset_table.go) and
// the HPA's pod facts (hpa_pods.go) — keep one row per pod object of a
// list in namespace/name order and read a pod again only when its object
// changed (objects are never edited once shared). These are the two walks
// both tables make over a new list against the one they last saw.

// replaceRowsInPlace is the common case, pods and old of one length with
// each key where it stood: every replaced object is handed to replace
// with its index. It reports false at the first key out of place (the
// rows replaced so far are updated; realignRows finds them as they are).
func replaceRowsInPlace(pods, old []*api.Pod, replace func(i int, p *api.Pod)) bool {
	for i, p := range pods {
		q := old[i]
		if p == q {
			continue
		}
		if p.Name != q.Name || p.Namespace != q.Namespace {
			return false
		}
		replace(i, p)
	}
	return true
}

// realignRows returns the rows of pods, built in out's array (grown if
// short): a run of objects found in old (same order) copies their rows
// from oldRows at once, any other object is read.
func realignRows[T any](out []T, pods, old []*api.Pod, oldRows []T, read func(*api.Pod) T) []T {
	out = out[:0]
	if cap(out) < len(pods) {
		out = make([]T, 0, len(pods)+len(pods)/4)
	}
	for i, j := 0, 0; i < len(pods); {
		p := pods[i]
		for j < len(old) && old[j] != p && podLess(old[j], p) {
			j++
		}
		if n := sameRun(pods[i:], old[j:]); n > 0 {
			out = append(out, oldRows[j:j+n]...)
			i, j = i+n, j+n
			continue
		}
		out = append(out, read(p))
		i++
	}
	return out
}

// sameRun is how many objects a and b have the same from their starts.
func sameRun(a, b []*api.Pod) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
