package manifest

import (
	"errors"
	"strings"
	"testing"
)

const hpaHead = "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n"

func TestHPADecode(t *testing.T) {
	in := hpaHead + `  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
  - type: Resource
    resource: {name: memory, target: {type: AverageValue, averageValue: 300Mi}}
  - type: Pods
    pods: {metric: {name: qps}, target: {type: AverageValue, averageValue: "1k"}}
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 60
      policies: [{type: Pods, value: 1, periodSeconds: 30}]
`
	objs, err := Load("t.yaml", []byte(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(objs.HPAs) != 1 {
		t.Fatalf("HPAs %d", len(objs.HPAs))
	}
	h := objs.HPAs[0]
	s := h.Spec
	if h.Namespace != "default" || s.ScaleTargetRef.Kind != "Deployment" || s.ScaleTargetRef.Name != "web" || *s.MinReplicas != 2 || s.MaxReplicas != 10 {
		t.Fatalf("spec %+v", s)
	}
	if len(s.Metrics) != 2 || *s.Metrics[0].Resource.Target.AverageUtilization != 50 || s.Metrics[1].Resource.Target.AverageValue.Value() != 300<<20 {
		t.Fatalf("metrics %+v", s.Metrics)
	}
	if s.Behavior == nil || s.Behavior.ScaleUp != nil || *s.Behavior.ScaleDown.StabilizationWindowSeconds != 60 || s.Behavior.ScaleDown.Policies[0].PeriodSeconds != 30 {
		t.Fatalf("behavior %+v", s.Behavior)
	}
	var warned bool
	for _, w := range objs.Warnings {
		if strings.Contains(w.Message, "metric type Pods is not modelled by the lab") && w.Line == 13 {
			warned = true
		}
	}
	if !warned {
		t.Fatalf("no warning for the Pods metric at line 13: %+v", objs.Warnings)
	}
}

func TestHPAValidation(t *testing.T) {
	cases := []struct {
		name, spec string
		want       []string
	}{
		{"max below min", "  scaleTargetRef: {kind: Deployment, name: web}\n  minReplicas: 3\n  maxReplicas: 2\n",
			[]string{"t.yaml:7:16: HorizontalPodAutoscaler \"web\" is invalid: spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`"}},
		{"no max", "  scaleTargetRef: {kind: Deployment, name: web}\n",
			[]string{`t.yaml:5:3: HorizontalPodAutoscaler "web" is invalid: spec.maxReplicas: Invalid value: 0: must be greater than 0 (set maxReplicas)`}},
		{"no target kind", "  scaleTargetRef: {name: web}\n  maxReplicas: 2\n",
			[]string{`t.yaml:5:19: HorizontalPodAutoscaler "web" is invalid: spec.scaleTargetRef.kind: Required value (Deployment, StatefulSet or ReplicaSet)`}},
		{"utilization zero", "  scaleTargetRef: {kind: Deployment, name: web}\n  maxReplicas: 2\n  metrics:\n  - type: Resource\n    resource:\n      name: cpu\n      target: {type: Utilization, averageUtilization: 0}\n",
			[]string{`t.yaml:11:55: HorizontalPodAutoscaler "web" is invalid: spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0`}},
		{"no target value", "  scaleTargetRef: {kind: Deployment, name: web}\n  maxReplicas: 2\n  metrics:\n  - type: Resource\n    resource:\n      name: cpu\n      target: {type: Utilization}\n",
			[]string{`t.yaml:11:15: HorizontalPodAutoscaler "web" is invalid: spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization (e.g. type: Utilization with averageUtilization: 50)`}},
		{"bad select policy", "  scaleTargetRef: {kind: Deployment, name: web}\n  maxReplicas: 2\n  behavior:\n    scaleUp: {selectPolicy: Fastest}\n",
			[]string{`t.yaml:8:29: HorizontalPodAutoscaler "web" is invalid: spec.behavior.scaleUp.selectPolicy: Unsupported value: "Fastest": supported values: "Disabled", "Max", "Min"`}},
		{"period too long", "  scaleTargetRef: {kind: Deployment, name: web}\n  maxReplicas: 2\n  behavior:\n    scaleDown:\n      policies: [{type: Percent, value: 10, periodSeconds: 3600}]\n",
			[]string{`t.yaml:9:60: HorizontalPodAutoscaler "web" is invalid: spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 3600: must be less than or equal to 1800`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load("t.yaml", []byte(hpaHead+tc.spec), Options{})
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Load succeeded, want %q", tc.want)
			}
			if got := e.Error(); got != strings.Join(tc.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", got, strings.Join(tc.want, "\n"))
			}
		})
	}
}

// An HPA whose metrics are all of sources the lab does not model is left
// out with a warning (defaulting would turn it into a cpu 80% HPA).
func TestHPAOnlyUnmodelledMetrics(t *testing.T) {
	in := hpaHead + "  scaleTargetRef: {kind: Deployment, name: web}\n  maxReplicas: 3\n  metrics:\n  - type: External\n    external: {metric: {name: q}, target: {type: Value, value: 1}}\n"
	objs, err := Load("t.yaml", []byte(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(objs.HPAs) != 0 {
		t.Fatalf("HPA kept: %+v", objs.HPAs[0].Spec)
	}
	var ignored bool
	for _, w := range objs.Warnings {
		ignored = ignored || strings.Contains(w.Message, "ignored: none of its metrics is modelled by the lab")
	}
	if !ignored {
		t.Fatalf("warnings %+v", objs.Warnings)
	}
}

// lab.podlab.dev/cpu-usage is checked where it is written.
func TestCPUUsageAnnotation(t *testing.T) {
	in := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata:\n      labels: {app: web}\n      annotations: {lab.podlab.dev/cpu-usage: lots}\n    spec:\n      containers: [{name: c, image: i}]\n"
	_, err := Load("t.yaml", []byte(in), Options{})
	var e *Error
	if !errors.As(err, &e) {
		t.Fatal("bad cpu-usage accepted")
	}
	want := `t.yaml:9:21: Deployment "web" is invalid: spec.template.metadata.annotations[lab.podlab.dev/cpu-usage]: Invalid value: "lots": not a non-negative quantity (give a quantity ("250m", "1.5") or a percentage of the cpu request ("80%"))`
	if e.Error() != want {
		t.Fatalf("got  %s\nwant %s", e.Error(), want)
	}
	for _, ok := range []string{"250m", "80%", "1.5"} {
		if _, err := Load("t.yaml", []byte(strings.Replace(in, "lots", `"`+ok+`"`, 1)), Options{}); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
}
