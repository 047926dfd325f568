package check

import (
	"fmt"
	"sort"
	"strings"
)

// Func describes a function checks may call.
type Func struct {
	Name    string
	Usage   string
	Help    string
	Returns ValueKind
	// MinArgs/MaxArgs bound the argument count (MaxArgs -1: unbounded).
	MinArgs, MaxArgs int
	// First, when set, is the shape the first argument must have.
	First func(Arg) error
}

func ref(kinds ...string) func(Arg) error {
	return func(a Arg) error {
		if a.Kind != ArgRef {
			return fmt.Errorf("expected %s/NAME, got %s", kinds[0], a.String())
		}
		for _, k := range kinds {
			if a.RefKind == k {
				return nil
			}
		}
		return fmt.Errorf("expected %s, got %s", strings.Join(kinds, "/NAME or ")+"/NAME", a.String())
	}
}

func refOrWord(word string, kinds ...string) func(Arg) error {
	r := ref(kinds...)
	return func(a Arg) error {
		if a.Kind == ArgWord && a.Word == word {
			return nil
		}
		if err := r(a); err != nil {
			return fmt.Errorf("expected %s or %s/NAME, got %s", word, kinds[0], a.String())
		}
		return nil
	}
}

var workloads = []string{"deployment", "statefulset", "replicaset", "daemonset", "job"}

var funcs = map[string]Func{
	"skew":          {Usage: "skew(deployment/NAME, zone|hostname|LABEL-KEY)", Help: "max − min matching pods over the topology domains (the skew the spread panel shows)", Returns: Num, MinArgs: 2, MaxArgs: 2, First: ref(workloads...)},
	"pending":       {Usage: "pending(deployment/NAME | pods[, k=v…])", Help: "number of pods not yet scheduled", Returns: Num, MinArgs: 1, MaxArgs: -1, First: refOrWord("pods", workloads...)},
	"running":       {Usage: "running(deployment/NAME | pods[, k=v…])", Help: "number of running pods", Returns: Num, MinArgs: 1, MaxArgs: -1, First: refOrWord("pods", workloads...)},
	"ready":         {Usage: "ready(deployment/NAME)", Help: "number of ready pods of a workload", Returns: Num, MinArgs: 1, MaxArgs: 1, First: ref(workloads...)},
	"replicas":      {Usage: "replicas(deployment/NAME)", Help: "the workload's desired replicas", Returns: Num, MinArgs: 1, MaxArgs: 1, First: ref(workloads...)},
	"count":         {Usage: "count(pods|nodes[, k=v…, zone=Z, node=N, phase=P])", Help: "number of pods or nodes matching every filter", Returns: Num, MinArgs: 1, MaxArgs: -1, First: word("pods", "nodes")},
	"evicted":       {Usage: "evicted(pod/NAME)", Help: "the pod was evicted (kubelet, drain or taint manager)", Returns: Bool, MinArgs: 1, MaxArgs: 1, First: ref("pod")},
	"preempted":     {Usage: "preempted(pod/NAME)", Help: "the pod was preempted by the scheduler", Returns: Bool, MinArgs: 1, MaxArgs: 1, First: ref("pod")},
	"terminating":   {Usage: "terminating(pod/NAME)", Help: "the pod is terminating", Returns: Bool, MinArgs: 1, MaxArgs: 1, First: ref("pod")},
	"scheduled":     {Usage: "scheduled(pod/NAME)", Help: "the pod has a node", Returns: Bool, MinArgs: 1, MaxArgs: 1, First: ref("pod")},
	"exists":        {Usage: "exists(KIND/NAME)", Help: "the object exists", Returns: Bool, MinArgs: 1, MaxArgs: 1, First: ref("pod", "node", "deployment", "statefulset", "replicaset", "daemonset", "job", "pdb")},
	"node":          {Usage: "node(pod/NAME)", Help: "the pod's node (\"\" if none)", Returns: Str, MinArgs: 1, MaxArgs: 1, First: ref("pod")},
	"nominated":     {Usage: "nominated(pod/NAME)", Help: "the pod's nominated node (\"\" if none)", Returns: Str, MinArgs: 1, MaxArgs: 1, First: ref("pod")},
	"phase":         {Usage: "phase(pod/NAME)", Help: "Pending, Running, Succeeded, Failed (Gone once deleted)", Returns: Str, MinArgs: 1, MaxArgs: 1, First: ref("pod")},
	"status":        {Usage: "status(pod/NAME)", Help: "the STATUS kubectl get pods shows: Pending, SchedulingGated, ContainerCreating, Running, CrashLoopBackOff, Completed, Terminating… (Gone once deleted)", Returns: Str, MinArgs: 1, MaxArgs: 1, First: ref("pod")},
	"gates":         {Usage: "gates(pod/NAME)", Help: "number of the pod's scheduling gates (spec.schedulingGates; 0 once deleted)", Returns: Num, MinArgs: 1, MaxArgs: 1, First: ref("pod")},
	"reason":        {Usage: "reason(pod/NAME)", Help: "status reason (e.g. Evicted)", Returns: Str, MinArgs: 1, MaxArgs: 1, First: ref("pod")},
	"zone":          {Usage: "zone(node/NAME | pod/NAME)", Help: "the zone of a node, or of a pod's node", Returns: Str, MinArgs: 1, MaxArgs: 1, First: ref("node", "pod")},
	"label":         {Usage: "label(node/NAME | pod/NAME, KEY)", Help: "a label's value (\"\" if unset)", Returns: Str, MinArgs: 2, MaxArgs: 2, First: ref("node", "pod")},
	"cordoned":      {Usage: "cordoned(node/NAME)", Help: "the node is unschedulable", Returns: Bool, MinArgs: 1, MaxArgs: 1, First: ref("node")},
	"tainted":       {Usage: "tainted(node/NAME[, KEY])", Help: "the node has any taint (or one with KEY)", Returns: Bool, MinArgs: 1, MaxArgs: 2, First: ref("node")},
	"pressure":      {Usage: "pressure(node/NAME)", Help: "the node reports MemoryPressure", Returns: Bool, MinArgs: 1, MaxArgs: 1, First: ref("node")},
	"events":        {Usage: "events(REASON[, KIND/NAME])", Help: "number of events with that reason (for that object)", Returns: Num, MinArgs: 1, MaxArgs: 2, First: anyWord},
	"restarts":      {Usage: "restarts(pod/NAME | deployment/NAME)", Help: "container restarts (init containers included) of a pod, or summed over a workload's pods", Returns: Num, MinArgs: 1, MaxArgs: 1, First: ref(append([]string{"pod"}, workloads...)...)},
	"time":          {Usage: "time()", Help: "virtual seconds since the start", Returns: Num, MinArgs: 0, MaxArgs: 0},
	"max_over_time": {Usage: "max_over_time(pending(deployment/NAME) | running(…) | skew(…))", Help: "the largest value the series took over the lab's recorded history", Returns: Num, MinArgs: 1, MaxArgs: 1, First: seriesCall},
	"min_over_time": {Usage: "min_over_time(pending(deployment/NAME) | running(…) | skew(…))", Help: "the smallest value the series took over the lab's recorded history", Returns: Num, MinArgs: 1, MaxArgs: 1, First: seriesCall},
}

