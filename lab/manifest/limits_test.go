package manifest

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func loadErr(t *testing.T, input string, opts Options) *Error {
	t.Helper()
	_, err := Load("t.yaml", []byte(input), opts)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("Load succeeded, want an error")
	}
	return e
}

func TestBillionLaughsFailsFast(t *testing.T) {
	var b strings.Builder
	b.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	prev := "a"
	for _, name := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		fmt.Fprintf(&b, "%s: &%s [%s]\n", name, name, strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ","))
		prev = name
	}
	b.WriteString("kind: Pod\napiVersion: v1\nmetadata: {name: p}\nspec: {containers: [{name: c, image: i}]}\n")
	start := time.Now()
	e := loadErr(t, b.String(), Options{})
	if elapsed := time.Since(start); elapsed > 2*time.Second {
		t.Errorf("took %v", elapsed)
	}
	if len(e.Diagnostics) != 1 || !strings.Contains(e.Diagnostics[0].Message, "expands to more than") {
		t.Errorf("got %v", e)
	}
}

func TestAliasesWithinBudgetAreExpanded(t *testing.T) {
	input := "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: &l {app: web}}\nspec:\n  nodeSelector: *l\n  containers: [{name: c, image: i}]\n"
	objs, err := Load("t.yaml", []byte(input), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if objs.Pods[0].Spec.NodeSelector["app"] != "web" {
		t.Errorf("alias not expanded: %v", objs.Pods[0].Spec.NodeSelector)
	}
}

func TestMergeKeys(t *testing.T) {
	input := "base: &base {name: c, image: i}\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - <<: *base\n    image: override\n"
	// "base" is an unknown top-level field: a warning, not an error.
	objs, err := Load("t.yaml", []byte(input), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := objs.Pods[0].Spec.Containers[0]
	if c.Name != "c" || c.Image != "override" {
		t.Errorf("merged container = %+v", c)
	}
}

func TestDepthLimit(t *testing.T) {
	deep := strings.Repeat("[", 150) + strings.Repeat("]", 150)
	e := loadErr(t, "kind: Pod\napiVersion: v1\nx: "+deep+"\n", Options{})
	if !strings.Contains(e.Error(), "document nests deeper than 100 levels") {
		t.Errorf("got %v", e)
	}
	e = loadErr(t, "x: "+strings.Repeat("[", 20)+strings.Repeat("]", 20)+"\n", Options{MaxDepth: 10})
	if !strings.Contains(e.Error(), "deeper than 10 levels") {
		t.Errorf("got %v", e)
	}
}

func TestSizeAndObjectLimits(t *testing.T) {
	input := pod("") + "---\n" + strings.Replace(pod(""), "name: p", "name: q", 1) + "---\n" + strings.Replace(pod(""), "name: p", "name: r", 1)
	e := loadErr(t, input, Options{MaxBytes: 20})
	if got := e.Error(); !strings.HasPrefix(got, "t.yaml:1:1: file is ") || !strings.Contains(got, "more than the limit of 20 bytes") {
		t.Errorf("got %v", got)
	}
	e = loadErr(t, input, Options{MaxObjects: 2})
	if got := e.Error(); got != "t.yaml:13:1: more than 2 objects (split the file)" {
		t.Errorf("got %v", got)
	}
	if _, err := Load("t.yaml", []byte(input), Options{MaxObjects: 3}); err != nil {
		t.Errorf("3 objects within a limit of 3: %v", err)
	}
}

func TestErrorCap(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 80; i++ {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p%d}\nspec: {containers: [{name: c, image: i}], priority: x}\n", i)
	}
	e := loadErr(t, b.String(), Options{})
	if len(e.Diagnostics) != DefaultMaxErrors {
		t.Errorf("%d errors, want %d", len(e.Diagnostics), DefaultMaxErrors)
	}
	if e = loadErr(t, b.String(), Options{MaxErrors: 3}); len(e.Diagnostics) != 3 {
		t.Errorf("%d errors, want 3", len(e.Diagnostics))
	}
}

func TestEmptyDocumentsAndJSON(t *testing.T) {
	objs, err := Load("t.json", []byte(`{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"2","pods":110}}}`), Options{})
	if err != nil || len(objs.Nodes) != 1 || objs.Nodes[0].Status.Allocatable["pods"].Value() != 110 {
		t.Fatalf("json node: %v %v", objs, err)
	}
	objs, err = Load("t.yaml", []byte("---\n# only a comment\n---\n"+pod("")+"---\n"), Options{})
	if err != nil || len(objs.Pods) != 1 {
		t.Fatalf("empty documents: %v %v", objs, err)
	}
}

func TestGenerateNameAndTimeReference(t *testing.T) {
	input := "apiVersion: v1\nkind: Pod\nmetadata: {generateName: web-, creationTimestamp: \"2024-01-01T00:00:00Z\"}\nspec: {containers: [{name: c, image: i}]}\n"
	ref := time.Date(2024, 1, 1, 0, 1, 0, 0, time.UTC)
	objs, err := Load("t.yaml", []byte(input), Options{Reference: ref})
	if err != nil {
		t.Fatal(err)
	}
	p := objs.Pods[0]
	if p.Name != "web-bbbbc" || p.CreationTimestamp.String() != "-60s" || !objs.Reference.Equal(ref) {
		t.Errorf("name %q created %s reference %v", p.Name, p.CreationTimestamp, objs.Reference)
	}
}
