package manifest

import (
	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/api"
)

// autoscaling/v2 schemas (k8s.io/api v0.36 field names). The lab models
// Resource metrics (cpu, memory); other metric sources decode with a
// warning and are left out.
var (
	schemaHPASpec      = newSchema("scaleTargetRef minReplicas maxReplicas metrics behavior", "")
	schemaHPATargetRef = newSchema("kind name apiVersion", "")
	schemaHPAMetric    = newSchema("type resource", "pods object external containerResource")
	schemaHPAResource  = newSchema("name target", "")
	schemaHPATarget    = newSchema("type averageUtilization averageValue value", "")
	schemaHPABehavior  = newSchema("scaleUp scaleDown", "")
	schemaHPARules     = newSchema("stabilizationWindowSeconds selectPolicy policies", "tolerance")
	schemaHPAPolicy    = newSchema("type value periodSeconds", "")
	schemaHPAStatus    = newSchema("", "observedGeneration lastScaleTime currentReplicas desiredReplicas currentMetrics conditions")
)

func decodeHPA(d *decoder, n *yaml.Node) (any, []fieldError) {
	h := &api.HorizontalPodAutoscaler{}
	var targetValue []string // metrics[i].resource.target.value paths given
	dropped := 0
	var metricsNode *yaml.Node
	d.fields(n, "", schemaTop, func(key string, v *yaml.Node, path string) {
		switch key {
		case "metadata":
			d.meta(v, path, &h.ObjectMeta, true)
		case "spec":
			s := &h.Spec
			d.fields(v, path, schemaHPASpec, func(key string, v *yaml.Node, p string) {
				switch key {
				case "scaleTargetRef":
					d.fields(v, p, schemaHPATargetRef, func(key string, v *yaml.Node, p string) {
						switch key {
						case "kind":
							s.ScaleTargetRef.Kind = d.str(v, p)
						case "name":
							s.ScaleTargetRef.Name = d.str(v, p)
						case "apiVersion":
							s.ScaleTargetRef.APIVersion = d.str(v, p)
						}
					})
				case "minReplicas":
					s.MinReplicas = d.int32p(v, p)
				case "maxReplicas":
					s.MaxReplicas, _ = d.int32(v, p)
				case "metrics":
					s.Metrics = []api.MetricSpec{}
					metricsNode = v
					d.seq(v, p, func(_ int, e *yaml.Node, p string) {
						ms, ok := d.hpaMetric(e, p, &targetValue)
						if ok {
							s.Metrics = append(s.Metrics, ms)
						} else {
							dropped++
						}
					})
				case "behavior":
					s.Behavior = &api.HorizontalPodAutoscalerBehavior{}
					d.fields(v, p, schemaHPABehavior, func(key string, v *yaml.Node, p string) {
						switch key {
						case "scaleUp":
							s.Behavior.ScaleUp = d.hpaRules(v, p)
						case "scaleDown":
							s.Behavior.ScaleDown = d.hpaRules(v, p)
						}
					})
				}
			})
		case "status":
			d.fields(v, path, schemaHPAStatus, func(string, *yaml.Node, string) {})
		}
	})
	defaultNamespace(&h.ObjectMeta)
	if dropped > 0 && len(h.Spec.Metrics) == 0 {
		// defaulting would give it cpu 80%, which is not what it asks for
		d.warnf(metricsNode, "give it a Resource metric (cpu or memory) to autoscale in the lab", "ignored: none of its metrics is modelled by the lab")
		return nil, nil
	}
	errs := validateObjectMeta(&h.ObjectMeta, "metadata", true, subdomainName)
	for _, p := range targetValue {
		errs = append(errs, forbidden(p, "may not set a target value for a resource metric").withHint("use averageUtilization or averageValue"))
	}
	return h, append(errs, validateHPASpec(&h.Spec, "spec")...)
}

// hpaMetric decodes one metrics entry; ok is false for the sources the lab
// does not model (reported as a warning).
func (d *decoder) hpaMetric(n *yaml.Node, path string, targetValue *[]string) (api.MetricSpec, bool) {
	var ms api.MetricSpec
	var typeNode *yaml.Node
	d.fields(n, path, schemaHPAMetric, func(key string, v *yaml.Node, p string) {
		switch key {
		case "type":
			ms.Type = d.str(v, p)
			typeNode = v
		case "resource":
			r := &api.ResourceMetricSource{}
			ms.Resource = r
			d.fields(v, p, schemaHPAResource, func(key string, v *yaml.Node, p string) {
				switch key {
				case "name":
					r.Name = d.str(v, p)
				case "target":
					d.fields(v, p, schemaHPATarget, func(key string, v *yaml.Node, p string) {
						switch key {
						case "type":
							r.Target.Type = d.str(v, p)
						case "averageUtilization":
							r.Target.AverageUtilization = d.int32p(v, p)
						case "averageValue":
							if q, ok := d.quantity(v, p); ok {
								r.Target.AverageValue = &q
							}
						case "value":
							*targetValue = append(*targetValue, p)
						}
					})
				}
			})
		}
	})
	if ms.Type != "" && ms.Type != api.ResourceMetricSourceType && typeNode != nil {
		switch ms.Type {
		case "Pods", "Object", "External", "ContainerResource":
			d.warnf(typeNode, "the lab models Resource metrics (cpu, memory) from its usage model", "%s: metric type %s is not modelled by the lab; this metric is left out", path, ms.Type)
			return ms, false
		}
	}
	if ms.Resource != nil && ms.Resource.Name != "" && ms.Resource.Name != api.ResourceCPU && ms.Resource.Name != api.ResourceMemory {
		d.warnf(n, "the lab models cpu and memory use", "%s: resource %s is not modelled by the lab; this metric is left out", path, ms.Resource.Name)
		return ms, false
	}
	return ms, true
}

func (d *decoder) hpaRules(n *yaml.Node, path string) *api.HPAScalingRules {
	r := &api.HPAScalingRules{}
	d.fields(n, path, schemaHPARules, func(key string, v *yaml.Node, p string) {
		switch key {
		case "stabilizationWindowSeconds":
			r.StabilizationWindowSeconds = d.int32p(v, p)
		case "selectPolicy":
			r.SelectPolicy = d.strp(v, p)
		case "policies":
			r.Policies = []api.HPAScalingPolicy{}
			d.seq(v, p, func(_ int, e *yaml.Node, p string) {
				var pol api.HPAScalingPolicy
				d.fields(e, p, schemaHPAPolicy, func(key string, v *yaml.Node, p string) {
					switch key {
					case "type":
						pol.Type = d.str(v, p)
					case "value":
						pol.Value, _ = d.int32(v, p)
					case "periodSeconds":
						pol.PeriodSeconds, _ = d.int32(v, p)
					}
				})
				r.Policies = append(r.Policies, pol)
			})
		}
	})
	return r
}
