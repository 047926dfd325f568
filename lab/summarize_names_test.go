package lab

import "testing"

// The list of what exists in an error message is in plain English: "there
// are no classs" read as a typo when a PriorityClass was missing.
func TestSummarizeNamesPlural(t *testing.T) {
	for _, tc := range []struct {
		kind  string
		names []string
		want  string
	}{
		{"class", nil, "there are no classes"},
		{"class", []string{"high", "low"}, "classes are high, low"},
		{"node", nil, "there are no nodes"},
		{"pod", []string{"default/p1"}, "pods are default/p1"},
		{"zone", []string{"a", "b", "c", "d", "e", "f", "g"}, "zones are a, b, … g (7 in all)"},
	} {
		if got := summarizeNames(tc.kind, tc.names); got != tc.want {
			t.Errorf("summarizeNames(%q, %v) = %q, want %q", tc.kind, tc.names, got, tc.want)
		}
	}
}
