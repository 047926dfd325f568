package engine

import (
	"slices"
	"testing"
)

// namespaceRun finds exactly the keys a namespace filter keeps, for
// namespaces that prefix one another and keys that sort around them.
func TestNamespaceRun(t *testing.T) {
	keys := []string{"a-b/x", "a.b/y", "a/p", "a/q", "ab/r", "b", "b/s", "default/web-1", "default/web-2", "defaults/z"}
	slices.Sort(keys)
	for _, ns := range []string{"a", "a-b", "ab", "b", "default", "defaults", "missing", "c"} {
		var want []string
		for _, k := range keys {
			if len(k) > len(ns) && k[:len(ns)+1] == ns+"/" {
				want = append(want, k)
			}
		}
		if got := namespaceRun(keys, ns); !slices.Equal(got, want) {
			t.Errorf("namespace %q: %v, want %v", ns, got, want)
		}
	}
}
