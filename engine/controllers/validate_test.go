package controllers

import (
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// Invalid specs are refused with the API server's message instead of
// reaching a controller.
func TestValidationRefusesInvalidSpecs(t *testing.T) {
	m := New(newFakeCluster(t), 1)
	cases := []struct {
		name string
		add  func() error
		want string
	}{
		{"deployment negative replicas", func() error {
			d := nginxDeployment(-1)
			_, err := m.AddDeployment(d)
			return err
		}, "spec.replicas: Invalid value: -1"},
		{"deployment unknown strategy", func() error {
			d := nginxDeployment(1)
			d.Spec.Strategy.Type = "BlueGreen"
			_, err := m.AddDeployment(d)
			return err
		}, `spec.strategy.type: Unsupported value: "BlueGreen"`},
		{"deployment both fenceposts zero", func() error {
			d := nginxDeployment(1)
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: intStr("0"), MaxUnavailable: intStr("0%")}
			_, err := m.AddDeployment(d)
			return err
		}, "may not be 0 when `maxSurge` is 0"},
		{"deployment selector does not match", func() error {
			d := nginxDeployment(1)
			d.Spec.Selector = labelSel("app", "other")
			_, err := m.AddDeployment(d)
			return err
		}, "`selector` does not match template `labels`"},
		{"statefulset bad policy", func() error {
			_, err := m.AddStatefulSet(webStatefulSet(1, "Sometimes"))
			return err
		}, `spec.podManagementPolicy: Unsupported value: "Sometimes"`},
		{"job restartPolicy Always", func() error {
			j := piJob(1, 1)
			j.Spec.Template.Spec.RestartPolicy = "Always"
			_, err := m.AddJob(j)
			return err
		}, "spec.template.spec.restartPolicy"},
		{"cronjob bad schedule", func() error {
			_, err := m.AddCronJob(&api.CronJob{ObjectMeta: api.ObjectMeta{Name: "c"}, Spec: api.CronJobSpec{Schedule: "every minute"}})
			return err
		}, "spec.schedule: Invalid value"},
	}
	for _, tc := range cases {
		err := tc.add()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
	if _, err := m.AddDeployment(nginxDeployment(1)); err != nil {
		t.Fatal(err)
	}
	if err := m.UpdateDeployment("default", "nginx-deployment", func(s *api.DeploymentSpec) {
		s.Selector = labelSel("app", "nginx", "tier", "x")
		s.Template.Labels = map[string]string{"app": "nginx", "tier": "x"}
	}); err == nil || !strings.Contains(err.Error(), "field is immutable") {
		t.Fatalf("selector change: %v", err)
	}
}