// seriesFuncs are the functions whose history the lab records (lab
// metrics): what the *_over_time functions can take.
var seriesFuncs = map[string]bool{"pending": true, "running": true, "skew": true}

func seriesCall(a Arg) error {
	name, _, _, ok := a.Call()
	if !ok || !seriesFuncs[name] {
		return fmt.Errorf("expected pending(…), running(…) or skew(…), got %s", a.String())
	}
	return nil
}

// Call returns the function call an ArgExpr argument is (for functions
// of a call, like max_over_time): its name, lane and arguments.
func (a Arg) Call() (name, lane string, args []Arg, ok bool) {
	if a.Kind != ArgExpr {
		return "", "", nil, false
	}
	c, isCall := a.Expr.(*callExpr)
	if !isCall {
		return "", "", nil, false
	}
	return c.name, c.lane, c.args, true
}

func word(words ...string) func(Arg) error {
	return func(a Arg) error {
		if a.Kind == ArgWord {
			for _, w := range words {
				if a.Word == w {
					return nil
				}
			}
		}
		return fmt.Errorf("expected %s, got %s", strings.Join(words, " or "), a.String())
	}
}

func anyWord(a Arg) error {
	if a.Kind != ArgWord {
		return fmt.Errorf("expected a word, got %s", a.String())
	}
	return nil
}

// funcNameSet is the set of function names (filled from funcs in init, so
// that printing values, which must avoid these words, does not depend on
// funcs' initializer).
var funcNameSet = map[string]bool{}

func init() {
	for name, f := range funcs {
		f.Name = name
		funcs[name] = f
		funcNameSet[name] = true
	}
}

// Funcs lists the functions, sorted by name (help and completion).
func Funcs() []Func {
	out := make([]Func, 0, len(funcs))
	for _, f := range funcs {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func funcNames() string {
	var names []string
	for _, f := range Funcs() {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}
