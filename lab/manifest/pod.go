package manifest

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/api"
)

func decodePod(d *decoder, n *yaml.Node) (any, []fieldError) {
	p := &api.Pod{}
	d.fields(n, "", schemaTop, func(key string, v *yaml.Node, path string) {
		switch key {
		case "metadata":
			d.meta(v, path, &p.ObjectMeta, true)
		case "spec":
			d.podSpec(v, path, &p.Spec)
		case "status":
			d.podStatus(v, path, &p.Status)
		}
	})
	defaultNamespace(&p.ObjectMeta)
	errs := validateObjectMeta(&p.ObjectMeta, "metadata", true, subdomainName)
	errs = append(errs, podNameWarnings(p.Name)...)
	errs = append(errs, validateCPUUsageAnnotation(p.Annotations, "metadata.annotations")...)
	errs = append(errs, validateMemoryUsageAnnotation(p.Annotations, "metadata.annotations")...)
	if g := p.Spec.TerminationGracePeriodSeconds; g != nil && *g < 0 {
		// pkg/apis/core/v1/conversion.go: a Pod's negative grace becomes 1
		// while it is decoded, silently (so the template warning of
		// api/pod/warnings.go never fires for pods); the lab says so.
		errs = append(errs, fieldError{path: "spec.terminationGracePeriodSeconds", warning: true, note: true,
			msg: fmt.Sprintf("%d is converted to 1 by the API server", *g)})
		one := int64(1)
		p.Spec.TerminationGracePeriodSeconds = &one
	}
	errs = append(errs, validatePodSpec(&p.Spec, "spec", p.Labels)...)
	if p.Spec.NodeName != "" && len(p.Spec.SchedulingGates) != 0 {
		// ValidatePodCreate (pkg/apis/core/validation/validation.go:5616):
		// a pod cannot be assigned a node while gated
		errs = append(errs, forbidden("spec.nodeName", "cannot be set until all schedulingGates have been cleared"))
	}
	return p, errs
}

func (d *decoder) podSpec(n *yaml.Node, path string, s *api.PodSpec) {
	d.fields(n, path, schemaPodSpec, func(key string, v *yaml.Node, p string) {
		switch key {
		case "nodeName":
			s.NodeName = d.str(v, p)
		case "nodeSelector":
			s.NodeSelector = d.stringMap(v, p)
		case "affinity":
			s.Affinity = d.affinity(v, p)
		case "tolerations":
			d.seq(v, p, func(_ int, e *yaml.Node, p string) {
				s.Tolerations = append(s.Tolerations, d.toleration(e, p))
			})
		case "topologySpreadConstraints":
			d.seq(v, p, func(_ int, e *yaml.Node, p string) {
				s.TopologySpreadConstraints = append(s.TopologySpreadConstraints, d.spreadConstraint(e, p))
			})
		case "priorityClassName":
			s.PriorityClassName = d.str(v, p)
		case "priority":
			s.Priority = d.int32p(v, p)
		case "preemptionPolicy":
			s.PreemptionPolicy = d.strp(v, p)
		case "terminationGracePeriodSeconds":
			s.TerminationGracePeriodSeconds = d.int64p(v, p)
		case "activeDeadlineSeconds":
			s.ActiveDeadlineSeconds = d.int64p(v, p)
		case "containers":
			s.Containers = d.containers(v, p, false)
		case "initContainers":
			s.InitContainers = d.containers(v, p, true)
		case "overhead":
			s.Overhead = d.resourceList(v, p)
		case "resources":
			r := d.resources(v, p)
			s.Resources = &r
		case "schedulerName":
			s.SchedulerName = d.str(v, p)
		case "hostNetwork":
			s.HostNetwork = d.boolean(v, p)
		case "schedulingGates":
			d.seq(v, p, func(_ int, e *yaml.Node, p string) {
				name := ""
				d.fields(e, p, schemaSchedulingGate, func(_ string, v *yaml.Node, p string) { name = d.str(v, p) })
				s.SchedulingGates = append(s.SchedulingGates, name)
			})
		case "restartPolicy":
			s.RestartPolicy = d.str(v, p)
		case "serviceAccountName":
			s.ServiceAccount = d.str(v, p)
		case "serviceAccount":
			// deprecated alias of serviceAccountName
			if s.ServiceAccount == "" {
				s.ServiceAccount = d.str(v, p)
			}
		}
	})
}

