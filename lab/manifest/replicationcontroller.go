package manifest

import (
	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/api"
)

var schemaReplicationControllerSpec = newSchema("replicas selector template minReadySeconds", "")

// decodeReplicationController decodes a v1 ReplicationController and
// applies its defaulting before validation, as the API server does (the
// selector and labels come from the template when absent).
func decodeReplicationController(d *decoder, n *yaml.Node) (any, []fieldError) {
	rc := &api.ReplicationController{}
	s := &rc.Spec
	d.workload(n, &rc.ObjectMeta, func(v *yaml.Node, path string) {
		d.fields(v, path, schemaReplicationControllerSpec, func(key string, v *yaml.Node, p string) {
			switch key {
			case "replicas":
				s.Replicas = d.int32p(v, p)
			case "selector":
				s.Selector = d.stringMap(v, p)
			case "template":
				s.Template = &api.PodTemplateSpec{}
				d.template(v, p, s.Template)
			case "minReadySeconds":
				s.MinReadySeconds, _ = d.int32(v, p)
			}
		})
	})
	api.DefaultReplicationController(rc)
	return rc, validateReplicationController(rc)
}

// validateReplicationController is ValidateReplicationControllerSpec
// (pkg/apis/core/validation ValidatePodTemplateSpecForRC, whose words it
// uses): a non-empty selector that the template's
// labels match, a template, restartPolicy Always.
func validateReplicationController(rc *api.ReplicationController) []fieldError {
	s := &rc.Spec
	out := validateWorkloadMeta(&rc.ObjectMeta)
	out = append(out, validateReplicas(s.Replicas, "spec.replicas")...)
	out = append(out, nonNegative("spec.minReadySeconds", int64(s.MinReadySeconds))...)
	if len(s.Selector) == 0 {
		out = append(out, required("spec.selector", "").withHint("e.g. selector: {app: web}, or labels on spec.template.metadata.labels"))
	}
	if s.Template == nil {
		return append(out, required("spec.template", "").withHint("a ReplicationController needs a pod template"))
	}
	if len(s.Selector) > 0 && !api.SelectorFromSet(s.Selector).Matches(s.Template.Labels) {
		out = append(out, invalid("spec.template.metadata.labels", s.Template.Labels, "selector does not match labels in spec.template").
			withHint("every label of spec.selector must be on spec.template.metadata.labels"))
	}
	out = append(out, validateLabels("spec.template.metadata.labels", s.Template.Labels)...)
	out = append(out, validatePodSpec(&s.Template.Spec, "spec.template.spec", s.Template.Labels)...)
	return append(out, templateRestartAlways(s.Template, "spec.template.spec.restartPolicy")...)
}
