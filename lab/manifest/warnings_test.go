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
		{"unknown fields with suggestions", pod("  nodeSelecter: {a: b}\n  initContainers:\n  - name: s\n    image: i\n    restartPolicy: Always\n    resorces: {}\n    livenessProbe: {initialDelay: 5}\nfoo: bar\n"), []string{
			`t.yaml:6:3: Pod "p": unknown field "spec.nodeSelecter" (did you mean "nodeSelector"?)`,
			`t.yaml:11:5: Pod "p": unknown field "spec.initContainers[0].resorces" (did you mean "resources"?)`,
			`t.yaml:12:21: Pod "p": unknown field "spec.initContainers[0].livenessProbe.initialDelay" (did you mean "initialDelaySeconds"?)`,
			`t.yaml:13:1: Pod "p": unknown field "foo"`}},
		{"valid but unmodelled fields are silent", pod("  volumes: [{name: v, emptyDir: {}}]\n  dnsPolicy: ClusterFirst\n  securityContext: {runAsUser: 1000}\n  hostAliases: [{ip: 1.2.3.4, hostnames: [a]}]\n"), nil},
		{"other kinds are ignored", "apiVersion: v1\nkind: Service\nmetadata: {name: web}\n---\napiVersion: apps/v1\nkind: Deploymnet\nmetadata: {name: web}\n", []string{
			`t.yaml:2:7: ignored Service "web": kind not modelled by the lab`,
			`t.yaml:6:7: ignored Deploymnet "web": kind not modelled by the lab (did you mean Deployment?)`}},
		{"negative grace", pod("  terminationGracePeriodSeconds: -5\n"), []string{
			`t.yaml:6:34: Pod "p": spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1`}},
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
