package lab

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/descheduler"
	"podlab.dev/podlab/lab/manifest"
)

// The descheduler's policy document (kubernetes-sigs/descheduler
// pkg/api/v1alpha2): a scenario file may hold one, next to the lab
// header and the manifests.
const (
	DeschedulerAPIVersion = "descheduler/v1alpha2"
	DeschedulerKind       = "DeschedulerPolicy"
)

// DeschedulerPolicyDoc is a decoded DeschedulerPolicy with where it
// starts and what the decoder ignored (warnings).
type DeschedulerPolicyDoc struct {
	Policy   *descheduler.Policy
	Pos      manifest.Position
	Warnings []manifest.Diagnostic
}

// splitDeschedulerPolicy takes DeschedulerPolicy documents out of the
// manifest text (their lines blanked, so positions stay the file's).
func splitDeschedulerPolicy(data []byte) (policyText, rest []byte, found bool) {
	return splitDocs(data, isDeschedulerDoc)
}

// isDeschedulerDoc looks for top-level "kind: DeschedulerPolicy".
func isDeschedulerDoc(doc []byte) bool {
	v, ok := topLevelValue(doc, "kind:")
	return ok && v == DeschedulerKind
}

// ParseDeschedulerPolicy decodes a DeschedulerPolicy document (text keeps
// the file's line numbers). Errors carry file:line:col; unknown fields
// and options podlab does not model are warnings.
func ParseDeschedulerPolicy(name string, text []byte) (*DeschedulerPolicyDoc, error) {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	p := &policyParser{file: name}
	var doc *DeschedulerPolicyDoc
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, &manifest.Error{Diagnostics: []manifest.Diagnostic{yamlErrorDiag(name, err)}}
		}
		if len(n.Content) == 0 {
			continue
		}
		if doc != nil {
			p.errorf(n.Content[0], "a scenario may hold only one %s", DeschedulerKind, "merge the profiles into one policy")
			break
		}
		doc = &DeschedulerPolicyDoc{Pos: manifest.Position{File: name, Line: n.Content[0].Line, Col: n.Content[0].Column}}
		doc.Policy = p.policy(n.Content[0])
	}
	if doc != nil {
		for _, fe := range doc.Policy.Validate() {
			p.errs = append(p.errs, manifest.Diagnostic{File: name, Line: doc.Pos.Line, Col: doc.Pos.Col, Severity: manifest.SeverityError,
				Message: fe.Error(), Hint: "see docs/controllers.md (descheduler)"})
		}
	}
	if len(p.errs) > 0 {
		return nil, &manifest.Error{Diagnostics: p.errs, Warnings: p.warns}
	}
	if doc != nil {
		doc.Warnings = p.warns
	}
	return doc, nil
}

type policyParser struct {
	file        string
	errs, warns []manifest.Diagnostic
}

func (p *policyParser) diag(n *yaml.Node, sev manifest.Severity, msg, hint string) {
	d := manifest.Diagnostic{File: p.file, Line: n.Line, Col: n.Column, Severity: sev, Message: msg, Hint: hint}
	if sev == manifest.SeverityError {
		if len(p.errs) < manifest.DefaultMaxErrors {
			p.errs = append(p.errs, d)
		}
		return
	}
	p.warns = append(p.warns, d)
}

func (p *policyParser) errorf(n *yaml.Node, format string, a ...any) {
	hint := a[len(a)-1].(string)
	p.diag(n, manifest.SeverityError, fmt.Sprintf(format, a[:len(a)-1]...), hint)
}

// fields walks a mapping; unknown keys are warnings (upstream's decoder
// is not strict: it drops them silently, which hides typos).
func (p *policyParser) fields(n *yaml.Node, where string, known []string, f func(key string, v *yaml.Node)) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s must be a mapping of fields", where, "")
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if v.Kind == yaml.AliasNode {
			v = v.Alias
		}
		if !policyHas(known, k.Value) {
			p.diag(k, manifest.SeverityWarning, fmt.Sprintf("%s: unknown field %q (ignored)", where, k.Value), "fields are "+strings.Join(known, ", "))
			continue
		}
		f(k.Value, v)
	}
}

