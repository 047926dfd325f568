package controllers

import (
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
)

func TestSafeEncodeString(t *testing.T) {
	// "0" is byte 48: 48 % 27 = 21, alphanums[21] = "4"; "9" is 57 % 27 = 3, "f"; "1" is 22, "5".
	if got := safeEncodeString("0919"); got != "4f5f" {
		t.Fatalf("safeEncodeString = %q, want 4f5f", got)
	}
}

func TestComputeHash(t *testing.T) {
	tmpl := api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx:1.14.2"}}}}
	h1 := ComputeHash(&tmpl, nil)
	if h1 != ComputeHash(&tmpl, nil) {
		t.Fatal("hash not deterministic")
	}
	if len(h1) < 6 || len(h1) > 10 || strings.Trim(h1, alphanums) != "" {
		t.Fatalf("hash %q is not 6..10 characters of %s", h1, alphanums)
	}
	tmpl2 := tmpl
	tmpl2.Spec.Containers = []api.Container{{Name: "c", Image: "nginx:1.16.1"}}
	if ComputeHash(&tmpl2, nil) == h1 {
		t.Fatal("a changed image must change the hash")
	}
	one := int32(1)
	if ComputeHash(&tmpl, &one) == h1 {
		t.Fatal("a collision count must change the hash")
	}
}

func TestReplicaSetName(t *testing.T) {
	if got := replicaSetName("web", "7f9c4d"); got != "web-7f9c4d" {
		t.Fatalf("got %q", got)
	}
	long := strings.Repeat("a", 260)
	if got := replicaSetName(long, "abcdefghij"); len(got) != 253 || !strings.HasSuffix(got, "-abcdefghij") {
		t.Fatalf("long name not truncated to 253: %d", len(got))
	}
}

func TestNamesDeterministic(t *testing.T) {
	a, b := newNames(7), newNames(7)
	for range 5 {
		if a.suffix() != b.suffix() || a.uid() != b.uid() {
			t.Fatal("same seed must give the same names")
		}
	}
	u := newNames(1).uid()
	if len(u) != 36 || u[14] != '4' {
		t.Fatalf("uid %q is not a v4 UUID", u)
	}
}
