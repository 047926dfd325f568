package lab

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine"
)

// A captured `kubectl get nodes,pods,deployments,… -A -o yaml` loads as a
// scenario: status is used where it matters, noise is dropped with notes,
// and the Deployment adopts its running pod instead of starting over.
func TestImportKubectlList(t *testing.T) {
	data := mustRead(t, "testdata/kubectl-get-all.yaml")
	f, err := ReadStdinScenario(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	for _, w := range f.Objects.Warnings {
		notes = append(notes, w.String())
	}
	all := strings.Join(notes, "\n")
	if !strings.Contains(all, "managedFields") {
		t.Errorf("no note about managedFields in:\n%s", all)
	}
	// Services are scenario objects: their selectors feed the spreading
	// defaults (api.DefaultSelector)
	if len(f.Objects.Services) == 0 {
		t.Errorf("the Service was not loaded")
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := s.Engine().Pod("shop/web-6c8b9d7f5d-abcde")
	if p == nil || p.Spec.NodeName != "worker-a1" {
		t.Fatalf("imported pod not on its node: %+v", p)
	}
	if st, _ := s.Engine().PodState(p.Key()); st != engine.StateRunning {
		t.Fatalf("imported running pod is %s", st)
	}
	if err := s.Advance(time.Minute); err != nil {
		t.Fatal(err)
	}
	// replicas: 2, one pod exists: one more is created, none replaced
	pods := s.workloadPods("deployment", "shop", "web")
	if len(pods) != 2 {
		t.Fatalf("deployment has %d pods after a minute, want 2 (adopted + 1 new)", len(pods))
	}
	if s.Engine().Pod("shop/web-6c8b9d7f5d-abcde") == nil {
		t.Fatal("the running pod was replaced instead of adopted")
	}
	// the tainted node got nothing without a toleration
	for _, p := range pods {
		if p.Spec.NodeName == "worker-b1" {
			t.Fatal("pod scheduled onto the tainted node")
		}
	}
}