func policyHas(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func (p *policyParser) str(n *yaml.Node, what string) string {
	if n.Kind != yaml.ScalarNode {
		p.errorf(n, "%s must be text", what, "")
		return ""
	}
	return n.Value
}

func (p *policyParser) boolean(n *yaml.Node, what string) bool {
	if n.Kind == yaml.ScalarNode {
		switch n.Value {
		case "true", "True", "TRUE":
			return true
		case "false", "False", "FALSE":
			return false
		}
	}
	p.errorf(n, "%s must be true or false", what, "")
	return false
}

func (p *policyParser) integer(n *yaml.Node, what string, lo, hi int64) int64 {
	if n.Kind == yaml.ScalarNode {
		if v, err := strconv.ParseInt(n.Value, 10, 64); err == nil && v >= lo && v <= hi {
			return v
		}
	}
	p.errorf(n, "%s must be a whole number from %d to %d", what, lo, hi, "")
	return 0
}

func (p *policyParser) uintPtr(n *yaml.Node, what string) *uint {
	v := uint(p.integer(n, what, 0, 1<<31))
	return &v
}

func (p *policyParser) number(n *yaml.Node, what string) float64 {
	if n.Kind == yaml.ScalarNode {
		// NaN and ±Inf parse but are not numbers a policy can hold
		if v, err := strconv.ParseFloat(n.Value, 64); err == nil && !math.IsNaN(v) && !math.IsInf(v, 0) {
			return v
		}
	}
	p.errorf(n, "%s must be a number", what, "")
	return 0
}

func (p *policyParser) strs(n *yaml.Node, what string) []string {
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "%s must be a list", what, "")
		return nil
	}
	out := []string{}
	for _, c := range n.Content {
		out = append(out, p.str(c, what+"[]"))
	}
	return out
}

func (p *policyParser) duration(n *yaml.Node, what string) *time.Duration {
	if n.Kind == yaml.ScalarNode {
		if d, err := time.ParseDuration(n.Value); err == nil && d >= 0 {
			return &d
		}
	}
	p.errorf(n, "%s must be a duration such as 5m or 1h30m", what, "")
	return nil
}

func (p *policyParser) policy(n *yaml.Node) *descheduler.Policy {
	pol := &descheduler.Policy{}
	p.fields(n, DeschedulerKind, []string{"apiVersion", "kind", "profiles", "nodeSelector", "maxNoOfPodsToEvictPerNode",
		"maxNoOfPodsToEvictPerNamespace", "maxNoOfPodsToEvictTotal", "evictionFailureEventNotification", "metricsCollector",
		"metricsProviders", "gracePeriodSeconds", "prometheus"}, func(key string, v *yaml.Node) {
		switch key {
		case "apiVersion":
			if v.Value != DeschedulerAPIVersion {
				p.errorf(v, "apiVersion %q: the descheduler policy podlab reads is %s", v.Value, DeschedulerAPIVersion, "v1alpha1 policies (strategies) were removed upstream in v0.30; convert to profiles")
			}
		case "kind":
		case "nodeSelector":
			pol.NodeSelector = p.selectorString(v, "nodeSelector")
		case "maxNoOfPodsToEvictPerNode":
			pol.MaxNoOfPodsToEvictPerNode = p.uintPtr(v, key)
		case "maxNoOfPodsToEvictPerNamespace":
			pol.MaxNoOfPodsToEvictPerNamespace = p.uintPtr(v, key)
		case "maxNoOfPodsToEvictTotal":
			pol.MaxNoOfPodsToEvictTotal = p.uintPtr(v, key)
		case "evictionFailureEventNotification":
			pol.EvictionFailureEventNotification = p.boolean(v, key)
		case "gracePeriodSeconds":
			g := p.integer(v, key, 0, 1<<31)
			pol.GracePeriodSeconds = &g
		case "metricsCollector", "metricsProviders", "prometheus":
			p.diag(v, manifest.SeverityWarning, key+": actual-usage metrics are not modelled (LowNodeUtilization uses requests)", "")
		case "profiles":
			if v.Kind != yaml.SequenceNode {
				p.errorf(v, "profiles must be a list", "")
				return
			}
			for i, pn := range v.Content {
				pol.Profiles = append(pol.Profiles, p.profile(pn, fmt.Sprintf("profiles[%d]", i)))
			}
		}
	})
	return pol
}

