// Package scenario decodes a scenario file (a multi-document YAML of
// ordinary manifests) into Kubernetes API objects for the real scheduler
// side, defaulted the way the API server would and with pod priorities
// resolved as the Priority admission plugin does.
package scenario

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"sigs.k8s.io/yaml"

	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	// Register the core, scheduling and policy groups (types, conversions
	// and v1 defaulting functions) into legacyscheme.
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
)

// Scenario is a decoded scenario file.
type Scenario struct {
	Nodes []*v1.Node
	// Bound pods have spec.nodeName and are not terminal; file order.
	Bound []*v1.Pod
	// Pending pods have no nodeName; file order is queue arrival order.
	Pending         []*v1.Pod
	PriorityClasses []*schedulingv1.PriorityClass
	PDBs            []*policyv1.PodDisruptionBudget
	Namespaces      []*v1.Namespace
	// Services and ReplicaSets feed PodTopologySpread's system default
	// constraints (helper.DefaultSelector).
	Services    []*v1.Service
	ReplicaSets []*appsv1.ReplicaSet
	// Ignored lists "Kind name" of documents of other kinds.
	Ignored []string
	// SchedulerConfig is a KubeSchedulerConfiguration document, kept raw:
	// the real runner loads it with the scheduler's own config scheme
	// (decoding, v1 defaulting, conversion) and validation.
	SchedulerConfig []byte
}

// Decode parses and defaults a scenario file.
func Decode(data []byte) (*Scenario, error) {
	s := &Scenario{}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	deser := legacyscheme.Codecs.UniversalDeserializer()
	for i := 1; ; i++ {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		if len(bytes.TrimSpace(stripComments(doc))) == 0 {
			continue
		}
		if isSchedulerConfig(doc) {
			if s.SchedulerConfig != nil {
				return nil, fmt.Errorf("document %d: a second KubeSchedulerConfiguration", i)
			}
			s.SchedulerConfig = doc
			continue
		}
		obj, gvk, err := deser.Decode(doc, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		legacyscheme.Scheme.Default(obj)
		if err := s.add(obj); err != nil {
			return nil, fmt.Errorf("document %d (%s): %w", i, gvk.Kind, err)
		}
	}
	if err := s.resolvePriorities(); err != nil {
		return nil, err
	}
	for _, p := range append(append([]*v1.Pod{}, s.Bound...), s.Pending...) {
		if err := admitPod(p); err != nil {
			return nil, err
		}
	}
	s.addImplicitNamespaces()
	s.fillIdentity()
	return s, nil
}

// StartEpoch is the start time synthesized for bound pods without
// status.startTime: StartEpoch + their index among the bound pods in
// seconds (the API server/kubelet would set it; victim ordering reads it).
var StartEpoch = time.Date(2029, 1, 1, 0, 0, 0, 0, time.UTC)

// fillIdentity gives every object a UID (the scheduler cache keys pods by
// it) and bound pods a start time, as the API server and kubelet would.
func (s *Scenario) fillIdentity() {
	for i, p := range s.Bound {
		if p.Status.StartTime == nil {
			t := metav1.NewTime(StartEpoch.Add(time.Duration(i) * time.Second))
			p.Status.StartTime = &t
		}
	}
	for _, p := range append(append([]*v1.Pod{}, s.Bound...), s.Pending...) {
		if p.UID == "" {
			p.UID = types.UID("pod-" + p.Namespace + "-" + p.Name)
		}
	}
	for _, n := range s.Nodes {
		if n.UID == "" {
			n.UID = types.UID("node-" + n.Name)
		}
	}
}

func stripComments(doc []byte) []byte {
	var out []byte
	for _, line := range bytes.Split(doc, []byte("\n")) {
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '#' || bytes.Equal(t, []byte("---")) {
			continue
		}
		out = append(out, line...)
		out = append(out, '\n')
	}
	return out
}

func (s *Scenario) add(obj runtime.Object) error {
	switch o := obj.(type) {
	case *v1.Node:
		s.Nodes = append(s.Nodes, o)
	case *v1.Pod:
		if o.Namespace == "" {
			o.Namespace = "default"
		}
		switch {
		case o.Status.Phase == v1.PodSucceeded || o.Status.Phase == v1.PodFailed:
			// Terminal pods hold nothing; the scheduler cache ignores them.
		case o.Spec.NodeName != "":
			s.Bound = append(s.Bound, o)
		default:
			s.Pending = append(s.Pending, o)
		}
	case *schedulingv1.PriorityClass:
		s.PriorityClasses = append(s.PriorityClasses, o)
	case *policyv1.PodDisruptionBudget:
		if o.Namespace == "" {
			o.Namespace = "default"
		}
		s.PDBs = append(s.PDBs, o)
	case *v1.Namespace:
		s.Namespaces = append(s.Namespaces, o)
	case *appsv1.ReplicaSet:
		if o.Namespace == "" {
			o.Namespace = "default"
		}
		s.ReplicaSets = append(s.ReplicaSets, o)
	case *v1.Service:
		if o.Namespace == "" {
			o.Namespace = "default"
		}
		s.Services = append(s.Services, o)
	default:
		s.Ignored = append(s.Ignored, fmt.Sprintf("%T", obj))
	}
	return nil
}

// isSchedulerConfig reports whether a document is a
// KubeSchedulerConfiguration (legacyscheme does not know its group).
func isSchedulerConfig(doc []byte) bool {
	var tm struct {
		Kind string `json:"kind"`
	}
	if err := yaml.Unmarshal(doc, &tm); err != nil {
		return false
	}
	return tm.Kind == "KubeSchedulerConfiguration"
}

// addImplicitNamespaces creates the namespaces pods use, with the
// kubernetes.io/metadata.name label the API server adds to every namespace.
func (s *Scenario) addImplicitNamespaces() {
	have := map[string]bool{}
	for _, ns := range s.Namespaces {
		if ns.Labels == nil {
			ns.Labels = map[string]string{}
		}
		ns.Labels[v1.LabelMetadataName] = ns.Name
		have[ns.Name] = true
	}
	var missing []string
	for _, p := range append(append([]*v1.Pod{}, s.Bound...), s.Pending...) {
		if !have[p.Namespace] {
			have[p.Namespace] = true
			missing = append(missing, p.Namespace)
		}
	}
	sort.Strings(missing)
	for _, name := range missing {
		ns := &v1.Namespace{}
		ns.Name = name
		ns.Labels = map[string]string{v1.LabelMetadataName: name}
		s.Namespaces = append(s.Namespaces, ns)
	}
}
