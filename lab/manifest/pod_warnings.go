package manifest

import (
	"fmt"
	"strings"

	"podlab.dev/podlab/engine/api"
)

// deprecatedNodeLabels is pkg/api/node/util.go's table: node labels that
// still work but that a selector should no longer use.
var deprecatedNodeLabels = map[string]string{
	`beta.kubernetes.io/arch`:                       `deprecated since v1.14; use "kubernetes.io/arch" instead`,
	`beta.kubernetes.io/os`:                         `deprecated since v1.14; use "kubernetes.io/os" instead`,
	`failure-domain.beta.kubernetes.io/region`:      `deprecated since v1.17; use "topology.kubernetes.io/region" instead`,
	`failure-domain.beta.kubernetes.io/zone`:        `deprecated since v1.17; use "topology.kubernetes.io/zone" instead`,
	`beta.kubernetes.io/instance-type`:              `deprecated since v1.17; use "node.kubernetes.io/instance-type" instead`,
	`app.kubernetes.io/created-by`:                  `deprecated since v1.9`,
	`scheduler.alpha.kubernetes.io/preferAvoidPods`: `deprecated since v1.22; use Taints and Tolerations instead`,
	`node-role.kubernetes.io/master`:                `use "node-role.kubernetes.io/control-plane" instead`,
}

func warning(path, msg string) fieldError { return fieldError{path: path, msg: msg, warning: true} }

// podSpecWarnings are the API server's warnings for a pod spec that
// concern scheduling and resources (pkg/api/pod/warnings.go
// warningsForPodSpecAndMeta): deprecated node labels in selectors and
// topology keys, invalid label values in preferred node affinity (allowed,
// but they never match), null label selectors (they match no pod) and
// fractional byte quantities. The negative-grace warning is in
// validatePodSpec.
func podSpecWarnings(s *api.PodSpec, path string) []fieldError {
	var out []fieldError
	for _, k := range sortedKeys(s.NodeSelector) {
		if msg, ok := deprecatedNodeLabels[k]; ok {
			out = append(out, warning(keyed(join(path, "nodeSelector"), k), msg))
		}
	}
	if a := s.Affinity; a != nil && a.NodeAffinity != nil {
		na := a.NodeAffinity
		if na.RequiredDuringSchedulingIgnoredDuringExecution != nil {
			tp := join(path, "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms")
			for i, t := range na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
				out = append(out, nodeSelectorTermWarnings(t, index(tp, i), false)...)
			}
		}
		pp := join(path, "affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution")
		for i, t := range na.PreferredDuringSchedulingIgnoredDuringExecution {
			out = append(out, nodeSelectorTermWarnings(t.Preference, join(index(pp, i), "preference"), true)...)
		}
	}
	for i, c := range s.TopologySpreadConstraints {
		p := index(join(path, "topologySpreadConstraints"), i)
		if msg, ok := deprecatedNodeLabels[c.TopologyKey]; ok {
			out = append(out, warning(join(p, "topologyKey"), fmt.Sprintf("%s is %s", c.TopologyKey, msg)))
		}
		if c.LabelSelector == nil {
			out = append(out, warning(join(p, "labelSelector"), "a null labelSelector results in matching no pod").
				withHint("add labelSelector: {matchLabels: …} matching the pods to spread"))
		}
	}
	if a := s.Affinity; a != nil {
		for _, aff := range []struct {
			name string
			req  []api.PodAffinityTerm
			pref []api.WeightedPodAffinityTerm
		}{
			{"podAffinity", podAffinityReq(a.PodAffinity), podAffinityPref(a.PodAffinity)},
			{"podAntiAffinity", podAntiAffinityReq(a.PodAntiAffinity), podAntiAffinityPref(a.PodAntiAffinity)},
		} {
			base := join(join(path, "affinity"), aff.name)
			for i, t := range aff.req {
				if t.LabelSelector == nil {
					out = append(out, warning(join(index(join(base, "requiredDuringSchedulingIgnoredDuringExecution"), i), "labelSelector"), "a null labelSelector results in matching no pod"))
				}
			}
			for i, t := range aff.pref {
				if t.PodAffinityTerm.LabelSelector == nil {
					out = append(out, warning(join(index(join(base, "preferredDuringSchedulingIgnoredDuringExecution"), i), "podAffinityTerm.labelSelector"), "a null labelSelector results in matching no pod"))
				}
			}
		}
	}
	out = append(out, fractionalBytes(s.Overhead, join(path, "overhead"))...)
	for _, cs := range []struct {
		name string
		list []api.Container
	}{{"initContainers", s.InitContainers}, {"containers", s.Containers}} {
		for i, c := range cs.list {
			p := join(index(join(path, cs.name), i), "resources")
			out = append(out, fractionalBytes(c.Resources.Limits, join(p, "limits"))...)
			out = append(out, fractionalBytes(c.Resources.Requests, join(p, "requests"))...)
		}
	}
	return out
}

func nodeSelectorTermWarnings(t api.NodeSelectorTerm, path string, checkValues bool) []fieldError {
	var out []fieldError
	for i, r := range t.MatchExpressions {
		p := index(join(path, "matchExpressions"), i)
		if msg, ok := deprecatedNodeLabels[r.Key]; ok {
			out = append(out, warning(join(p, "key"), fmt.Sprintf("%s is %s", r.Key, msg)))
		}
		if checkValues {
			for j, v := range r.Values {
				for _, msg := range labelValueErrors(v) {
					out = append(out, warning(index(join(p, "values"), j), fmt.Sprintf("%s is invalid, %s", v, msg)))
				}
			}
		}
	}
	return out
}

// fractionalBytes warns about memory and ephemeral-storage amounts that
// are not whole bytes ("1500m").
func fractionalBytes(rl api.ResourceList, path string) []fieldError {
	var out []fieldError
	for _, name := range []string{api.ResourceMemory, api.ResourceEphemeralStorage} {
		if q, ok := rl[name]; ok && q%1000 != 0 {
			out = append(out, warning(keyed(path, name), fmt.Sprintf("fractional byte value %q is invalid, must be an integer", formatQuantity(name, q))).
				withHint("memory is counted in bytes; did you mean Mi or M instead of m?"))
		}
	}
	return out
}

// podNameWarnings is the pod strategy's WarningsOnCreate name check.
func podNameWarnings(name string) []fieldError {
	if msgs := dnsLabelErrors(name); len(msgs) > 0 {
		return []fieldError{warning("metadata.name", "this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: ["+strings.Join(msgs, " ")+"]")}
	}
	return nil
}

func podAffinityReq(a *api.PodAffinity) []api.PodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.RequiredDuringSchedulingIgnoredDuringExecution
}

func podAffinityPref(a *api.PodAffinity) []api.WeightedPodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.PreferredDuringSchedulingIgnoredDuringExecution
}

func podAntiAffinityReq(a *api.PodAntiAffinity) []api.PodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.RequiredDuringSchedulingIgnoredDuringExecution
}

func podAntiAffinityPref(a *api.PodAntiAffinity) []api.WeightedPodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.PreferredDuringSchedulingIgnoredDuringExecution
}
