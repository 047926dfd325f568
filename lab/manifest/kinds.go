package manifest

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// kind describes a kind the lab models.
type kind struct {
	apiVersion string
	// decode turns the object's mapping into an api object and returns it
	// with the validation errors of its content.
	decode func(d *decoder, n *yaml.Node) (any, []fieldError)
}

// kinds the lab serves, with the only apiVersion Kubernetes 1.36 serves
// them in.
var kinds = map[string]kind{
	"Node":                {"v1", decodeNode},
	"Pod":                 {"v1", decodePod},
	"Namespace":           {"v1", decodeNamespace},
	"PriorityClass":       {"scheduling.k8s.io/v1", decodePriorityClass},
	"PodDisruptionBudget": {"policy/v1", decodePDB},
	"Deployment":          {"apps/v1", decodeDeployment},
	"ReplicaSet":          {"apps/v1", decodeReplicaSet},
	"StatefulSet":         {"apps/v1", decodeStatefulSet},
	"DaemonSet":           {"apps/v1", decodeDaemonSet},
	"Job":                 {"batch/v1", decodeJob},
	"CronJob":             {"batch/v1", decodeCronJob},
	"Service":             {"v1", decodeService},
	// the scheduler's configuration file (schedconfig.go)
	SchedulerConfigKind:       {SchedulerConfigAPIVersion, decodeSchedulerConfig},
	"ReplicationController":   {"v1", decodeReplicationController},
	"HorizontalPodAutoscaler": {"autoscaling/v2", decodeHPA},
}

var kindNames = func() []string {
	var names []string
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}()

// header is the identity of a document, read before decoding it.
type header struct {
	apiVersion, kind, name string
	kindNode, apiNode      *yaml.Node
}

// readHeader reads kind, apiVersion and name without reporting anything (the
// decoding pass reports problems with these fields).
func readHeader(n *yaml.Node) header {
	var h header
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, v := resolve(n.Content[i]).Value, resolve(n.Content[i+1])
		switch key {
		case "apiVersion":
			h.apiNode = v
			if v.Kind == yaml.ScalarNode {
				h.apiVersion = v.Value
			}
		case "kind":
			h.kindNode = v
			if v.Kind == yaml.ScalarNode {
				h.kind = v.Value
			}
		case "metadata":
			if v.Kind == yaml.MappingNode && h.name == "" {
				for i := 0; i+1 < len(v.Content); i += 2 {
					if k, nv := resolve(v.Content[i]), resolve(v.Content[i+1]); k.Value == "name" && nv.Kind == yaml.ScalarNode {
						h.name = nv.Value
					} else if k.Value == "generateName" && nv.Kind == yaml.ScalarNode && h.name == "" {
						h.name = nv.Value
					}
				}
			}
		}
	}
	return h
}

