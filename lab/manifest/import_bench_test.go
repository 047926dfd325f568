package manifest

import (
	"bytes"
	"testing"

	"podlab.dev/podlab/lab/internal/kubectllist"
)

func generatedList(t testing.TB, s kubectllist.Spec, asJSON bool) []byte {
	var b bytes.Buffer
	if err := kubectllist.Write(&b, s, asJSON); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestKubectlListLoads: the generated `kubectl get -o yaml|json` output
// (the import benchmark's input) is what a real cluster's is to the
// loader: every object decodes, nothing is unknown, and only the
// managedFields note is left.
func TestKubectlListLoads(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		data := generatedList(t, kubectllist.Spec{Nodes: 10, Pods: 300}, asJSON)
		objs, err := Load("cluster", data, Options{})
		if err != nil {
			t.Fatalf("json=%v: %v", asJSON, err)
		}
		if len(objs.Nodes) != 10 || len(objs.Pods) != 300 || len(objs.Deployments) != 28 || len(objs.ReplicaSets) != 28 ||
			len(objs.DaemonSets) != 2 || len(objs.Namespaces) != 22 {
			t.Errorf("json=%v: %d nodes %d pods %d deployments %d replicasets %d daemonsets %d namespaces", asJSON,
				len(objs.Nodes), len(objs.Pods), len(objs.Deployments), len(objs.ReplicaSets), len(objs.DaemonSets), len(objs.Namespaces))
		}
		if len(objs.Warnings) != 1 || objs.Warnings[0].Message != "ignored 766 managedFields entries" {
			t.Errorf("json=%v: warnings %v", asJSON, objs.Warnings)
		}
	}
}
