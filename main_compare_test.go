package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestChangeLinesReadsFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.txt")
	if err := os.WriteFile(path, []byte("# policy b\nset spread deployment/web maxSkew=2\n\n  cordon node1  \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := changeLines([]string{"uncordon node2", path})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"uncordon node2", "set spread deployment/web maxSkew=2", "cordon node1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("changeLines = %q, want %q", got, want)
	}
}

func TestCompareCommand(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"compare", "-f", "spread-basics", "--b", "set spread deployment/web maxSkew=3", "--do", "advance 30s", "--do", "cordon node3", "--do", "cordon node4", "--do", "scale deployment/web --replicas=8", "--for", "1m"}, nil, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "* pending             5") {
		t.Fatalf("output:\n%s", out.String())
	}
	code = run([]string{"compare", "-f", "spread-basics", "--b", "@x nonsense"}, nil, &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), "--b #1") {
		t.Fatalf("bad change: exit %d, stderr %q", code, errb.String())
	}
}