// object decodes one document or list item.
func (d *decoder) object(n *yaml.Node, objs *Objects, depth int) {
	d.subject, d.found = "", nil
	// The field positions are the object's own when they are kept;
	// otherwise one map is cleared and reused, item after item — growing
	// a new one per object was a tenth of a 30,000-pod import's decoding.
	if objs.fieldPos != nil || d.pos == nil {
		d.pos = map[string]Position{}
	} else {
		clear(d.pos)
	}
	if d.failed == nil {
		d.failed = map[string]bool{}
	} else {
		clear(d.failed)
	}
	if n.Kind != yaml.MappingNode {
		got := describe(n)
		if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" && (utf8.RuneCountInString(n.Value) > 40 || strings.ContainsAny(n.Value, "\n\r")) {
			// a file that is not YAML (apply -f /etc/passwd) is one long
			// string: not echoed (it may be anything, and large)
			got = fmt.Sprintf("text of %d characters: this is not a Kubernetes manifest", utf8.RuneCountInString(n.Value))
		}
		d.errorf(n, "", "a manifest document is a mapping with apiVersion, kind and metadata", "expected a Kubernetes object, got %s", got)
		return
	}
	h := readHeader(n)
	switch {
	case h.kindNode == nil || h.kind == "":
		d.errorf(n, "", "add e.g. kind: Pod", "Object 'Kind' is missing")
		return
	case h.apiNode == nil || h.apiVersion == "":
		hint := "add apiVersion"
		if k, ok := kinds[h.kind]; ok {
			hint = "add apiVersion: " + k.apiVersion
		}
		d.errorf(n, "", hint, "%s: Object 'apiVersion' is missing", h.kind)
		return
	}
	if h.kind == "List" || (strings.HasSuffix(h.kind, "List") && kinds[strings.TrimSuffix(h.kind, "List")].decode != nil) {
		d.list(n, h, objs, depth)
		return
	}
	k, ok := kinds[h.kind]
	if !ok {
		hint := ""
		if near := nearestName(h.kind, kindNames); near != "" {
			hint = fmt.Sprintf("did you mean %s?", near)
		}
		d.warnf(h.kindNode, hint, "ignored %s %q: kind not modelled by the lab", h.kind, h.name)
		return
	}
	if h.apiVersion != k.apiVersion {
		d.errorf(h.apiNode, "", "use apiVersion: "+k.apiVersion, "no matches for kind %q in version %q", h.kind, h.apiVersion)
		return
	}
	if len(objs.Order) >= d.opts.maxObjects() {
		d.errorf(n, "", "split the file", "more than %d objects", d.opts.maxObjects())
		d.full = true
		return
	}
	d.subject = fmt.Sprintf("%s %q", h.kind, h.name)
	obj, ferrs := k.decode(d, n)
	for _, fe := range append(d.found, ferrs...) {
		if d.failedWithin(fe.path) {
			continue // already reported as a decoding error
		}
		at := fe.path
		if fe.at != "" {
			at = fe.at
		}
		p, ok := lookupPath(d.pos, at)
		if !ok {
			p = d.at(n)
		}
		msg := fe.path + ": " + fe.msg
		if fe.path == "" {
			msg = fe.msg
		}
		if fe.warning {
			sev := SeverityWarning
			if fe.note {
				sev = SeverityInfo
			}
			d.diag(p, sev, fmt.Sprintf("%s: %s", d.subject, msg), fe.hint)
			continue
		}
		d.diag(p, SeverityError, fmt.Sprintf("%s is invalid: %s", d.subject, msg), fe.hint)
	}
	if obj == nil {
		return
	}
	objs.add(obj, d.at(n))
	if objs.fieldPos != nil {
		objs.fieldPos[obj] = d.pos
	}
}

// list decodes `kind: List` (kubectl get -o yaml) and typed lists
// (PodList …): every item is an object of its own.
func (d *decoder) list(n *yaml.Node, h header, objs *Objects, depth int) {
	want := "v1"
	if k, ok := kinds[strings.TrimSuffix(h.kind, "List")]; ok && h.kind != "List" {
		want = k.apiVersion
	}
	if h.apiVersion != want {
		d.errorf(h.apiNode, "", "use apiVersion: "+want, "no matches for kind %q in version %q", h.kind, h.apiVersion)
		return
	}
	if depth >= 4 {
		d.errorf(n, "", "", "lists nested more than 4 deep")
		return
	}
	itemKind := strings.TrimSuffix(h.kind, "List")
	var items *yaml.Node
	d.fields(n, "", schemaListTop, func(key string, v *yaml.Node, _ string) {
		switch key {
		case "metadata":
			d.fields(v, "metadata", schemaListMeta, func(string, *yaml.Node, string) {})
		case "items":
			items = v
		}
	})
	if items == nil {
		return
	}
	d.seq(items, "items", func(_ int, e *yaml.Node, _ string) {
		if itemKind != "" && e.Kind == yaml.MappingNode {
			e = withDefaultHeader(e, itemKind, want)
		}
		d.object(e, objs, depth+1)
	})
}

// withDefaultHeader adds kind and apiVersion to an item of a typed list
// (the API server leaves them out of PodList items).
func withDefaultHeader(n *yaml.Node, kind, apiVersion string) *yaml.Node {
	has := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		has[n.Content[i].Value] = true
	}
	if has["kind"] && has["apiVersion"] {
		return n
	}
	c := *n
	c.Content = append([]*yaml.Node(nil), n.Content...)
	if !has["kind"] {
		c.Content = append(c.Content, scalar("kind", n), scalar(kind, n))
	}
	if !has["apiVersion"] {
		c.Content = append(c.Content, scalar("apiVersion", n), scalar(apiVersion, n))
	}
	return &c
}

func scalar(v string, at *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Line: at.Line, Column: at.Column}
}

func nearestName(s string, names []string) string {
	best, bestDist := "", 3
	for _, n := range names {
		dist := editDistance(strings.ToLower(s), strings.ToLower(n))
		if dist < bestDist {
			best, bestDist = n, dist
		}
	}
	return best
}

// failedWithin reports whether path or a field enclosing it failed to
// decode.
func (d *decoder) failedWithin(path string) bool {
	for path != "" {
		if d.failed[path] {
			return true
		}
		cut := strings.LastIndexAny(path, ".[")
		if cut < 0 {
			return false
		}
		path = path[:cut]
	}
	return false
}
