package controllers

import (
	"slices"
	"testing"
)

func TestNamespaceKeys(t *testing.T) {
	keys := []string{"a/x", "b-c/x", "b/x", "b/y", "b0/x", "bb/x", "c/x"}
	for _, tc := range []struct {
		ns   string
		want []string
	}{
		{"b", []string{"b/x", "b/y"}},
		{"a", []string{"a/x"}},
		{"c", []string{"c/x"}},
		{"bb", []string{"bb/x"}},
		{"b-c", []string{"b-c/x"}},
		{"d", nil},
		{"", nil},
	} {
		if got := namespaceKeys(keys, tc.ns); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.ns, got, tc.want)
		}
	}
	if got := namespaceKeys(nil, "a"); len(got) != 0 {
		t.Errorf("no keys: %q", got)
	}
}