func (p *policyParser) profile(n *yaml.Node, at string) descheduler.Profile {
	var pr descheduler.Profile
	p.fields(n, at, []string{"name", "pluginConfig", "plugins"}, func(key string, v *yaml.Node) {
		switch key {
		case "name":
			pr.Name = p.str(v, at+".name")
		case "plugins":
			p.fields(v, at+".plugins", []string{"presort", "sort", "deschedule", "balance", "filter", "preevictionfilter"}, func(point string, sv *yaml.Node) {
				var enabled []string
				p.fields(sv, at+".plugins."+point, []string{"enabled", "disabled"}, func(k string, lv *yaml.Node) {
					names := p.strs(lv, at+".plugins."+point+"."+k)
					if k == "enabled" {
						enabled = names
					} else if len(names) > 0 {
						p.diag(lv, manifest.SeverityWarning, at+".plugins."+point+".disabled: there are no default plugins to disable", "")
					}
				})
				switch point {
				case "deschedule":
					pr.Deschedule = append(pr.Deschedule, enabled...)
				case "balance":
					pr.Balance = append(pr.Balance, enabled...)
				default:
					for _, name := range enabled {
						if name != descheduler.DefaultEvictorName {
							p.diag(sv, manifest.SeverityWarning, fmt.Sprintf("%s.plugins.%s: %s is not modelled; only DefaultEvictor", at, point, name), "")
						}
					}
				}
			})
		case "pluginConfig":
			if v.Kind != yaml.SequenceNode {
				p.errorf(v, "%s.pluginConfig must be a list", at, "")
				return
			}
			for i, cn := range v.Content {
				p.pluginConfig(cn, fmt.Sprintf("%s.pluginConfig[%d]", at, i), &pr)
			}
		}
	})
	return pr
}

