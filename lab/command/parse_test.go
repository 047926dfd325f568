package command

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func i64(v int64) *int64   { return &v }
func i32(v int32) *int32   { return &v }
func str(v string) *string { return &v }

func TestParseVerbs(t *testing.T) {
	cases := []struct {
		line string
		want Command
	}{
		{"add zone zone-d --nodes 3 --cpu 8 --memory 32Gi --pods 110 --label tier=gold",
			AddZone{Name: "zone-d", Nodes: 3, Shape: Shape{CPU: "8", Memory: "32Gi", Pods: "110"}, Labels: []KV{{Key: "tier", Value: "gold"}}}},
		{"add zone z1 --taint=dedicated=gpu:NoSchedule",
			AddZone{Name: "z1", Taints: []TaintSpec{{Key: "dedicated", Value: "gpu", Effect: "NoSchedule"}}}},
		{"add node node-7 --zone zone-a", AddNode{Name: "node-7", Zone: "zone-a"}},
		{"remove node node-1", Remove{Kind: "node", Name: "node-1"}},
		{"remove zone zone-c", Remove{Kind: "zone", Name: "zone-c"}},
		// zones are label values: upper case and '_' as in a Node's labels
		{"add zone Zone_A --nodes 2", AddZone{Name: "Zone_A", Nodes: 2}},
		{"remove zone zoneB", Remove{Kind: "zone", Name: "zoneB"}},
		{"add node node-9 --zone zoneA", AddNode{Name: "node-9", Zone: "zoneA"}},
		{"label node node-1 disk=ssd gpu-", Label{Node: "node-1", Labels: []KV{{Key: "disk", Value: "ssd"}, {Key: "gpu", Remove: true}}}},
		{"label node/node-1 disk=ssd", Label{Node: "node-1", Labels: []KV{{Key: "disk", Value: "ssd"}}}},
		{"taint node node-2 dedicated=gpu:NoSchedule spot- x:NoExecute-",
			Taint{Node: "node-2", Taints: []TaintSpec{{Key: "dedicated", Value: "gpu", Effect: "NoSchedule"}, {Key: "spot", Remove: true}, {Key: "x", Effect: "NoExecute", Remove: true}}}},
		{"cordon node-5", Cordon{Node: "node-5"}},
		{"cordon ip-10-0-1-7.eu-west-1.compute.internal", Cordon{Node: "ip-10-0-1-7.eu-west-1.compute.internal"}},
		// a part longer than 63 is a valid object name (IsDNS1123Subdomain)
		{"delete pod default/web-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", Delete{Kind: "pod", Name: "default/web-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}},
		{"uncordon node/node-5", Cordon{Node: "node-5", Uncordon: true}},
		{"drain node-2 --ignore-daemonsets --timeout 2m", Drain{Node: "node-2", IgnoreDaemonSets: true, Timeout: 2 * time.Minute}},
		{"drain node-2 --force --grace-period=10", Drain{Node: "node-2", Force: true, GracePeriod: i64(10)}},
		{"scale deployment/web --replicas=6", Scale{Kind: "deployment", Name: "web", Replicas: 6}},
		{"scale deploy web --replicas 0", Scale{Kind: "deployment", Name: "web", Replicas: 0}},
		{"scale sts/db --replicas=3", Scale{Kind: "statefulset", Name: "db", Replicas: 3}},
		{"apply -f extra.yaml", Apply{File: "extra.yaml"}},
		{"delete pod web-1 --grace-period=0 --force", Delete{Kind: "pod", Name: "web-1", GracePeriod: i64(0), Force: true}},
		{"delete deployment/web --cascade=orphan", Delete{Kind: "deployment", Name: "web", Cascade: "orphan"}},
		{"delete po web-1 --now", Delete{Kind: "pod", Name: "web-1", GracePeriod: i64(1)}},
		{"delete pod default/p1", Delete{Kind: "pod", Name: "default/p1"}},
		{"delete pod/kube-system/dns-1 --force", Delete{Kind: "pod", Name: "kube-system/dns-1", Force: true}},
		{"scale deployment/team-a/web --replicas=2", Scale{Kind: "deployment", Name: "team-a/web", Replicas: 2}},
		{"rollout restart deployment/web", Rollout{Action: "restart", Kind: "deployment", Name: "web"}},
		{"rollout undo deployment/web --to-revision=2", Rollout{Action: "undo", Kind: "deployment", Name: "web", ToRevision: 2}},
		{"set spread deployment/web maxSkew=2 whenUnsatisfiable=ScheduleAnyway minDomains=3",
			SetSpread{Kind: "deployment", Name: "web", Fields: SpreadPatch{MaxSkew: i32(2), WhenUnsatisfiable: str("ScheduleAnyway"), MinDomains: i32(3)}}},
		{"set spread deployment/web --constraint 1 nodeTaintsPolicy=Honor",
			SetSpread{Kind: "deployment", Name: "web", Index: 1, Fields: SpreadPatch{NodeTaintsPolicy: str("Honor")}}},
		{"set spread deployment/web --add topologyKey=kubernetes.io/hostname maxSkew=1",
			SetSpread{Kind: "deployment", Name: "web", Add: true, Fields: SpreadPatch{TopologyKey: str("kubernetes.io/hostname"), MaxSkew: i32(1)}}},
		{"set spread deployment/web matchLabelKeys= labelSelector=b=2,a=1 maxSkew=1 maxSkew=4",
			SetSpread{Kind: "deployment", Name: "web", Fields: SpreadPatch{MatchLabelKeys: []string{}, LabelSelector: map[string]string{"a": "1", "b": "2"}, MaxSkew: i32(4)}}},
		{"set spread deployment/web --remove 0", SetSpread{Kind: "deployment", Name: "web", Delete: true}},
		{"set priority deployment/web high", SetPriority{Kind: "deployment", Name: "web", Class: "high"}},
		{"pressure node node-4 memory=90%", Pressure{Node: "node-4", Percent: 90}},
		{"pressure node node-4 memory=off", Pressure{Node: "node-4", Off: true}},
		{"usage pod/batch-1 memory=1.2Gi", Usage{Kind: "pod", Name: "batch-1", Memory: "1.2Gi"}},
		{"usage deployment web memory=150%", Usage{Kind: "deployment", Name: "web", Memory: "150%"}},
		{"usage pod/web-0 cpu=250m", Usage{Kind: "pod", Name: "web-0", CPU: "250m"}},
		{"usage deployment/web cpu=80%", Usage{Kind: "deployment", Name: "web", CPU: "80%"}},
		{"usage deployment/web cpu=3 at 2m", Usage{Kind: "deployment", Name: "web", CPU: "3", At: durp(2 * time.Minute)}},
		{"autoscale deployment/web --min=2 --max=10 --cpu-percent=50", Autoscale{Kind: "deployment", Name: "web", Min: 2, Max: 10, CPUPercent: 50}},
		{"autoscale sts/db --max=3", Autoscale{Kind: "statefulset", Name: "db", Max: 3}},
		{"advance 30s", Advance{D: 30 * time.Second}},
		{"advance 1m30s", Advance{D: 90 * time.Second}},
		{"advance 45", Advance{D: 45 * time.Second}},
		{"seed 42", Seed{N: 42}},
		{"seed -3", Seed{N: -3}},
		{"fail node node-3 --unreachable", NodeHealth{Node: "node-3", Fail: true, Unreachable: true}},
		{"recover node node-3", NodeHealth{Node: "node-3"}},
		{"break pod web-0 readiness", ProbeFault{Pod: "web-0", Probe: "readiness"}},
		{"break pod pod/db-1 liveness", ProbeFault{Pod: "db-1", Probe: "liveness"}},
		{"heal pod web-0", ProbeFault{Pod: "web-0", Heal: true}},
		{"ungate pod test-pod", Ungate{Pod: "test-pod"}},
		{"ungate pod pod/test-pod example.com/foo example.com/bar", Ungate{Pod: "test-pod", Gates: []string{"example.com/foo", "example.com/bar"}}},
		// NAMESPACE/NAME, as the lookup asks for a pod in several namespaces
		{"ungate pod team-a/p x.io/g", Ungate{Pod: "team-a/p", Gates: []string{"x.io/g"}}},
		{"ungate pod pod/team-a/p", Ungate{Pod: "team-a/p"}},
		{"break pod team-a/web-0 readiness", ProbeFault{Pod: "team-a/web-0", Probe: "readiness"}},
		{"scale rc/web --replicas=2", Scale{Kind: "replicationcontroller", Name: "web", Replicas: 2}},
		{"undo", Undo{}},
		{"  Redo  ", Redo{}},
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			got, err := Parse(c.line)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %#v\nwant %#v", got, c.want)
			}
			// canonical form parses back to the same command
			again, err := Parse(got.String())
			if err != nil {
				t.Fatalf("re-parse of %q: %v", got.String(), err)
			}
			if !reflect.DeepEqual(again, got) {
				t.Fatalf("round trip %q: got %#v", got.String(), again)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ line, want string }{
		{"", "empty command"},
		{"frobnicate", `unknown command "frobnicate"; commands are: add node, add zone, advance,`},
		{"add", "add what?"},
		{"break", "break what?"},
		{"break pod web", "which probe? give readiness or liveness"},
		{"break pod web startup", `probe "startup": give readiness or liveness`},
		{"heal pod deployment/web", `"deployment/web" is not a pod`},
		{"ungate pod", "missing pod name"},
		{"ungate pod web Bad/Gate!", `scheduling gate "Bad/Gate!": give a qualified name`},
		{"ungate pod web a a", `scheduling gate "a" given twice`},
		{"ungate pod deployment/web", `"deployment/web" is not a pod`},
		{"ungate pod Team/p", `namespace: invalid name "Team"`},
		{"ungate pod a/b/c", `invalid name "b/c"`},
		{"add pod x", `unknown command "add"`},
		{"add zone", "give exactly one zone name"},
		{"add zone zone_", `zone label value "zone_"`},
		{"remove zone zone.", `zone label value "zone."`},
		{"add node n9 --zone zone/a", `zone label value "zone/a"`},
		{"add zone z --nodes 0", "--nodes takes a whole number ≥ 1"},
		{"add zone z --nodes", "--nodes needs a value"},
		{"add zone z --bogus", "unknown flag --bogus; flags are --cpu, --label, --memory, --nodes, --pods, --taint"},
		{"add zone z --taint gpu", "needs an effect"},
		{"add zone z --taint a=b:Sometimes", `taint effect "Sometimes"`},
		{"add zone z --pods many", `--pods takes a whole number from 1 to 10000, not "many"`},
		{"add node n1", "--zone is required"},
		{"label node n1", "give at least one k=v or k-"},
		{"label node n1 =x", `"=x": expected key=value`},
		{"label node n1 a=b=c", `label value "b=c"`},
		{"taint node n1", "give at least one taint"},
		{"taint node n1 k=v-", "to remove a taint give key- or key:Effect-"},
		{"cordon", "missing node name"},
		{"cordon a b", `unexpected "b"`},
		{"drain n1 --timeout soon", `--timeout: bad duration "soon"`},
		{"drain n1 --grace-period=x", "--grace-period takes whole seconds"},
		{"drain n1 --grace-period=-5", "must be ≥ 0"},
		{"scale deployment/web", "--replicas is required"},
		{"scale deployment/web --replicas=-1", "--replicas: Invalid value: -1: must be greater than or equal to 0"},
		{"scale pod/web --replicas=1", "pod is not allowed here; kinds here are deployment, statefulset, replicaset"},
		{"scale widget/web --replicas=1", `unknown kind "widget"`},
		{"scale web --replicas=1", `missing name after "web"`},
		{"apply", "give -f FILE"},
		{"delete pod", `missing name after "pod"`},
		{"delete pod x --cascade=maybe", "--cascade must be background, orphan or foreground"},
		{"delete node zone/n1", `invalid name "zone/n1": a node has no namespace`},
		{"delete pod Default/p1", `namespace: invalid name "Default"`},
		{"delete pod default/p1/x", `invalid name "p1/x"`},
		{"delete pod /p1", "namespace: empty name"},
		{"add node a..b --zone z", `invalid name "a..b": each '.'-separated part must be non-empty and start and end with a letter or digit`},
		{"cordon node-1.-x", `invalid name "node-1.-x"`},
		{"delete pod default/web.-1", `invalid name "web.-1"`},
		{"delete pod a-.b/p1", `namespace: invalid name "a-.b"`},
		{"rollout", "give an action"},
		{"rollout jump deployment/web", `unknown rollout action "jump"`},
		{"rollout restart deployment/web --to-revision=2", "--to-revision goes with rollout undo"},
		{"set spread deployment/web", "give at least one field=value"},
		{"set spread deployment/web maxSkew=0", `maxSkew: Invalid value: 0: must be greater than zero`},
		{"set spread deployment/web skew=1", `unknown spread field "skew"; fields are labelSelector, matchLabelKeys, maxSkew`},
		{"set spread deployment/web whenUnsatisfiable=Maybe", "whenUnsatisfiable must be DoNotSchedule or ScheduleAnyway"},
		{"set spread deployment/web --add maxSkew=1", "a new constraint needs topologyKey"},
		{"set spread deployment/web --add --remove 1 topologyKey=zone", "exclude each other"},
		{"set priority deployment/web", "give one priority class name"},
		{"set colour red", `unknown command "set"`},
		{"pressure node n1", "give memory=P% or memory=off"},
		{"pressure node n1 memory=120%", "between 0% and 100%"},
		{"pressure node n1 memory=90", `"90": give a percentage like 90%`},
		{"usage pod/x cpu=1 at 2m", "at schedules a workload's cpu load"},
		{"usage pod/x", "give memory=QUANTITY|P% or cpu=QUANTITY|P%"},
		{"usage deployment/web memory=1Gi at 2m", "at schedules a cpu load change"},
		{"usage daemonset/ds cpu=1", "cpu use is modelled for pods, deployments"},
		{"autoscale deployment/web --min=2", "--max is required"},
		{"autoscale deployment/web --min=5 --max=2", "--max (2) must be greater than or equal to --min (5)"},
		{"autoscale daemonset/web --max=2", "daemonset is not allowed here"},
		{"usage pod/x memory=", "memory= needs a value"},
		{"advance", "give one duration"},
		{"advance -5s", "must not be negative"},
		{"advance 100000h", "at most a year"},
		{"advance 10000000000", `duration "10000000000" is too long`},
		{"seed x", `seed "x": give an integer`},
		{"undo now", `unexpected "now"`},
		{`label node n1 "a=b`, "unterminated \" quote"},
		{`cordon n1\`, "line ends with a backslash"},
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			_, err := Parse(c.line)
			if err == nil {
				t.Fatalf("no error; want %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not contain %q", err.Error(), c.want)
			}
		})
	}
}

func TestUsageInErrors(t *testing.T) {
	_, err := Parse("scale deployment/web")
	if err == nil || !strings.Contains(err.Error(), "(usage: scale deployment|statefulset|replicaset/NAME --replicas=N)") {
		t.Fatalf("usage missing: %v", err)
	}
}

func TestVerbsDescribed(t *testing.T) {
	for _, v := range Verbs() {
		if v.Usage == "" || v.Help == "" {
			t.Errorf("verb %q lacks usage or help", v.Name)
		}
		if !strings.HasPrefix(v.Usage, v.Name) && !strings.HasPrefix(v.Usage, strings.Fields(v.Name)[0]) {
			t.Errorf("usage of %q does not start with the verb: %q", v.Name, v.Usage)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"add zone z --nodes 3", "taint node n k=v:NoSchedule", "set spread deployment/web maxSkew=2",
		"delete pod x --grace-period=0 --force", "advance 30s", "label node n 'a=b c'", `drain "n1" --timeout=2m`,
		// numbers at the ends of their fields' ranges (issue 17)
		"set spread deployment/web maxSkew=2147483648", "delete pod p1 --grace-period=9223372036854775807",
		"scale deployment/web --replicas=2147483647", "advance 8760h", "usage pod/p memory=1e30%",
		"autoscale deployment/web --max=2147483647 --min=1 --cpu-percent=99999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		cmd, err := Parse(line)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		again, err := Parse(cmd.String())
		if err != nil {
			t.Fatalf("canonical form %q of %q does not parse: %v", cmd.String(), line, err)
		}
		if !reflect.DeepEqual(again, cmd) {
			t.Fatalf("round trip of %q via %q: %#v != %#v", line, cmd.String(), again, cmd)
		}
	})
}

func durp(d time.Duration) *time.Duration { return &d }