func (d *decoder) containers(n *yaml.Node, path string, init bool) []api.Container {
	var out []api.Container
	d.seq(n, path, func(_ int, e *yaml.Node, p string) {
		out = append(out, d.container(e, p, init))
	})
	return out
}

// container decodes one container. An init container that is not a
// sidecar may not have lifecycle hooks or probes (validateInitContainers);
// that is checked here, where their presence is still known.
func (d *decoder) container(n *yaml.Node, path string, init bool) api.Container {
	var c api.Container
	var hooksAndProbes []string
	var handlers []handlerAt
	d.fields(n, path, schemaContainer, func(key string, v *yaml.Node, p string) {
		switch key {
		case "lifecycle", "livenessProbe", "readinessProbe", "startupProbe":
			hooksAndProbes = append(hooksAndProbes, p)
		}
		switch key {
		case "name":
			c.Name = d.str(v, p)
		case "image":
			c.Image = d.str(v, p)
		case "command":
			c.Command = d.strings(v, p)
		case "args":
			c.Args = d.strings(v, p)
		case "ports":
			d.seq(v, p, func(_ int, e *yaml.Node, p string) {
				c.Ports = append(c.Ports, d.containerPort(e, p))
			})
		case "resources":
			c.Resources = d.resources(v, p)
		case "restartPolicy":
			c.RestartPolicy = d.str(v, p)
		case "lifecycle":
			d.fields(v, p, schemaLifecycle, func(key string, v *yaml.Node, p string) {
				if key == "preStop" {
					c.Lifecycle = &api.Lifecycle{PreStop: d.handler(v, p)}
				}
				handlers = append(handlers, handlerAt{v, p, lifecycleHandlerKinds})
			})
		case "livenessProbe":
			c.LivenessProbe = d.probe(v, p)
			c.ProbeTerminationGracePeriodSeconds = c.LivenessProbe.TerminationGracePeriodSeconds
			handlers = append(handlers, handlerAt{v, p, probeHandlerKinds})
		case "readinessProbe":
			c.ReadinessProbe = d.probe(v, p)
			handlers = append(handlers, handlerAt{v, p, probeHandlerKinds})
		case "startupProbe":
			c.StartupProbe = d.probe(v, p)
			handlers = append(handlers, handlerAt{v, p, probeHandlerKinds})
		}
	})
	if init && !c.IsSidecar() {
		for _, p := range hooksAndProbes {
			d.found = append(d.found, forbidden(p, "may not be set for init containers without restartPolicy=Always").
				withHint("only sidecars, init containers with restartPolicy: Always, take lifecycle hooks and probes"))
		}
		c.Lifecycle, c.ProbeTerminationGracePeriodSeconds = nil, nil
		c.StartupProbe, c.ReadinessProbe, c.LivenessProbe = nil, nil, nil
		return c
	}
	for _, h := range handlers {
		d.found = append(d.found, validateHandlerKinds(h.node, h.path, h.kinds)...)
	}
	return c
}

// Handler types in the order validateHandler checks them.
var (
	probeHandlerKinds     = []string{"exec", "httpGet", "tcpSocket", "grpc"}
	lifecycleHandlerKinds = []string{"exec", "httpGet", "tcpSocket", "sleep"}
)

// handlerAt is a probe or lifecycle hook awaiting validateHandlerKinds.
type handlerAt struct {
	node  *yaml.Node
	path  string
	kinds []string
}

// validateHandlerKinds is validateHandler's count of handler types: exactly
// one of kinds must be set.
func validateHandlerKinds(n *yaml.Node, path string, kinds []string) []fieldError {
	n = resolve(n)
	set := map[string]bool{}
	if n != nil && n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if !isNull(n.Content[i+1]) {
				set[resolve(n.Content[i]).Value] = true
			}
		}
	}
	var out []fieldError
	count := 0
	for _, k := range kinds {
		if !set[k] {
			continue
		}
		if count > 0 {
			out = append(out, forbidden(join(path, k), "may not specify more than 1 handler type"))
		}
		count++
	}
	if count == 0 {
		out = append(out, required(path, "must specify a handler type").withHint("e.g. httpGet: {path: /healthz, port: 8080}"))
	}
	return out
}

