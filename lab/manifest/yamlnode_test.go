package manifest

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/lab/internal/kubectllist"
)

// sameTree fails the test where a and b differ in kind, value, tag,
// position, style or shape.
func sameTree(t testing.TB, path string, a, b *yaml.Node) {
	t.Helper()
	if a.Kind != b.Kind || a.Value != b.Value || a.ShortTag() != b.ShortTag() || a.Line != b.Line || a.Column != b.Column || a.Style != b.Style || len(a.Content) != len(b.Content) {
		t.Fatalf("%s: fast %v %q %s %d:%d style %v (%d children); yaml.v3 %v %q %s %d:%d style %v (%d children)", path,
			a.Kind, a.Value, a.ShortTag(), a.Line, a.Column, a.Style, len(a.Content), b.Kind, b.Value, b.ShortTag(), b.Line, b.Column, b.Style, len(b.Content))
	}
	for i := range a.Content {
		sameTree(t, fmt.Sprintf("%s/%d", path, i), a.Content[i], b.Content[i])
	}
}

// yamlV3Item is what the item-by-item path builds with yaml.v3 for an
// item starting on line `line`: the entry's mapping, or an error.
func yamlV3Item(text []byte, line int) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil {
		return nil, err
	}
	shiftLines(&doc, line-1)
	n := resolve(&doc)
	if n == nil || n.Kind != yaml.SequenceNode || len(n.Content) != 1 {
		return nil, fmt.Errorf("not one entry")
	}
	return n.Content[0], nil
}

// compareYAMLNode checks that where yamlNode accepts an item, yaml.v3
// builds the same tree; it reports whether yamlNode accepted it.
func compareYAMLNode(t testing.TB, name string, text []byte, line int) bool {
	t.Helper()
	fast, err := yamlNode(text, line)
	if err != nil {
		return false
	}
	slow, err := yamlV3Item(text, line)
	if err != nil {
		t.Fatalf("%s: yamlNode accepted what yaml.v3 rejects (%v):\n%s", name, err, text)
	}
	sameTree(t, name, fast, slow)
	return true
}

// listItems splits a kubectl YAML List into its items' texts (with
// managedFields blanked, as the item-by-item path parses them).
func listItems(t testing.TB, data []byte) (texts [][]byte, lines []int) {
	t.Helper()
	starts, _, ok := listItemStarts(data)
	if !ok {
		t.Fatal("not a kubectl List")
	}
	for _, st := range starts {
		text, _ := blankManagedFields(data[st.off:st.end])
		texts = append(texts, text)
		lines = append(lines, st.line)
	}
	return texts, lines
}

// yamlNode builds yaml.v3's tree for every item of the YAML kubectl
// prints — the benchmark's dump, the generated cluster, the test Lists —
// and accepts all but those with block scalars (or the fast path would
// not be one).
func TestYAMLNodeMatchesYAMLParser(t *testing.T) {
	var gen bytes.Buffer
	if err := kubectllist.Write(&gen, kubectllist.Spec{Nodes: 4, Pods: 40}, false); err != nil {
		t.Fatal(err)
	}
	inputs := map[string][]byte{
		"kubectlDump": kubectlDump(3, 12),
		"kubectlList": []byte(kubectlList(3, 12, true)),
		"kubectllist": gen.Bytes(),
	}
	for name, data := range inputs {
		texts, lines := listItems(t, data)
		for i := range texts {
			// literal block scalars (last-applied-configuration, on
			// Deployments) are left to yaml.v3
			if !compareYAMLNode(t, fmt.Sprintf("%s item %d", name, i), texts[i], lines[i]) && !bytes.Contains(texts[i], []byte(": |")) {
				t.Errorf("%s item %d: yamlNode refused it:\n%s", name, i, texts[i])
			}
		}
	}
}

// Shapes yamlNode refuses (yaml.v3 then parses them) or must get exactly
// right.
func TestYAMLNodeEdgeCases(t *testing.T) {
	tests := []struct {
		in     string
		accept bool
	}{
		{"- a: 1\n  b: true\n  c: null\n  d: 1.5\n  e: 2024-05-01T10:00:00Z\n  f: ~\n  g: 0x1F\n  h: yes\n", true},
		{"- a:\n  b: 2\n", true},                               // null after the colon
		{"- a:\n\n\n  b: 2\n", true},                           // blanked managedFields
		{"- a:\n  - x\n  - {k: v, l: [1, 2]}\n  b: c\n", true}, // indentless sequence
		{"- a:\n    - x\n    - y\n", true},
		{"- a:\n    b:\n      c: d\n  e: 'it''s'\n  f: \"q\\\"\\u00e9\"\n", true},
		{"- a: http://x:80/y\n  b: a:b\n  c: x#y\n  'k': v\n  \"k2\": v\n", true},
		{"- a: {}\n  b: []\n  c: { x: 1 }\n  d: [ ]\n", true},
		{"- a: -1\n  b: '-'\n  c: \"\"\n  d: ''\n", true},
		{"- a: é ü\n  ü: [é, 'ö']\n", true},
		{"- <<: {a: 1}\n  b: 2\n", true},
		{"- a: b  \n  c: d\n", true}, // trailing spaces
		{"- a: long\n    folded\n", false},
		{"- a: |\n    text\n", false},
		{"- a: >-\n    text\n", false},
		{"- a: &x 1\n  b: *x\n", false},
		{"- a: !!str 1\n", false},
		{"- a: 1 # comment\n", false},
		{"# c\n- a: 1\n", false},
		{"- a: \"folded\n    string\"\n", false},
		{"- a: 'folded\n    string'\n", false},
		{"- a: {x: 1,\n    y: 2}\n", false},
		{"- a: \"\\x41\"\n", false},
		{"- a:\tb\n", false},
		{"- a: 1\r\n", false},
		{"- - a\n", false},
		{"- a: b: c\n", false},
		{"- a: 1\n- b: 2\n", false},
		{"- a: 1\n    b: 2\n", false},
		{"- a:\n    1\n", false},
		{"- a:\n  -\n    b: 1\n", false},
		{"- ? a\n  : b\n", false},
		{"- a: [b: c]\n", false},
		{"- a: {b}\n", false},
		{"- a: [1, 2,]\n", false},
		{"- a: {\"b\":1}\n", false},
		{"- x\n", false},
	}
	for _, tt := range tests {
		got := compareYAMLNode(t, fmt.Sprintf("%q", tt.in), []byte(tt.in), 7)
		if got != tt.accept {
			t.Errorf("%q: accepted %v, want %v", tt.in, got, tt.accept)
		}
	}
}

// Where yamlNode accepts an item, yaml.v3 parses it to the same tree.
func FuzzYAMLNode(f *testing.F) {
	texts, _ := listItems(f, kubectlDump(1, 2))
	for _, tx := range texts {
		f.Add(string(tx))
	}
	f.Add("- a: {x: [1, 'b'], y: \"c\"}\n  b:\n  - c\n")
	f.Fuzz(func(t *testing.T, in string) {
		if !strings.HasPrefix(in, "- ") {
			return
		}
		compareYAMLNode(t, "fuzz", []byte(in), 3)
	})
}

// BenchmarkYAMLNode parses the benchmark dump's items (one node, 100 pods)
// with yamlNode.
func BenchmarkYAMLNode(b *testing.B) {
	texts, lines := listItems(b, kubectlDump(1, 100))
	var n int64
	for _, t := range texts {
		n += int64(len(t))
	}
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for i := range texts {
			if _, err := yamlNode(texts[i], lines[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
}
