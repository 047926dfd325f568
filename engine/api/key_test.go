package api

import "testing"

// HasKey must agree with Key() == key for every shape of key: namespaced
// and cluster-scoped objects, a slash moved, a prefix, a longer name.
func TestHasKeyAgreesWithKey(t *testing.T) {
	metas := []ObjectMeta{
		{Namespace: "default", Name: "web-1"},
		{Namespace: "", Name: "node-1"},
		{Namespace: "a", Name: "b/c"},
		{Namespace: "a/b", Name: "c"},
		{Namespace: "ns", Name: ""},
	}
	keys := []string{"default/web-1", "default/web-10", "default/web-", "defaultweb-1x", "default-web-1",
		"node-1", "/node-1", "a/b/c", "ns/", "ns", "", "default/web-1/", "efault/web-1"}
	for _, m := range metas {
		for _, k := range append(keys, m.Key()) {
			if got, want := m.HasKey(k), m.Key() == k; got != want {
				t.Errorf("%+v HasKey(%q) = %v, Key() == key is %v", m, k, got, want)
			}
		}
	}
}
