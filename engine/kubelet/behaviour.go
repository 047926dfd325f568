package kubelet

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"podlab.dev/podlab/engine/api"
)

// Annotations that say how a pod's app behaves under its probes and when
// it exits; the prober and the restart logic act on them.
const (
	// AnnotationReadyAfter: the app answers its probes (startup,
	// readiness, liveness) only this long after each container start
	// ("20s"); before that they fail.
	AnnotationReadyAfter = "lab.podlab.dev/ready-after"
	// AnnotationLivenessFailsAt: the liveness probe fails from this long
	// after each container start ("2m").
	AnnotationLivenessFailsAt = "lab.podlab.dev/liveness-fails-at"
	// AnnotationExit: the first regular container exits with CODE this
	// long after each start ("1@30s"); AnnotationExit+".NAME" names any
	// container, init containers included ("lab.podlab.dev/exit.migrate: 0@5s").
	AnnotationExit = "lab.podlab.dev/exit"
)

// Exit is a modelled container exit.
type Exit struct {
	Code  int32
	After time.Duration
}

// Behaviour is what the annotations say about one container.
type Behaviour struct {
	ReadyAfter      time.Duration
	LivenessFailsAt *time.Duration
	Exit            *Exit
}

// HasBehaviour reports whether a pod carries any of the behaviour
// annotations (the engine then models its containers one by one).
func HasBehaviour(p *api.Pod) bool {
	for k := range p.Annotations {
		if k == AnnotationReadyAfter || k == AnnotationLivenessFailsAt || k == AnnotationExit || strings.HasPrefix(k, AnnotationExit+".") {
			return true
		}
	}
	return false
}

// ContainerBehaviour reads the annotations for container name (first: it
// is the pod's first regular container, which the bare exit annotation
// names).
func ContainerBehaviour(p *api.Pod, name string, first bool) (Behaviour, error) {
	var b Behaviour
	if v, ok := p.Annotations[AnnotationReadyAfter]; ok {
		d, err := ParseLabDuration(v)
		if err != nil {
			return b, fmt.Errorf("annotation %s: %w", AnnotationReadyAfter, err)
		}
		b.ReadyAfter = d
	}
	if v, ok := p.Annotations[AnnotationLivenessFailsAt]; ok {
		d, err := ParseLabDuration(v)
		if err != nil {
			return b, fmt.Errorf("annotation %s: %w", AnnotationLivenessFailsAt, err)
		}
		b.LivenessFailsAt = &d
	}
	key := AnnotationExit + "." + name
	v, ok := p.Annotations[key]
	if !ok && first {
		key = AnnotationExit
		v, ok = p.Annotations[key]
	}
	if ok {
		x, err := ParseExit(v)
		if err != nil {
			return b, fmt.Errorf("annotation %s: %w", key, err)
		}
		b.Exit = &x
	}
	return b, nil
}

// ParseExit parses "CODE@DURATION" ("1@30s", "0@5").
func ParseExit(s string) (Exit, error) {
	code, after, ok := strings.Cut(strings.TrimSpace(s), "@")
	if !ok {
		return Exit{}, fmt.Errorf("%q: want CODE@DURATION, e.g. 1@30s", s)
	}
	c, err := strconv.ParseInt(strings.TrimSpace(code), 10, 32)
	if err != nil || c < 0 || c > 255 {
		return Exit{}, fmt.Errorf("%q: exit code must be 0..255", s)
	}
	d, err := ParseLabDuration(after)
	if err != nil {
		return Exit{}, fmt.Errorf("%q: %w", s, err)
	}
	return Exit{Code: int32(c), After: d}, nil
}

// ValidateBehaviour checks every behaviour annotation of a pod (for
// CreatePod: a bad value is an error, never a silent default).
func ValidateBehaviour(p *api.Pod) error {
	first := true
	for _, cs := range [][]api.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for _, c := range cs {
			isFirst := first && !isInit(p, c.Name)
			if isFirst {
				first = false
			}
			if _, err := ContainerBehaviour(p, c.Name, isFirst); err != nil {
				return err
			}
		}
	}
	for k := range p.Annotations {
		if name, ok := strings.CutPrefix(k, AnnotationExit+"."); ok && !hasContainer(p, name) {
			return fmt.Errorf("annotation %s: the pod has no container %q", k, name)
		}
	}
	return nil
}

func isInit(p *api.Pod, name string) bool {
	for _, c := range p.Spec.InitContainers {
		if c.Name == name {
			return true
		}
	}
	return false
}

func hasContainer(p *api.Pod, name string) bool {
	for _, cs := range [][]api.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for _, c := range cs {
			if c.Name == name {
				return true
			}
		}
	}
	return false
}

// ProbeFailureMessage is the kubelet's probe failure text for a handler
// kind, as `kubectl describe` shows it after "Readiness probe failed: ".
func ProbeFailureMessage(handler string) string {
	switch handler {
	case "httpGet":
		return "HTTP probe failed with statuscode: 503"
	case "tcpSocket":
		return "dial tcp: connect: connection refused"
	case "grpc":
		return `service unhealthy (responded with "NOT_SERVING")`
	}
	return "command failed with exit code 1"
}
