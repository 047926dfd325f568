package main

import (
	"bytes"
	"strings"
	"testing"
)

// Issue 17 point 1: `podlab validate` on a Deployment of 1e9 replicas grew
// without bound (903 MB at 90 s); it now says at once why the file is
// refused, naming the object with file:line:col, and exits 2.
func TestValidateHugeReplicasReturnsAtOnce(t *testing.T) {
	in := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1000000000\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: nginx}]}\n"
	var out, errb bytes.Buffer
	code := run([]string{"validate", "-f", "-"}, strings.NewReader(in), &out, &errb)
	want := `:1:1: spec.replicas 1000000000 would take the cluster over the lab's object budget: deployments "web" is forbidden: exceeded quota: podlab-object-budget, requested: objects=1000000000, used: objects=0, limited: objects=200000`
	if code != 2 || !strings.Contains(errb.String(), want) {
		t.Fatalf("exit %d, stderr %q\nwant %s", code, errb.String(), want)
	}
}