func (p *policyParser) pluginConfig(n *yaml.Node, at string, pr *descheduler.Profile) {
	var name string
	var args *yaml.Node
	p.fields(n, at, []string{"name", "args"}, func(key string, v *yaml.Node) {
		if key == "name" {
			name = p.str(v, at+".name")
		} else {
			args = v
		}
	})
	if args == nil {
		return
	}
	at += ".args"
	a := &pr.Args
	switch name {
	case descheduler.DefaultEvictorName:
		p.evictorArgs(args, at, &pr.Evictor)
	case descheduler.TopologySpreadName:
		t := &a.TopologySpread
		p.fields(args, at, []string{"namespaces", "labelSelector", "constraints", "topologyBalanceNodeFit"}, func(k string, v *yaml.Node) {
			switch k {
			case "namespaces":
				t.Namespaces = p.namespaces(v, at+".namespaces")
			case "labelSelector":
				t.LabelSelector = p.labelSelector(v, at+".labelSelector")
			case "constraints":
				t.Constraints = p.strs(v, at+".constraints")
			case "topologyBalanceNodeFit":
				b := p.boolean(v, at+"."+k)
				t.TopologyBalanceNodeFit = &b
			}
		})
	case descheduler.DuplicatesName:
		d := &a.Duplicates
		p.fields(args, at, []string{"namespaces", "excludeOwnerKinds"}, func(k string, v *yaml.Node) {
			if k == "namespaces" {
				d.Namespaces = p.namespaces(v, at+".namespaces")
			} else {
				d.ExcludeOwnerKinds = p.strs(v, at+"."+k)
			}
		})
	case descheduler.LowNodeUtilizationName:
		l := &a.LowNodeUtilization
		p.fields(args, at, []string{"useDeviationThresholds", "thresholds", "targetThresholds", "numberOfNodes", "evictableNamespaces", "evictionLimits", "metricsUtilization"}, func(k string, v *yaml.Node) {
			switch k {
			case "useDeviationThresholds":
				l.UseDeviationThresholds = p.boolean(v, at+"."+k)
			case "thresholds":
				l.Thresholds = p.thresholds(v, at+"."+k)
			case "targetThresholds":
				l.TargetThresholds = p.thresholds(v, at+"."+k)
			case "numberOfNodes":
				l.NumberOfNodes = int(p.integer(v, at+"."+k, 0, 1<<31))
			case "evictableNamespaces":
				l.EvictableNamespaces = p.namespaces(v, at+"."+k)
			case "evictionLimits":
				p.fields(v, at+"."+k, []string{"node"}, func(_ string, nv *yaml.Node) { l.EvictionLimitsNode = p.uintPtr(nv, at+".evictionLimits.node") })
			case "metricsUtilization":
				p.diag(v, manifest.SeverityWarning, at+".metricsUtilization: actual usage is not modelled; requests are used", "")
			}
		})
	case descheduler.HighNodeUtilizationName:
		h := &a.HighNodeUtilization
		p.fields(args, at, []string{"thresholds", "numberOfNodes", "evictableNamespaces", "evictionModes"}, func(k string, v *yaml.Node) {
			switch k {
			case "thresholds":
				h.Thresholds = p.thresholds(v, at+"."+k)
			case "numberOfNodes":
				h.NumberOfNodes = int(p.integer(v, at+"."+k, 0, 1<<31))
			case "evictableNamespaces":
				h.EvictableNamespaces = p.namespaces(v, at+"."+k)
			case "evictionModes":
				p.diag(v, manifest.SeverityWarning, at+".evictionModes is not modelled", "")
			}
		})
	case descheduler.NodeTaintsName:
		t := &a.NodeTaints
		p.fields(args, at, []string{"namespaces", "labelSelector", "includePreferNoSchedule", "excludedTaints", "includedTaints"}, func(k string, v *yaml.Node) {
			switch k {
			case "namespaces":
				t.Namespaces = p.namespaces(v, at+"."+k)
			case "labelSelector":
				t.LabelSelector = p.labelSelector(v, at+"."+k)
			case "includePreferNoSchedule":
				t.IncludePreferNoSchedule = p.boolean(v, at+"."+k)
			case "excludedTaints":
				t.ExcludedTaints = p.strs(v, at+"."+k)
			case "includedTaints":
				t.IncludedTaints = p.strs(v, at+"."+k)
			}
		})
	case descheduler.NodeAffinityName:
		t := &a.NodeAffinity
		p.fields(args, at, []string{"namespaces", "labelSelector", "nodeAffinityType"}, func(k string, v *yaml.Node) {
			switch k {
			case "namespaces":
				t.Namespaces = p.namespaces(v, at+"."+k)
			case "labelSelector":
				t.LabelSelector = p.labelSelector(v, at+"."+k)
			case "nodeAffinityType":
				t.NodeAffinityType = p.strs(v, at+"."+k)
			}
		})
	case descheduler.InterPodAntiAffinityName:
		t := &a.InterPodAntiAffinity
		p.fields(args, at, []string{"namespaces", "labelSelector"}, func(k string, v *yaml.Node) {
			if k == "namespaces" {
				t.Namespaces = p.namespaces(v, at+"."+k)
			} else {
				t.LabelSelector = p.labelSelector(v, at+"."+k)
			}
		})
	case descheduler.TooManyRestartsName:
		t := &a.TooManyRestarts
		p.fields(args, at, []string{"namespaces", "labelSelector", "podRestartThreshold", "includingInitContainers", "states"}, func(k string, v *yaml.Node) {
			switch k {
			case "namespaces":
				t.Namespaces = p.namespaces(v, at+"."+k)
			case "labelSelector":
				t.LabelSelector = p.labelSelector(v, at+"."+k)
			case "podRestartThreshold":
				t.PodRestartThreshold = int32(p.integer(v, at+"."+k, 0, 1<<31-1))
			case "includingInitContainers":
				t.IncludingInitContainers = p.boolean(v, at+"."+k)
			case "states":
				t.States = p.strs(v, at+"."+k)
			}
		})
	case descheduler.PodLifeTimeName:
		t := &a.PodLifeTime
		p.fields(args, at, []string{"namespaces", "labelSelector", "maxPodLifeTimeSeconds", "states", "includingInitContainers", "ownerKinds", "conditions", "exitCodes"}, func(k string, v *yaml.Node) {
			switch k {
			case "includingInitContainers":
				t.IncludingInitContainers = p.boolean(v, at+"."+k)
			case "ownerKinds":
				t.OwnerKinds = &descheduler.OwnerKinds{}
				p.fields(v, at+"."+k, []string{"include", "exclude"}, func(kk string, vv *yaml.Node) {
					if kk == "include" {
						t.OwnerKinds.Include = p.strs(vv, at+"."+k+"."+kk)
					} else {
						t.OwnerKinds.Exclude = p.strs(vv, at+"."+k+"."+kk)
					}
				})
			case "conditions":
				t.Conditions = p.podConditions(v, at+"."+k)
			case "exitCodes":
				t.ExitCodes = p.int32s(v, at+"."+k)
			case "namespaces":
				t.Namespaces = p.namespaces(v, at+"."+k)
			case "labelSelector":
				t.LabelSelector = p.labelSelector(v, at+"."+k)
			case "maxPodLifeTimeSeconds":
				t.MaxPodLifeTimeSeconds = p.uintPtr(v, at+"."+k)
			case "states":
				t.States = p.strs(v, at+"."+k)
			}
		})
	case descheduler.FailedPodsName:
		t := &a.FailedPods
		p.fields(args, at, []string{"namespaces", "labelSelector", "excludeOwnerKinds", "minPodLifetimeSeconds", "reasons", "exitCodes", "includingInitContainers"}, func(k string, v *yaml.Node) {
			switch k {
			case "namespaces":
				t.Namespaces = p.namespaces(v, at+"."+k)
			case "labelSelector":
				t.LabelSelector = p.labelSelector(v, at+"."+k)
			case "excludeOwnerKinds":
				t.ExcludeOwnerKinds = p.strs(v, at+"."+k)
			case "minPodLifetimeSeconds":
				t.MinPodLifetimeSeconds = p.uintPtr(v, at+"."+k)
			case "reasons":
				t.Reasons = p.strs(v, at+"."+k)
			case "exitCodes":
				t.ExitCodes = p.int32s(v, at+"."+k)
			case "includingInitContainers":
				t.IncludingInitContainers = p.boolean(v, at+"."+k)
			}
		})
	default:
		p.errorf(n, "%s: plugin %q in pluginConfig not registered", at, name, "plugins are DefaultEvictor, "+strings.Join(append(append([]string{}, descheduler.BalancePlugins...), descheduler.DeschedulePlugins...), ", "))
	}
}

