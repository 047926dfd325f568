package manifest

import (
	"strings"
	"testing"
)

func TestWarnings(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string
	}{
		{"unknown fields with suggestions", pod("  nodeSelecter: {a: b}\n  initContainers:\n  - name: s\n    image: i\n    restartPolicy: Always\n    resorces: {}\n    livenessProbe: {tcpSocket: {port: 80}, initialDelay: 5}\nfoo: bar\n"), []string{
			`t.yaml:6:3: Pod "p": unknown field "spec.nodeSelecter" (did you mean "nodeSelector"?)`,
			`t.yaml:11:5: Pod "p": unknown field "spec.initContainers[0].resorces" (did you mean "resources"?)`,
			`t.yaml:12:44: Pod "p": unknown field "spec.initContainers[0].livenessProbe.initialDelay" (did you mean "initialDelaySeconds"?)`,
			`t.yaml:13:1: Pod "p": unknown field "foo"`}},
		{"valid but unmodelled fields are silent", pod("  volumes: [{name: v, emptyDir: {}}]\n  dnsPolicy: ClusterFirst\n  securityContext: {runAsUser: 1000}\n  hostAliases: [{ip: 1.2.3.4, hostnames: [a]}]\n"), nil},
		{"other kinds are ignored", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n---\napiVersion: apps/v1\nkind: Deploymnet\nmetadata: {name: web}\n", []string{
			`t.yaml:2:7: ignored ConfigMap "web": kind not modelled by the lab`,
			`t.yaml:6:7: ignored Deploymnet "web": kind not modelled by the lab (did you mean Deployment?)`}},
		{"negative grace", pod("  terminationGracePeriodSeconds: -5\n"), []string{
			`t.yaml:6:34: Pod "p": spec.terminationGracePeriodSeconds: -5 is converted to 1 by the API server`}},
		{"negative grace in a template", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec:\n      terminationGracePeriodSeconds: -3\n      containers: [{name: c, image: i}]\n", []string{
			`t.yaml:9:38: Deployment "d": spec.template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1`}},
		{"API server warnings", "apiVersion: v1\nkind: Pod\nmetadata: {name: web.v1}\nspec:\n  containers: [{name: c, image: i, resources: {requests: {memory: 1500m}}}]\n  nodeSelector: {beta.kubernetes.io/os: linux}\n  topologySpreadConstraints: [{maxSkew: 1, topologyKey: failure-domain.beta.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway}]\n  affinity:\n    nodeAffinity:\n      preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, preference: {matchExpressions: [{key: a, operator: In, values: [\"x y\"]}]}}]\n    podAntiAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: zone}]\n", []string{
			`t.yaml:3:18: Pod "web.v1": metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]`,
			`t.yaml:6:18: Pod "web.v1": spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead`,
			`t.yaml:10:133: Pod "web.v1": spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values[0]: x y is invalid, a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
			`t.yaml:7:57: Pod "web.v1": spec.topologySpreadConstraints[0].topologyKey: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead`,
			`t.yaml:7:31: Pod "web.v1": spec.topologySpreadConstraints[0].labelSelector: a null labelSelector results in matching no pod (add labelSelector: {matchLabels: …} matching the pods to spread)`,
			`t.yaml:12:56: Pod "web.v1": spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector: a null labelSelector results in matching no pod`,
			`t.yaml:5:67: Pod "web.v1": spec.containers[0].resources.requests[memory]: fractional byte value "1500m" is invalid, must be an integer (memory is counted in bytes; did you mean Mi or M instead of m?)`}},
		{"managedFields summarised", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n  managedFields: [{manager: x}, {manager: y}]\n", []string{
			`t.yaml:1:1: ignored 2 managedFields entries`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := Load("t.yaml", []byte(tt.input), Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range objs.Warnings {
				got = append(got, w.String())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestNegativeGraceBecomesOne(t *testing.T) {
	objs, err := Load("t.yaml", []byte(pod("  terminationGracePeriodSeconds: -5\n")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g := *objs.Pods[0].Spec.TerminationGracePeriodSeconds; g != 1 {
		t.Errorf("grace = %d, want 1", g)
	}
}

func TestWarningCap(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 5; i++ {
		b.WriteString(strings.Replace(pod("  bogus: 1\n"), "name: p", "name: p"+string(rune('a'+i)), 1) + "---\n")
	}
	objs, err := Load("t.yaml", []byte(b.String()), Options{MaxWarnings: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(objs.Warnings) != 3 || objs.Warnings[2].String() != "t.yaml:1:1: 3 more warnings not shown" || objs.Warnings[2].Severity != SeverityInfo {
		t.Errorf("warnings: %v", objs.Warnings)
	}
}
