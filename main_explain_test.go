package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// explain and schedule on a file whose pods come from workloads: explain
// runs the lab and explains the pending pod; schedule says why it has no
// line to print and where to look instead.
func TestExplainAndScheduleWorkloadFile(t *testing.T) {
	path := "testdata/workloads/deployment-only.yaml"
	note := "deployment-only.yaml has no bare pending pods (pods without spec.nodeName); workloads create their pods when the lab runs: see `podlab run -f " + path + "` or `podlab explain -f " + path + "`\n"
	tests := []struct {
		args           []string
		code           int
		stdout, stderr string // regexps
	}{
		{[]string{"explain", "-f", path}, 0, `^running lab at 0s: default/web-\S+, the only pending pod\npod default/web-\S+ · priority 0 · 1 node\n0/1 nodes are available: 1 Insufficient cpu\.\n`, `^$`},
		{[]string{"explain", "-f", path, "--pod", "deployment/web", "-o", "json"}, 0, `"message": "0/1 nodes are available: 1 Insufficient cpu\.",\n  "at": "0s",\n  "workload": "deployment/web"\n}\n$`, `^$`},
		{[]string{"explain", "-f", path, "--do", "scale deployment/web --replicas=5", "--at", "30s"}, 0, `^running lab at 30s: default/web-\S+, the first of 3 pending pods\n`, `^$`},
		{[]string{"explain", "-f", path, "--do", "add node n2 --zone a"}, 2, `^$`, `^podlab explain: no pod is pending at 0s; try a later instant with --at`},
		{[]string{"explain", "-f", path, "--at", "-1s"}, 2, `^$`, `--at -1s: must be greater than or equal to 0`},
		{[]string{"schedule", "-f", path}, 0, "^" + regexp.QuoteMeta(note) + "$", `^$`},
		{[]string{"schedule", "-f", path, "-o", "json"}, 0, `^$`, "^" + regexp.QuoteMeta(note) + "$"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[3:], " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, strings.NewReader(""), &stdout, &stderr)
			if code != tt.code || !regexp.MustCompile(tt.stdout).MatchString(stdout.String()) || !regexp.MustCompile(tt.stderr).MatchString(stderr.String()) {
				t.Errorf("exit %d (want %d)\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout.String(), stderr.String())
			}
		})
	}
}

// schedule on a file of bare pods prints their placements and no note,
// even though placing them binds every one.
func TestScheduleBarePodsNoNote(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"schedule", "-f", "testdata/spread/single-constraint.yaml"}, strings.NewReader(""), &stdout, &stderr)
	if code != 0 || !strings.HasPrefix(stdout.String(), "default/mypod") || strings.Count(stdout.String(), "\n") != 1 || stderr.Len() != 0 {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
}