func (p *policyParser) evictorArgs(n *yaml.Node, at string, e *descheduler.EvictorArgs) {
	bools := map[string]*bool{
		"nodeFit": &e.NodeFit, "evictLocalStoragePods": &e.EvictLocalStoragePods, "evictDaemonSetPods": &e.EvictDaemonSetPods,
		"evictSystemCriticalPods": &e.EvictSystemCriticalPods, "ignorePvcPods": &e.IgnorePvcPods,
		"ignorePodsWithoutPDB": &e.IgnorePodsWithoutPDB, "evictFailedBarePods": &e.EvictFailedBarePods,
	}
	known := []string{"nodeSelector", "labelSelector", "namespaceLabelSelector", "priorityThreshold", "minReplicas", "minPodAge", "noEvictionPolicy", "podProtections"}
	for k := range bools {
		known = append(known, k)
	}
	sort.Strings(known)
	p.fields(n, at, known, func(k string, v *yaml.Node) {
		if b, ok := bools[k]; ok {
			*b = p.boolean(v, at+"."+k)
			return
		}
		switch k {
		case "nodeSelector":
			e.NodeSelector = p.selectorString(v, at+"."+k)
		case "labelSelector":
			e.LabelSelector = p.labelSelector(v, at+"."+k)
		case "namespaceLabelSelector":
			p.diag(v, manifest.SeverityWarning, at+".namespaceLabelSelector is not modelled (ignored)", "")
		case "priorityThreshold":
			t := &descheduler.PriorityThreshold{}
			p.fields(v, at+"."+k, []string{"value", "name"}, func(tk string, tv *yaml.Node) {
				if tk == "value" {
					val := int32(p.integer(tv, at+".priorityThreshold.value", -1<<31, 1<<31-1))
					t.Value = &val
				} else {
					t.Name = p.str(tv, at+".priorityThreshold.name")
				}
			})
			if t.Value != nil && t.Name != "" {
				p.errorf(v, "%s.priorityThreshold: only one of value and name can be set", at, "")
			}
			e.PriorityThreshold = t
		case "minReplicas":
			e.MinReplicas = uint(p.integer(v, at+"."+k, 0, 1<<31))
		case "minPodAge":
			e.MinPodAge = p.duration(v, at+"."+k)
		case "noEvictionPolicy":
			e.NoEvictionPolicy = p.str(v, at+"."+k)
			if e.NoEvictionPolicy != descheduler.NoEvictionPolicyMandatory && e.NoEvictionPolicy != descheduler.NoEvictionPolicyPreferred {
				p.errorf(v, "%s.noEvictionPolicy %q: must be Preferred or Mandatory", at, e.NoEvictionPolicy, "")
			}
		case "podProtections":
			p.fields(v, at+"."+k, []string{"defaultDisabled", "extraEnabled", "config"}, func(pk string, pv *yaml.Node) {
				switch pk {
				case "defaultDisabled":
					e.DefaultDisabled = p.strs(pv, at+".podProtections."+pk)
				case "extraEnabled":
					e.ExtraEnabled = p.strs(pv, at+".podProtections."+pk)
				default:
					p.diag(pv, manifest.SeverityWarning, at+".podProtections.config: storage classes are not modelled", "")
				}
			})
		}
	})
}

