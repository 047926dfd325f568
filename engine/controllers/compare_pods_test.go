package controllers

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

// comparePods orders as podLess: namespace, then name; 0 for one key.
func TestComparePodsIsPodLess(t *testing.T) {
	var pods []*api.Pod
	for _, ns := range []string{"", "a", "ab", "b"} {
		for _, name := range []string{"", "x", "x-1", "y"} {
			pods = append(pods, &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name}})
		}
	}
	for _, a := range pods {
		for _, b := range pods {
			want := 0
			if podLess(a, b) {
				want = -1
			} else if podLess(b, a) {
				want = 1
			}
			if got := comparePods(a, b); got != want {
				t.Errorf("comparePods(%s/%s, %s/%s) = %d, want %d", a.Namespace, a.Name, b.Namespace, b.Name, got, want)
			}
		}
	}
}
