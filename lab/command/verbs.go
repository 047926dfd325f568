package command

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

type flagKind int

const (
	boolFlag flagKind = iota
	valueFlag
)

// ArgKind says what a positional argument names, for completion.
type ArgKind string

// Argument kinds for completion.
const (
	ArgNode     ArgKind = "node"
	ArgZone     ArgKind = "zone"
	ArgObject   ArgKind = "object" // KIND/NAME
	ArgPod      ArgKind = "pod"
	ArgLabel    ArgKind = "label"    // k=v or k-
	ArgTaint    ArgKind = "taint"    // k=v:Effect
	ArgClass    ArgKind = "class"    // priority class
	ArgField    ArgKind = "field"    // spread field=value
	ArgDuration ArgKind = "duration" // 30s
	ArgGate     ArgKind = "gate"     // a pod's scheduling gate
	ArgFree     ArgKind = "text"
)

type verbSpec struct {
	usage string
	help  string
	flags map[string]flagKind
	short map[string]string
	args  []ArgKind
	build func(*args) (Command, error)
}

// VerbInfo describes a verb for help screens and completion.
type VerbInfo struct {
	Name  string
	Usage string
	Help  string
	Flags []string
	Args  []ArgKind
}

var shapeFlags = map[string]flagKind{"cpu": valueFlag, "memory": valueFlag, "pods": valueFlag, "label": valueFlag, "taint": valueFlag}