func (p *policyParser) namespaces(n *yaml.Node, at string) *descheduler.Namespaces {
	ns := &descheduler.Namespaces{}
	p.fields(n, at, []string{"include", "exclude"}, func(k string, v *yaml.Node) {
		if k == "include" {
			ns.Include = p.strs(v, at+".include")
		} else {
			ns.Exclude = p.strs(v, at+".exclude")
		}
	})
	return ns
}

func (p *policyParser) thresholds(n *yaml.Node, at string) descheduler.Thresholds {
	t := descheduler.Thresholds{}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s must map resource names to percentages", at, "e.g. {cpu: 20, memory: 20, pods: 20}")
		return t
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		t[n.Content[i].Value] = p.number(n.Content[i+1], at+"."+n.Content[i].Value)
	}
	return t
}

// labelSelector decodes a metav1.LabelSelector mapping.
func (p *policyParser) labelSelector(n *yaml.Node, at string) *api.Selector {
	ls := &api.LabelSelector{}
	p.fields(n, at, []string{"matchLabels", "matchExpressions"}, func(k string, v *yaml.Node) {
		if k == "matchLabels" {
			if v.Kind != yaml.MappingNode {
				p.errorf(v, "%s.matchLabels must be a mapping", at, "")
				return
			}
			ls.MatchLabels = map[string]string{}
			for i := 0; i+1 < len(v.Content); i += 2 {
				ls.MatchLabels[v.Content[i].Value] = v.Content[i+1].Value
			}
			return
		}
		if v.Kind != yaml.SequenceNode {
			p.errorf(v, "%s.matchExpressions must be a list", at, "")
			return
		}
		for _, en := range v.Content {
			var r api.LabelSelectorRequirement
			p.fields(en, at+".matchExpressions[]", []string{"key", "operator", "values"}, func(ek string, ev *yaml.Node) {
				switch ek {
				case "key":
					r.Key = p.str(ev, "key")
				case "operator":
					r.Operator = p.str(ev, "operator")
				case "values":
					r.Values = p.strs(ev, "values")
				}
			})
			ls.MatchExpressions = append(ls.MatchExpressions, r)
		}
	})
	sel, err := api.CompileSelector(ls)
	if err != nil {
		p.errorf(n, "%s: %v", at, err, "")
		return nil
	}
	return &sel
}

