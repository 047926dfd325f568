package manifest

import (
	"errors"
	"strings"
	"testing"
)

// pod wraps a spec fragment (indented two spaces) into a valid pod; the
// fragment starts on line 6.
func pod(fragment string) string {
	return "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: i}]\n" + fragment
}

// labeledPod is pod with labels app=web, version=v1 (for matchLabelKeys).
func labeledPod(fragment string) string {
	return strings.Replace(pod(fragment), "metadata: {name: p}", "metadata: {name: p, labels: {app: web, version: v1}}", 1)
}

// errorCases pins every error message: the full diagnostic lines Load
// reports, positions included.
var errorCases = []struct {
	name  string
	input string
	want  []string
}{
	// --- YAML and document structure
	{"yaml syntax", "apiVersion: v1\nkind: Pod\nspec:\n  containers: [{name: c}\n", []string{
		"t.yaml:4:1: yaml: did not find expected ',' or ']' (the list or mapping that starts on this line is not closed or is misindented)"}},
	{"yaml misindented mapping", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n   labels: {}\n", []string{
		"t.yaml:5:1: yaml: mapping values are not allowed in this context (check the indentation and quoting near this line)"}},
	{"yaml block list", "apiVersion: v1\nkind: Pod\nspec:\n  tolerations:\n    - key: a\n    operator: Exists\n", []string{
		"t.yaml:5:1: yaml: did not find expected '-' indicator (the list or mapping that starts on this line is not closed or is misindented)"}},
	{"no metadata", "apiVersion: v1\nkind: Pod\nspec: {containers: [{name: c, image: i}]}\n", []string{
		`t.yaml:1:1: Pod "" is invalid: metadata.name: Required value: name or generateName is required`}},
	{"document is a list", "- a\n- b\n", []string{
		"t.yaml:1:1: expected a Kubernetes object, got a list (a manifest document is a mapping with apiVersion, kind and metadata)"}},
	// a file that is not YAML (apply -f /etc/passwd) is one long string:
	// it is not echoed
	{"document is text", "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n", []string{
		"t.yaml:1:1: expected a Kubernetes object, got text of 79 characters: this is not a Kubernetes manifest (a manifest document is a mapping with apiVersion, kind and metadata)"}},
	{"document is a short string", "hello\n", []string{
		`t.yaml:1:1: expected a Kubernetes object, got "hello" (a manifest document is a mapping with apiVersion, kind and metadata)`}},
	{"kind missing", "apiVersion: v1\nmetadata: {name: p}\n", []string{
		"t.yaml:1:1: Object 'Kind' is missing (add e.g. kind: Pod)"}},
	{"apiVersion missing", "kind: Pod\nmetadata: {name: p}\n", []string{
		"t.yaml:1:1: Pod: Object 'apiVersion' is missing (add apiVersion: v1)"}},
	{"wrong apiVersion", "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: d}\n", []string{
		`t.yaml:1:13: no matches for kind "Deployment" in version "extensions/v1beta1" (use apiVersion: apps/v1)`}},
	{"wrong apiVersion of a list", "apiVersion: v2\nkind: List\nitems: []\n", []string{
		`t.yaml:1:13: no matches for kind "List" in version "v2" (use apiVersion: v1)`}},
	{"duplicate field", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nmetadata: {name: q}\nspec: {containers: [{name: c, image: i}]}\n", []string{
		`t.yaml:4:1: Pod "p": metadata: duplicate field "metadata" (first at line 3) (remove one of them)`}},
	{"duplicate object", pod("") + "---\n" + pod(""), []string{
		`t.yaml:7:1: Pod "default/p" already exists (first defined at t.yaml:1:1) (object names are unique per kind and namespace; rename one)`}},
	{"alias cycle", "a: &a [*a]\n", []string{
		"t.yaml:1:4: alias refers to a node that contains it (an anchor cannot be used inside itself)"}},

	// --- scalar types
	{"string expected", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {version: 1}}\nspec: {containers: [{name: c, image: i}]}\n", []string{
		`t.yaml:3:39: Pod "p": metadata.labels[version]: expected a string, got number 1 (quote it: "1")`}},
	{"integer expected", pod("  priority: \"5\"\n"), []string{
		`t.yaml:6:13: Pod "p": spec.priority: expected an integer, got "5" (remove the quotes)`}},
	{"integer out of range", pod("  priority: 3000000000\n"), []string{
		`t.yaml:6:13: Pod "p": spec.priority: integer 3000000000 is out of range [-2147483648, 2147483647]`}},
	{"boolean expected", pod("  hostNetwork: maybe\n"), []string{
		`t.yaml:6:16: Pod "p": spec.hostNetwork: expected a boolean, got "maybe" (use true or false)`}},
	{"YAML 1.1 boolean where a string belongs", "apiVersion: v1\nkind: Node\nmetadata: {name: n, labels: {enabled: yes, quoted: \"no\"}}\n", []string{
		`t.yaml:3:18: Node "n": metadata.name: expected a string, got boolean n (YAML 1.1, which Kubernetes reads) (quote it: "n")`,
		`t.yaml:3:39: Node "n": metadata.labels[enabled]: expected a string, got boolean yes (YAML 1.1, which Kubernetes reads) (quote it: "yes")`}},
	{"mapping expected", pod("  nodeSelector: [a]\n"), []string{
		`t.yaml:6:17: Pod "p": spec.nodeSelector: expected a mapping, got a list`}},
	{"list expected", pod("  tolerations: {key: a}\n"), []string{
		`t.yaml:6:16: Pod "p": spec.tolerations: expected a list, got a mapping`}},
	{"bad quantity", pod("  overhead: {cpu: lots}\n"), []string{
		`t.yaml:6:19: Pod "p": spec.overhead[cpu]: quantity "lots": must start with a number (e.g. 500m, 1.5, 128Mi, 2Gi)`}},
	{"bad timestamp", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, creationTimestamp: yesterday}\nspec: {containers: [{name: c, image: i}]}\n", []string{
		`t.yaml:3:40: Pod "p": metadata.creationTimestamp: invalid timestamp "yesterday" (use RFC 3339, e.g. 2024-05-01T12:00:00Z)`}},
	{"intOrString expected", "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: b}\nspec: {minAvailable: [1]}\n", []string{
		`t.yaml:4:22: PodDisruptionBudget "b": spec.minAvailable: expected an integer or a string, got a list (e.g. 1 or "25%")`}},
}