func withFlags(base map[string]flagKind, extra map[string]flagKind) map[string]flagKind {
	out := map[string]flagKind{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

func shapeOf(a *args) (Shape, []KV, []TaintSpec, error) {
	var s Shape
	s.CPU, _ = a.flag("cpu")
	s.Memory, _ = a.flag("memory")
	s.Pods, _ = a.flag("pods")
	var labels []KV
	for _, l := range a.flags["label"] {
		kv, err := parseKV(l)
		if err != nil {
			return s, nil, nil, fmt.Errorf("--label %w", err)
		}
		if kv.Remove {
			return s, nil, nil, fmt.Errorf("--label %s: give key=value", l)
		}
		labels = append(labels, kv)
	}
	var ts []TaintSpec
	for _, t := range a.flags["taint"] {
		spec, err := parseTaint(t, false)
		if err != nil {
			return s, nil, nil, fmt.Errorf("--taint %w", err)
		}
		ts = append(ts, spec)
	}
	if s.Pods != "" {
		// the range of the cluster shorthand's pods (scenario_parse.go)
		if n, err := strconv.Atoi(s.Pods); err != nil || n < 1 || n > 10000 {
			return s, nil, nil, fmt.Errorf("--pods takes a whole number from 1 to 10000, not %q", s.Pods)
		}
	}
	return s, labels, ts, nil
}

var verbs = map[string]verbSpec{
	"fork": forkVerb,
	"add zone": {
		usage: "add zone NAME [--nodes N] [--cpu 4 --memory 16Gi --pods 110] [--label k=v]... [--taint k=v:Effect]...",
		help:  "add a topology zone with N nodes (labelled topology.kubernetes.io/zone=NAME)",
		flags: withFlags(shapeFlags, map[string]flagKind{"nodes": valueFlag}),
		args:  []ArgKind{ArgFree},
		build: func(a *args) (Command, error) {
			if len(a.pos) != 1 {
				return nil, fmt.Errorf("give exactly one zone name")
			}
			c := AddZone{Name: a.pos[0]}
			// a zone is a label value (the zone label's), not an object
			// name: zoneA is as valid here as in a Node's labels or the
			// cluster shorthand (a generated node name that uses {zone}
			// is checked as a name when the node is made)
			if err := checkZone(c.Name); err != nil {
				return nil, err
			}
			if v, ok := a.flag("nodes"); ok {
				// the lab's object budget bounds how many (Session.addZone)
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 {
					return nil, fmt.Errorf("--nodes takes a whole number ≥ 1, not %q", v)
				}
				c.Nodes = n
			}
			var err error
			c.Shape, c.Labels, c.Taints, err = shapeOf(a)
			return c, err
		},
	},
	"add node": {
		usage: "add node NAME --zone ZONE [--cpu 4 --memory 16Gi --pods 110] [--label k=v]... [--taint k=v:Effect]...",
		help:  "add one node to a zone",
		flags: withFlags(shapeFlags, map[string]flagKind{"zone": valueFlag}),
		args:  []ArgKind{ArgFree},
		build: func(a *args) (Command, error) {
			if len(a.pos) != 1 {
				return nil, fmt.Errorf("give exactly one node name")
			}
			c := AddNode{Name: a.pos[0]}
			if err := checkName(c.Name); err != nil {
				return nil, err
			}
			z, ok := a.flag("zone")
			if !ok || z == "" {
				return nil, fmt.Errorf("--zone is required")
			}
			if err := checkZone(z); err != nil {
				return nil, err
			}
			c.Zone = z
			var err error
			c.Shape, c.Labels, c.Taints, err = shapeOf(a)
			return c, err
		},
	},
	"remove node": {
		usage: "remove node NAME",
		help:  "remove a node; its pods are deleted (their controllers replace them)",
		args:  []ArgKind{ArgNode},
		build: func(a *args) (Command, error) {
			n, rest, err := nodeArg(a.pos)
			if err != nil {
				return nil, err
			}
			return Remove{Kind: "node", Name: n}, noMorePositional(rest)
		},
	},
	"remove zone": {
		usage: "remove zone NAME",
		help:  "remove a zone and all its nodes",
		args:  []ArgKind{ArgZone},
		build: func(a *args) (Command, error) {
			if len(a.pos) != 1 {
				return nil, fmt.Errorf("give exactly one zone name")
			}
			return Remove{Kind: "zone", Name: a.pos[0]}, checkZone(a.pos[0])
		},
	},
	"label": {
		usage: "label node NAME k=v|k- ...",
		help:  "set or remove node labels",
		args:  []ArgKind{ArgNode, ArgLabel},
		build: func(a *args) (Command, error) {
			n, rest, err := nodeArg(a.pos)
			if err != nil {
				return nil, err
			}
			if len(rest) == 0 {
				return nil, fmt.Errorf("give at least one k=v or k-")
			}
			c := Label{Node: n}
			for _, w := range rest {
				kv, err := parseKV(w)
				if err != nil {
					return nil, err
				}
				c.Labels = append(c.Labels, kv)
			}
			return c, nil
		},
	},
	"taint": {
		usage: "taint node NAME k=v:Effect|k-|k:Effect- ...",
		help:  "add or remove node taints (NoSchedule, PreferNoSchedule, NoExecute)",
		args:  []ArgKind{ArgNode, ArgTaint},
		build: func(a *args) (Command, error) {
			n, rest, err := nodeArg(a.pos)
			if err != nil {
				return nil, err
			}
			if len(rest) == 0 {
				return nil, fmt.Errorf("give at least one taint, e.g. dedicated=gpu:NoSchedule")
			}
			c := Taint{Node: n}
			for _, w := range rest {
				t, err := parseTaint(w, true)
				if err != nil {
					return nil, err
				}
				c.Taints = append(c.Taints, t)
			}
			return c, nil
		},
	},
	"cordon": {
		usage: "cordon NAME",
		help:  "mark a node unschedulable",
		args:  []ArgKind{ArgNode},
		build: func(a *args) (Command, error) {
			n, rest, err := nodeArg(a.pos)
			if err != nil {
				return nil, err
			}
			return Cordon{Node: n}, noMorePositional(rest)
		},
	},
	"uncordon": {
		usage: "uncordon NAME",
		help:  "mark a node schedulable again",
		args:  []ArgKind{ArgNode},
		build: func(a *args) (Command, error) {
			n, rest, err := nodeArg(a.pos)
			if err != nil {
				return nil, err
			}
			return Cordon{Node: n, Uncordon: true}, noMorePositional(rest)
		},
	},
	"drain": {
		usage: "drain NAME [--ignore-daemonsets] [--force] [--grace-period N] [--timeout 2m]",
		help:  "cordon a node and evict its pods through the Eviction API (PDBs can block)",
		flags: map[string]flagKind{"ignore-daemonsets": boolFlag, "force": boolFlag, "delete-emptydir-data": boolFlag, "grace-period": valueFlag, "timeout": valueFlag},
		args:  []ArgKind{ArgNode},
		build: func(a *args) (Command, error) {
			n, rest, err := nodeArg(a.pos)
			if err != nil {
				return nil, err
			}
			c := Drain{Node: n, IgnoreDaemonSets: a.has("ignore-daemonsets"), Force: a.has("force"), DeleteEmptyDir: a.has("delete-emptydir-data")}
			if v, ok := a.flag("timeout"); ok {
				if c.Timeout, err = parseDuration(v); err != nil {
					return nil, fmt.Errorf("--timeout: %w", err)
				}
			}
			if v, ok := a.flag("grace-period"); ok {
				if c.GracePeriod, err = parseGrace(v); err != nil {
					return nil, err
				}
			}
			return c, noMorePositional(rest)
		},
	},
	"scale": {
		usage: "scale deployment|statefulset|replicaset/NAME --replicas=N",
		help:  "set a workload's replica count",
		flags: map[string]flagKind{"replicas": valueFlag},
		args:  []ArgKind{ArgObject},
		build: func(a *args) (Command, error) {
			kind, name, rest, err := splitKindName(a.pos, "deployment", "statefulset", "replicaset", "replicationcontroller")
			if err != nil {
				return nil, err
			}
			v, ok := a.flag("replicas")
			if !ok {
				return nil, fmt.Errorf("--replicas is required")
			}
			// spec.replicas: an int32 ≥ 0; the lab's object budget bounds
			// what the scale may add (Session.scale)
			n, err := apiInt32("--replicas", v, 0, atLeastZero)
			if err != nil {
				return nil, err
			}
			return Scale{Kind: kind, Name: name, Replicas: n}, noMorePositional(rest)
		},
	},
	"apply": {
		usage: "apply -f FILE",
		help:  "create or update objects from a manifest file (path relative to the scenario)",
		flags: map[string]flagKind{"filename": valueFlag, "inline": valueFlag},
		short: map[string]string{"f": "filename"},
		args:  []ArgKind{ArgFree},
		build: func(a *args) (Command, error) {
			f, hasF := a.flag("filename")
			in, hasIn := a.flag("inline")
			if hasF == hasIn {
				return nil, fmt.Errorf("give -f FILE")
			}
			if hasF && f == "" {
				return nil, fmt.Errorf("-f needs a file name")
			}
			return Apply{File: f, Inline: in}, noMorePositional(a.pos)
		},
	},
	"delete": {
		usage: "delete KIND NAME [--grace-period=N] [--force] [--cascade=background|orphan|foreground]",
		help:  "delete an object; pods terminate gracefully",
		flags: map[string]flagKind{"grace-period": valueFlag, "force": boolFlag, "cascade": valueFlag, "now": boolFlag},
		args:  []ArgKind{ArgObject},
		build: func(a *args) (Command, error) {
			kind, name, rest, err := splitKindName(a.pos, "pod", "deployment", "replicaset", "replicationcontroller", "statefulset", "daemonset", "job", "cronjob", "pdb", "priorityclass", "node", "hpa")
			if err != nil {
				return nil, err
			}
			c := Delete{Kind: kind, Name: name, Force: a.has("force")}
			if v, ok := a.flag("grace-period"); ok {
				if c.GracePeriod, err = parseGrace(v); err != nil {
					return nil, err
				}
			}
			if a.has("now") {
				one := int64(1)
				c.GracePeriod = &one
			}
			if v, ok := a.flag("cascade"); ok {
				switch v {
				case "background", "orphan", "foreground":
					c.Cascade = v
				case "true":
					c.Cascade = "background"
				case "false":
					c.Cascade = "orphan"
				default:
					return nil, fmt.Errorf("--cascade must be background, orphan or foreground")
				}
			}
			return c, noMorePositional(rest)
		},
	},
	"rollout": {
		usage: "rollout restart|undo|status|pause|resume deployment/NAME [--to-revision=N]",
		help:  "manage a rollout",
		flags: map[string]flagKind{"to-revision": valueFlag},
		args:  []ArgKind{ArgFree, ArgObject},
		build: func(a *args) (Command, error) {
			if len(a.pos) == 0 {
				return nil, fmt.Errorf("give an action: restart, undo, status, pause or resume")
			}
			action := a.pos[0]
			switch action {
			case "restart", "undo", "status", "pause", "resume":
			default:
				return nil, fmt.Errorf("unknown rollout action %q: use restart, undo, status, pause or resume", action)
			}
			kind, name, rest, err := splitKindName(a.pos[1:], "deployment", "statefulset", "daemonset")
			if err != nil {
				return nil, err
			}
			c := Rollout{Action: action, Kind: kind, Name: name}
			if v, ok := a.flag("to-revision"); ok {
				if action != "undo" {
					return nil, fmt.Errorf("--to-revision goes with rollout undo")
				}
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil || n < 0 {
					return nil, fmt.Errorf("--to-revision takes a revision number, not %q", v)
				}
				c.ToRevision = n
			}
			return c, noMorePositional(rest)
		},
	},
	"set spread": {
		usage: "set spread KIND/NAME [--constraint i | --add | --remove i] maxSkew=N whenUnsatisfiable=DoNotSchedule|ScheduleAnyway topologyKey=K minDomains=N nodeAffinityPolicy=Honor|Ignore nodeTaintsPolicy=Honor|Ignore matchLabelKeys=a,b labelSelector=k=v,...",
		help:  "change a workload's topology spread constraints (triggers a rollout)",
		flags: map[string]flagKind{"constraint": valueFlag, "add": boolFlag, "remove": valueFlag},
		args:  []ArgKind{ArgObject, ArgField},
		build: func(a *args) (Command, error) {
			kind, name, rest, err := splitKindName(a.pos, "deployment", "statefulset", "replicaset", "daemonset", "pod")
			if err != nil {
				return nil, err
			}
			c := SetSpread{Kind: kind, Name: name, Add: a.has("add")}
			if v, ok := a.flag("constraint"); ok {
				if c.Index, err = strconv.Atoi(v); err != nil || c.Index < 0 {
					return nil, fmt.Errorf("--constraint takes an index (0 for the first), not %q", v)
				}
			}
			if v, ok := a.flag("remove"); ok {
				c.Delete = true
				if c.Index, err = strconv.Atoi(v); err != nil || c.Index < 0 {
					return nil, fmt.Errorf("--remove takes an index (0 for the first), not %q", v)
				}
			}
			if c.Add && (c.Delete || a.has("constraint")) {
				return nil, fmt.Errorf("--add, --remove and --constraint exclude each other")
			}
			for _, w := range rest {
				if err := setSpreadField(w, &c.Fields); err != nil {
					return nil, err
				}
			}
			if c.Fields.IsEmpty() && !c.Delete {
				return nil, fmt.Errorf("give at least one field=value")
			}
			if c.Add && c.Fields.TopologyKey == nil {
				return nil, fmt.Errorf("a new constraint needs topologyKey=…")
			}
			return c, nil
		},
	},
	"set scheduler": setSchedulerVerb, // set_scheduler.go
	"set priority": {
		usage: "set priority KIND/NAME CLASS",
		help:  "set the priorityClassName of a workload's pods (triggers a rollout)",
		args:  []ArgKind{ArgObject, ArgClass},
		build: func(a *args) (Command, error) {
			kind, name, rest, err := splitKindName(a.pos, "deployment", "statefulset", "replicaset", "daemonset", "job")
			if err != nil {
				return nil, err
			}
			if len(rest) != 1 {
				return nil, fmt.Errorf("give one priority class name")
			}
			return SetPriority{Kind: kind, Name: name, Class: rest[0]}, checkName(rest[0])
		},
	},
	"pressure": {
		usage: "pressure node NAME memory=P%|off",
		help:  "set non-pod memory use so the node's total use is P% of its capacity",
		args:  []ArgKind{ArgNode, ArgField},
		build: func(a *args) (Command, error) {
			n, rest, err := nodeArg(a.pos)
			if err != nil {
				return nil, err
			}
			if len(rest) != 1 || !strings.HasPrefix(rest[0], "memory=") {
				return nil, fmt.Errorf("give memory=P%% or memory=off")
			}
			v := strings.TrimPrefix(rest[0], "memory=")
			if v == "off" {
				return Pressure{Node: n, Off: true}, nil
			}
			p, err := parsePercent(v)
			if err != nil {
				return nil, err
			}
			return Pressure{Node: n, Percent: p}, nil
		},
	},
	"usage": {
		usage: "usage pod|deployment|statefulset|replicaset|daemonset/NAME memory=1.2Gi|150% | cpu=2|800m|80% [at 2m]",
		help:  "set modelled use: memory of a pod (or every pod of a workload); cpu of a pod, or a workload's total cpu load shared by its ready pods, now or at a virtual time; % is of the request",
		args:  []ArgKind{ArgObject, ArgField},
		build: parseUsage,
	},
	"autoscale": {
		usage: "autoscale deployment|statefulset|replicaset/NAME --max=N [--min=N] [--cpu-percent=P] [--name=HPA]",
		help:  "create a HorizontalPodAutoscaler for a workload, as kubectl autoscale",
		flags: map[string]flagKind{"min": valueFlag, "max": valueFlag, "cpu-percent": valueFlag, "name": valueFlag},
		args:  []ArgKind{ArgObject},
		build: buildAutoscale,
	},
	"advance": {
		usage: "advance DURATION",
		help:  "move virtual time forward (e.g. advance 30s)",
		args:  []ArgKind{ArgDuration},
		build: func(a *args) (Command, error) {
			if len(a.pos) != 1 {
				return nil, fmt.Errorf("give one duration, e.g. 30s")
			}
			d, err := parseDuration(a.pos[0])
			if err != nil {
				return nil, err
			}
			if d > 24*365*3600e9 {
				return nil, fmt.Errorf("advance by at most a year of virtual time")
			}
			return Advance{D: d}, nil
		},
	},
	"seed": {
		usage: "seed N",
		help:  "set the random seed used for tie-breaking from now on",
		args:  []ArgKind{ArgFree},
		build: func(a *args) (Command, error) {
			if len(a.pos) != 1 {
				return nil, fmt.Errorf("give one integer seed")
			}
			n, err := strconv.ParseInt(a.pos[0], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("seed %q: give an integer", a.pos[0])
			}
			return Seed{N: n}, nil
		},
	},
	"fail node": {
		usage: "fail node NAME [--unreachable]",
		help:  "make a node NotReady (or unreachable): the node controller taints it NoExecute",
		flags: map[string]flagKind{"unreachable": boolFlag},
		args:  []ArgKind{ArgNode},
		build: func(a *args) (Command, error) {
			n, rest, err := nodeArg(a.pos)
			if err != nil {
				return nil, err
			}
			return NodeHealth{Node: n, Fail: true, Unreachable: a.has("unreachable")}, noMorePositional(rest)
		},
	},
	"break pod":  {usage: "break pod NAME readiness|liveness", help: "make a pod's readiness or liveness probe fail from now on", args: []ArgKind{ArgPod, ArgFree}, build: buildBreakPod},
	"ungate pod": ungateVerb, // ungate.go
	"heal pod":   {usage: "heal pod NAME", help: "let a pod's probes behave as annotated again", args: []ArgKind{ArgPod}, build: buildHealPod},
	"recover node": {
		usage: "recover node NAME",
		help:  "make a failed node Ready again",
		args:  []ArgKind{ArgNode},
		build: func(a *args) (Command, error) {
			n, rest, err := nodeArg(a.pos)
			if err != nil {
				return nil, err
			}
			return NodeHealth{Node: n}, noMorePositional(rest)
		},
	},
	"autoscaler status": {
		usage: "autoscaler status",
		help:  "what the cluster autoscaler's last loop decided and why, node group by node group",
		build: func(a *args) (Command, error) { return AutoscalerStatus{}, noMorePositional(a.pos) },
	},
	"deschedule": deschedulerVerb,
	"undo": {
		usage: "undo",
		help:  "undo the last command",
		build: func(a *args) (Command, error) { return Undo{}, noMorePositional(a.pos) },
	},
	"redo": {
		usage: "redo",
		help:  "redo the last undone command",
		build: func(a *args) (Command, error) { return Redo{}, noMorePositional(a.pos) },
	},
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// VerbNames lists every verb ("add zone", "cordon", …) sorted.
func VerbNames() []string { return sortedKeys(verbs) }

// Verbs describes every verb (help overlay, completion).
func Verbs() []VerbInfo {
	var out []VerbInfo
	for _, name := range VerbNames() {
		s := verbs[name]
		out = append(out, VerbInfo{Name: name, Usage: s.usage, Help: s.help, Flags: sortedKeys(s.flags), Args: s.args})
	}
	return out
}

// SpreadFields lists the field names `set spread` accepts.
func SpreadFields() []string { return sortedKeys(spreadFields) }