// selectorString parses a label selector in its string form
// ("k=v,k2!=v2,k3,!k4", labels.Parse's common subset).
func (p *policyParser) selectorString(n *yaml.Node, at string) *api.Selector {
	s := p.str(n, at)
	ls := &api.LabelSelector{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		var r api.LabelSelectorRequirement
		switch {
		case part == "":
			continue
		case strings.Contains(part, "!="):
			kv := strings.SplitN(part, "!=", 2)
			r = api.LabelSelectorRequirement{Key: strings.TrimSpace(kv[0]), Operator: api.LabelSelectorOpNotIn, Values: []string{strings.TrimSpace(kv[1])}}
		case strings.Contains(part, "="):
			kv := strings.SplitN(strings.Replace(part, "==", "=", 1), "=", 2)
			r = api.LabelSelectorRequirement{Key: strings.TrimSpace(kv[0]), Operator: api.LabelSelectorOpIn, Values: []string{strings.TrimSpace(kv[1])}}
		case strings.HasPrefix(part, "!"):
			r = api.LabelSelectorRequirement{Key: strings.TrimSpace(part[1:]), Operator: api.LabelSelectorOpDoesNotExist}
		case strings.ContainsAny(part, " ()"):
			p.errorf(n, "%s %q: set-based forms (in, notin) are not supported here", at, s, "write k=v, k!=v, k or !k, separated by commas")
			return nil
		default:
			r = api.LabelSelectorRequirement{Key: part, Operator: api.LabelSelectorOpExists}
		}
		ls.MatchExpressions = append(ls.MatchExpressions, r)
	}
	sel, err := api.CompileSelector(ls)
	if err != nil {
		p.errorf(n, "%s %q: %v", at, s, err, "")
		return nil
	}
	return &sel
}

// int32s reads a list of exit codes.
func (p *policyParser) int32s(n *yaml.Node, what string) []int32 {
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "%s must be a list", what, "")
		return nil
	}
	out := []int32{}
	for _, c := range n.Content {
		out = append(out, int32(p.integer(c, what+"[]", -1<<31, 1<<31-1)))
	}
	return out
}

// podConditions reads PodLifeTime's conditions: each a map of type,
// status, reason and minTimeSinceLastTransitionSeconds.
func (p *policyParser) podConditions(n *yaml.Node, what string) []descheduler.PodConditionFilter {
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "%s must be a list", what, "")
		return nil
	}
	var out []descheduler.PodConditionFilter
	for i, c := range n.Content {
		at := fmt.Sprintf("%s[%d]", what, i)
		var f descheduler.PodConditionFilter
		p.fields(c, at, []string{"type", "status", "reason", "minTimeSinceLastTransitionSeconds"}, func(k string, v *yaml.Node) {
			switch k {
			case "type":
				f.Type = p.str(v, at+"."+k)
			case "status":
				f.Status = p.str(v, at+"."+k)
			case "reason":
				f.Reason = p.str(v, at+"."+k)
			case "minTimeSinceLastTransitionSeconds":
				f.MinTimeSinceLastTransitionSeconds = p.uintPtr(v, at+"."+k)
			}
		})
		out = append(out, f)
	}
	return out
}
