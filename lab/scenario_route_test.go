package lab

import "testing"

// TestTopLevelValue pins how documents are routed before parsing: the
// scenario header (apiVersion: podlab/v1) and DeschedulerPolicy (kind)
// are recognised however the value is quoted or commented, the same way
// for both.
func TestTopLevelValue(t *testing.T) {
	for _, tc := range []struct {
		doc, key, want string
		ok             bool
	}{
		{"apiVersion: podlab/v1\n", "apiVersion", "podlab/v1", true},
		{"apiVersion: \"podlab/v1\"\n", "apiVersion", "podlab/v1", true},
		{"apiVersion: 'podlab/v1'\n", "apiVersion", "podlab/v1", true},
		{"apiVersion: podlab/v1 # the lab header\n", "apiVersion", "podlab/v1", true},
		{"apiVersion: \"podlab/v1\" # quoted, then a comment\n", "apiVersion", "podlab/v1", true},
		{"apiVersion: 'podlab/v1'\t# tab before the comment\n", "apiVersion", "podlab/v1", true},
		{"apiVersion: podlab/v1\t# tab\r\n", "apiVersion", "podlab/v1", true},
		{"apiVersion: \"a # not a comment\"\n", "apiVersion", "a # not a comment", true},
		{"  apiVersion: podlab/v1\n", "apiVersion", "", false},
		{"metadata:\n  kind: DeschedulerPolicy\nkind: Pod\n", "kind", "Pod", true},
		{"kind: \"DeschedulerPolicy\" # v1alpha2\n", "kind", "DeschedulerPolicy", true},
		{"apiVersion: v1\n", "kind", "", false},
	} {
		got, ok := topLevelValue([]byte(tc.doc), tc.key+":")
		if got != tc.want || ok != tc.ok {
			t.Errorf("%q %s: got %q %v, want %q %v", tc.doc, tc.key, got, ok, tc.want, tc.ok)
		}
	}
	if !isScenarioDoc([]byte("apiVersion: \"podlab/v1\" # header")) || !isDeschedulerDoc([]byte("kind: 'DeschedulerPolicy' # policy")) {
		t.Fatal("a quoted value with a comment is not recognised")
	}
}
