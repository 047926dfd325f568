package engine

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers"
)

// TestDeploymentClaimIsInvisible: a Deployment's ReplicaSet claim from the
// per-epoch owner index (work queues) adopts and releases as the full
// path does: Deployments orphaning their ReplicaSets (deleted with
// Orphan propagation) and re-created to adopt them, one re-created with a
// narrower selector (the orphan stays an orphan), a rollout making a
// second ReplicaSet, scaling — identical events and statuses.
func TestDeploymentClaimIsInvisible(t *testing.T) {
	ref := runClaimScenario(t, false)
	got := runClaimScenario(t, true)
	requireSameEvents(t, "queued", got.events, "full", ref.events)
	if got.status != ref.status {
		t.Errorf("status differs:\n%s\nfull:\n%s", got.status, ref.status)
	}
	if !strings.Contains(ref.status, "owner=Deployment/web") || !strings.Contains(ref.status, "owner=none") {
		t.Fatalf("the scenario should end with an adopted and an orphaned ReplicaSet:\n%s", ref.status)
	}
}

func runClaimScenario(t *testing.T, queued bool) hpaTableRun {
	e := New(Config{Seed: 3, NewScheduler: DefaultScheduler})
	for n := 0; n < 4; n++ {
		must(t, e.AddNode(node(fmt.Sprintf("node-%d", n), "8", "32Gi")))
	}
	m := e.NewWorkloads(1).Manager
	if !queued {
		m.SkipUnchangedSyncs(false)
	}
	deploy := func(name string, labels map[string]string, image string, r int32) {
		tl := map[string]string{"tier": "web"}
		for k, v := range labels {
			tl[k] = v
		}
		_, err := m.AddDeployment(&api.Deployment{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec: api.DeploymentSpec{Replicas: &r, Selector: &api.LabelSelector{MatchLabels: labels},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: tl},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: image}}}}}})
		must(t, err)
	}
	deploy("web", map[string]string{"app": "web"}, "web:1", 3)
	deploy("api", map[string]string{"app": "api"}, "api:1", 2)
	m.Start()
	e.Settle()
	for s := 1; s <= 240; s++ {
		must(t, e.Step(time.Second))
		switch s {
		case 20:
			must(t, m.Delete(controllers.KindDeployment, "default", "web", controllers.PropagationOrphan))
			must(t, m.Delete(controllers.KindDeployment, "default", "api", controllers.PropagationOrphan))
			e.Settle()
		case 40:
			deploy("web", map[string]string{"app": "web"}, "web:1", 4) // adopts its old ReplicaSet
			// a selector the orphan's labels (tier=web) do not match: a
			// new ReplicaSet, the orphan left alone
			deploy("api", map[string]string{"app": "api", "tier": "api"}, "api:1", 2)
			e.Settle()
		case 90:
			must(t, m.SetImage("default", "web", "c", "web:2"))
			e.Settle()
		case 150:
			must(t, m.Scale(controllers.KindDeployment, "default", "web", 2))
			e.Settle()
		}
	}
	res := hpaTableRun{events: e.Events()}
	var st strings.Builder
	for _, d := range m.Deployments() {
		b, _ := json.Marshal(d.Status)
		fmt.Fprintf(&st, "deploy %s %d %s\n", d.Key(), *d.Spec.Replicas, b)
	}
	for _, rs := range m.ReplicaSets() {
		owner := "none"
		if ref := rs.ControllerRef(); ref != nil {
			owner = ref.Kind + "/" + ref.Name
		}
		fmt.Fprintf(&st, "rs %s %d owner=%s %+v\n", rs.Key(), *rs.Spec.Replicas, owner, rs.Status)
	}
	res.status = st.String()
	return res
}
