package lab

import "testing"

func TestSplitDocs(t *testing.T) {
	const scen = "apiVersion: podlab/v1\nkind: Scenario\n"
	tests := []struct {
		name, in, matched, rest string
		found                   bool
	}{
		{"no match: rest is the input, matched empty",
			"apiVersion: v1\r\nkind: Pod\nx", "", "apiVersion: v1\r\nkind: Pod\nx", false},
		{"scenario first", scen + "---\napiVersion: v1\nkind: Pod\n",
			scen + "\n\n\n", "\n\n---\napiVersion: v1\nkind: Pod\n", true},
		{"scenario after a separator keeps it in both halves", "apiVersion: v1\n---\n" + scen + "---\nkind: Node\n",
			"\n---\n" + scen + "\n\n", "apiVersion: v1\n---\n\n\n---\nkind: Node\n", true},
		{"separators on consecutive lines", "---\n---\n" + scen, "\n---\n" + scen, "---\n---\n\n\n", true},
		{"quoted value with a comment", "apiVersion: \"podlab/v1\" # lab\n", "apiVersion: \"podlab/v1\" # lab\n", "\n", true},
		{"indented apiVersion is not top-level", "items:\n  apiVersion: podlab/v1\n", "", "items:\n  apiVersion: podlab/v1\n", false},
		{"--- followed by text is a separator, ---x is not", "---x\n--- # c\n" + scen,
			"\n--- # c\n" + scen, "---x\n--- # c\n\n\n", true},
	}
	for _, tt := range tests {
		m, r, found := splitDocs([]byte(tt.in), isScenarioDoc)
		if string(m) != tt.matched || string(r) != tt.rest || found != tt.found {
			t.Errorf("%s:\n matched %q, want %q\n rest %q, want %q\n found %v", tt.name, m, tt.matched, r, tt.rest, found)
		}
	}
}

func TestIsDeschedulerDoc(t *testing.T) {
	for in, want := range map[string]bool{
		"apiVersion: descheduler/v1alpha2\nkind: DeschedulerPolicy\n": true,
		"kind: 'DeschedulerPolicy' # comment\n":                       true,
		"kind: Pod\nkind: DeschedulerPolicy\n":                        false, // the first kind: line decides
		"spec:\n  kind: DeschedulerPolicy\n":                          false,
	} {
		if got := isDeschedulerDoc([]byte(in)); got != want {
			t.Errorf("isDeschedulerDoc(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestStripBlankLines(t *testing.T) {
	for in, want := range map[string]string{
		"":                     "",
		"a":                    "a",
		"a\n":                  "a\n",
		"a\n\n\n\nb\n":         "a\n\nb\n",
		"\n\n\na\n  \n \t\nb":  "\na\n  \nb",
		"a\r\n\r\n\r\nb\n\n\n": "a\r\n\r\nb\n",
	} {
		if got := string(stripBlankLines([]byte(in))); got != want {
			t.Errorf("stripBlankLines(%q) = %q, want %q", in, got, want)
		}
	}
}