func TestErrorMessages(t *testing.T) {
	for _, tc := range errorCases {
		t.Run(tc.name, func(t *testing.T) {
			objs, err := Load("t.yaml", []byte(tc.input), Options{})
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Load succeeded (%v), want errors:\n%s", objs, strings.Join(tc.want, "\n"))
			}
			if got := e.Error(); got != strings.Join(tc.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", got, strings.Join(tc.want, "\n"))
			}
			for _, d := range e.Diagnostics {
				if d.Line < 1 || d.Col < 1 || d.File != "t.yaml" || d.Severity != SeverityError {
					t.Errorf("diagnostic without a position or severity: %+v", d)
				}
			}
		})
	}
}

func TestErrorCarriesWarnings(t *testing.T) {
	_, err := Load("t.yaml", []byte(pod("  priority: x\n  nodeSelecter: {a: b}\n")), Options{})
	var e *Error
	if !errors.As(err, &e) || len(e.Warnings) != 1 || !strings.Contains(e.Warnings[0].String(), `unknown field "spec.nodeSelecter"`) {
		t.Fatalf("err = %v, warnings %v", err, e)
	}
	if strings.Contains(e.Error(), "nodeSelecter") {
		t.Errorf("warnings leaked into Error(): %s", e.Error())
	}
}

func TestValidationMessages(t *testing.T) {
	for _, tc := range validationCases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load("t.yaml", []byte(tc.input), Options{})
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Load succeeded, want errors:\n%s", strings.Join(tc.want, "\n"))
			}
			if got := e.Error(); got != strings.Join(tc.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", got, strings.Join(tc.want, "\n"))
			}
		})
	}
}