func (d *decoder) containerPort(n *yaml.Node, path string) api.ContainerPort {
	var cp api.ContainerPort
	d.fields(n, path, schemaContainerPort, func(key string, v *yaml.Node, p string) {
		switch key {
		case "name":
			cp.Name = d.str(v, p)
		case "containerPort":
			cp.ContainerPort, _ = d.int32(v, p)
		case "hostPort":
			cp.HostPort, _ = d.int32(v, p)
		case "hostIP":
			cp.HostIP = d.str(v, p)
		case "protocol":
			cp.Protocol = d.str(v, p)
		}
	})
	return cp
}

func (d *decoder) resources(n *yaml.Node, path string) api.ResourceRequirements {
	var r api.ResourceRequirements
	d.fields(n, path, schemaResources, func(key string, v *yaml.Node, p string) {
		switch key {
		case "requests":
			r.Requests = d.resourceList(v, p)
		case "limits":
			r.Limits = d.resourceList(v, p)
		}
	})
	return r
}

func (d *decoder) handler(n *yaml.Node, path string) *api.LifecycleHandler {
	h := &api.LifecycleHandler{}
	d.fields(n, path, schemaHandler, func(key string, v *yaml.Node, p string) {
		switch key {
		case "exec":
			d.fields(v, p, schemaExec, func(_ string, v *yaml.Node, p string) { h.ExecCommand = d.strings(v, p) })
		case "httpGet":
			h.HTTPGetPath = "/"
			d.fields(v, p, schemaHTTPGet, func(_ string, v *yaml.Node, p string) { h.HTTPGetPath = d.str(v, p) })
		case "sleep":
			d.fields(v, p, schemaSleep, func(_ string, v *yaml.Node, p string) { h.SleepSeconds = d.int64p(v, p) })
		}
	})
	return h
}

// probe decodes a v1.Probe: its handler kind and timing fields
// (validation in validate_probe.go).
func (d *decoder) probe(n *yaml.Node, path string) *api.Probe {
	pr := &api.Probe{}
	d.fields(n, path, schemaProbe, func(key string, v *yaml.Node, p string) {
		switch key {
		case "terminationGracePeriodSeconds":
			pr.TerminationGracePeriodSeconds = d.int64p(v, p)
		case "initialDelaySeconds":
			pr.InitialDelaySeconds, _ = d.int32(v, p)
		case "timeoutSeconds":
			pr.TimeoutSeconds, _ = d.int32(v, p)
		case "periodSeconds":
			pr.PeriodSeconds, _ = d.int32(v, p)
		case "successThreshold":
			pr.SuccessThreshold, _ = d.int32(v, p)
		case "failureThreshold":
			pr.FailureThreshold, _ = d.int32(v, p)
		case "exec", "httpGet", "tcpSocket", "grpc":
			if pr.Handler == "" && !isNull(v) {
				pr.Handler = key
			}
		}
	})
	return pr
}

// conditions decodes node or pod conditions.
func (d *decoder) conditions(n *yaml.Node, path string, s *schema) []api.Condition {
	var out []api.Condition
	d.seq(n, path, func(i int, e *yaml.Node, p string) {
		var c api.Condition
		d.fields(e, p, s, func(key string, v *yaml.Node, p string) {
			switch key {
			case "type":
				c.Type = d.str(v, p)
			case "status":
				c.Status = d.str(v, p)
			case "reason":
				c.Reason = d.str(v, p)
			case "message":
				c.Message = d.str(v, p)
			case "lastTransitionTime":
				// out is complete by the time timestamps are resolved.
				d.timestamp(v, p, true, func(t api.Time) { out[i].LastTransitionTime = t })
			}
		})
		out = append(out, c)
	})
	return out
}
