package lab

import (
	"fmt"
	"maps"
	"sort"
	"strings"

	"podlab.dev/podlab/engine/admission"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab/check"
	"podlab.dev/podlab/lab/command"
	"podlab.dev/podlab/lab/manifest"
)

// This file is `podlab validate`'s look at the scenario's commands without
// running them: each timeline entry and lesson command is parsed (the
// loader did: a syntax error never gets here) and the objects it names are
// looked up in what the scenario has at t=0 plus what earlier commands
// create. A name is only reported when it is knowable: a pod of a
// workload, a ReplicaSet of a Deployment, a Job of a CronJob and the nodes
// of an autoscaled cluster have generated names, and a command that
// applies a file may create anything — those are never reported.

// validateCommands returns a warning for each timeline or lesson command
// that names an object it will not find. s is the scenario loaded at t=0.
func validateCommands(f *File, s *Session) []manifest.Diagnostic {
	sc := f.Scenario
	if sc == nil {
		return nil
	}
	var timeline, lesson []scenarioCommand
	for i, e := range sc.Timeline {
		timeline = append(timeline, scenarioCommand{where: fmt.Sprintf("timeline[%d] (at %s)", i, api.Time(e.At)), line: e.Do, pos: e.Pos, both: true, lane: e.Lane})
	}
	if sc.Lesson != nil {
		for i, st := range sc.Lesson.Steps {
			lesson = append(lesson, stepCommands(i, st)...)
		}
	}
	base := newObjectIndex(s)
	if sc.Autoscaler != nil {
		base.nodesUnknowable = true // it adds and removes nodes as it likes
	}
	// The lesson runs at any time, the timeline at its own: each sequence
	// is checked in its order, with what the other may have created by
	// then (not what it removed: that would be a guess).
	var out []manifest.Diagnostic
	tl := base.clone()
	for _, c := range lesson {
		tl.mayCreate(c.cmd())
	}
	out = append(out, tl.check(timeline)...)
	ls := base
	for _, c := range timeline {
		ls.mayCreate(c.cmd())
	}
	return append(out, ls.check(lesson)...)
}

// scenarioCommand is one command of the timeline or a lesson step.
type scenarioCommand struct {
	where string // "timeline[0] (at 1s)", "lesson.steps[1].solution[0]"
	line  string
	pos   manifest.Position
	// both: the command runs whenever the sequence passes it (the
	// timeline, a step's solution); a step's do is the instructor's
	// alternative, whose removals later commands do not count on.
	both bool
	// lane is the lane of a saved fork's timeline entry ("": both).
	lane string
	// chk is set for a step's check (line is then its expression).
	chk *StepCheck
}

// cmd parses the command (without its lane: lanes share names); nil if
// it does not parse (the loader reported it).
func (c scenarioCommand) cmd() command.Command {
	if c.chk != nil {
		return nil
	}
	_, rest, err := SplitLane(c.line)
	if err != nil {
		return nil
	}
	cmd, err := command.Parse(rest)
	if err != nil {
		return nil
	}
	return cmd
}

// oneLane reports whether the command goes to one lane of a fork.
func (c scenarioCommand) oneLane() bool {
	lane, _, err := SplitLane(c.line)
	return c.lane != "" || (err == nil && lane != "")
}

// stepCommands lists a step's do and solution commands (once when the
// solution is the do).
func stepCommands(i int, st Step) []scenarioCommand {
	var out []scenarioCommand
	add := func(what string, lines []string, pos []manifest.Position, both bool) {
		for j, line := range lines {
			p := st.Pos
			if j < len(pos) {
				p = pos[j]
			}
			out = append(out, scenarioCommand{where: fmt.Sprintf("lesson.steps[%d].%s[%d]", i, what, j), line: line, pos: p, both: both})
		}
	}
	if sameLines(st.Do, st.Solution) {
		add("do", st.Do, st.DoPos, true)
	} else {
		add("do", st.Do, st.DoPos, false)
		add("solution", st.Solution, st.SolutionPos, true)
	}
	// the checks are evaluated once the step's commands ran
	for j := range st.Checks {
		c := &st.Checks[j]
		out = append(out, scenarioCommand{where: fmt.Sprintf("lesson.steps[%d].checks[%d]", i, j), line: c.Expr, pos: c.Pos, chk: c})
	}
	return out
}

func sameLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// objectIndex is what validate knows exists: keys by kind ("ns/name";
// a node's or a priority class's name), and each node's zone.
type objectIndex struct {
	keys      map[string]map[string]bool
	nodeZone  map[string]string
	zoneLabel string
	nodeNames string // the pattern of generated node names
	// nodesUnknowable: nodes were added whose names cannot be known here
	// (an autoscaler, an `add zone` after nodes that may or may not exist).
	nodesUnknowable bool
	// nodesExact: every node in the index exists (no node the other
	// sequence may have made), so `add zone` names its nodes as the lab will.
	nodesExact bool
	// opaque: a command applied a file; anything may exist.
	opaque bool
	// maybe holds kind+"\x00"+key of what only the other sequence may
	// have made (adding is set while it is recorded).
	maybe  map[string]bool
	adding bool
	// used and limit are the objects at t=0 and the object budget: a
	// command that asks for more than limit-used alone will be refused.
	used, limit int64
	// gates are the scheduling gates bare pods have left (validate_gates.go).
	gates map[string][]string
}

// indexedKinds are the kinds commands name.
var indexedKinds = []string{"node", "priorityclass", "pod", "deployment", "replicaset", "replicationcontroller",
	"statefulset", "daemonset", "job", "cronjob", "pdb", "hpa"}

func newObjectIndex(s *Session) *objectIndex {
	x := &objectIndex{keys: map[string]map[string]bool{}, nodeZone: map[string]string{}, zoneLabel: s.zoneLabel(),
		nodeNames: DefaultNodeNames, nodesExact: true, maybe: map[string]bool{},
		used: int64(s.eng.ObjectCount()), limit: int64(s.eng.MaxObjects()), gates: s.startGates()}
	if sc := s.file.Scenario; sc != nil && sc.Cluster.NodeNames != "" {
		x.nodeNames = sc.Cluster.NodeNames
	}
	for _, kind := range indexedKinds {
		for _, o := range s.objectMetas(kind) {
			x.add(kind, o.Namespace, o.Name)
		}
	}
	for name := range admission.BuiltinClasses() { // system-cluster-critical, …
		x.add("priorityclass", "", name)
	}
	for _, n := range s.eng.Nodes() {
		x.nodeZone[n.Name] = n.Labels[x.zoneLabel]
	}
	return x
}

func (x *objectIndex) clone() *objectIndex {
	c := *x
	c.keys = map[string]map[string]bool{}
	for k, m := range x.keys {
		c.keys[k] = make(map[string]bool, len(m))
		for n := range m {
			c.keys[k][n] = true
		}
	}
	c.nodeZone = make(map[string]string, len(x.nodeZone))
	for n, z := range x.nodeZone {
		c.nodeZone[n] = z
	}
	c.gates = maps.Clone(x.gates)
	c.maybe = make(map[string]bool, len(x.maybe))
	for k := range x.maybe {
		c.maybe[k] = true
	}
	return &c
}

func (x *objectIndex) add(kind, ns, name string) {
	if x.keys[kind] == nil {
		x.keys[kind] = map[string]bool{}
	}
	key := name
	if kind != "node" && kind != "priorityclass" {
		if ns == "" {
			ns = "default"
		}
		key = ns + "/" + name
	}
	x.keys[kind][key] = true
	if x.adding {
		x.maybe[kind+"\x00"+key] = true
	} else {
		delete(x.maybe, kind+"\x00"+key)
	}
}

// certain reports whether an object is in the index for sure (not only
// because the other sequence may have made it).
func (x *objectIndex) certain(kind, key string) bool {
	return x.keys[kind][key] && !x.maybe[kind+"\x00"+key]
}

// conflicts reports why a command that creates an object will fail: it
// exists already, for sure.
func (x *objectIndex) conflicts(c command.Command) (string, bool) {
	if x.opaque {
		return "", false
	}
	if msg, ok := x.overBudget(c); ok {
		return msg, true
	}
	switch c := c.(type) {
	case command.AddNode:
		if x.certain("node", c.Name) {
			return fmt.Sprintf("node %q exists", c.Name), true
		}
	case command.AddZone:
		if x.nodesUnknowable {
			return "", false
		}
		for n, z := range x.nodeZone {
			if z == c.Name && x.certain("node", n) {
				return fmt.Sprintf("zone %q exists; add nodes to it with `add node NAME --zone %s`", c.Name, c.Name), true
			}
		}
	case command.Autoscale:
		if ns, name := hpaOf(c); x.certain("hpa", ns+"/"+name) {
			return fmt.Sprintf("horizontalpodautoscalers.autoscaling %q already exists", name), true
		}
	}
	return "", false
}

// check reports the commands of one sequence that name what is not
// there, applying each command's effects as it goes.
func (x *objectIndex) check(seq []scenarioCommand) []manifest.Diagnostic {
	var out []manifest.Diagnostic
	for _, c := range seq {
		if c.chk != nil {
			out = append(out, x.checkRefs(c)...)
			continue
		}
		cmd := c.cmd()
		if cmd == nil {
			continue
		}
		if msg, ok := x.gateMissing(cmd); ok {
			out = append(out, manifest.Diagnostic{File: c.pos.File, Line: c.pos.Line, Col: c.pos.Col,
				Severity: manifest.SeverityWarning, Message: fmt.Sprintf("%s: %s: %s", c.where, shortCommand(c.line), msg),
				Hint: "the command will fail when it runs"})
		}
		if msg, ok := x.conflicts(cmd); ok {
			out = append(out, manifest.Diagnostic{File: c.pos.File, Line: c.pos.Line, Col: c.pos.Col,
				Severity: manifest.SeverityWarning, Message: fmt.Sprintf("%s: %s: %s", c.where, shortCommand(c.line), msg),
				Hint: "the command will fail when it runs"})
		}
		for _, r := range objectRefs(cmd) {
			if msg, ok := x.missing(r); ok {
				out = append(out, manifest.Diagnostic{File: c.pos.File, Line: c.pos.Line, Col: c.pos.Col,
					Severity: manifest.SeverityWarning, Message: fmt.Sprintf("%s: %s: %s", c.where, shortCommand(c.line), msg),
					Hint: "the command will fail when it runs"})
			}
		}
		x.create(cmd)
		if c.both && !c.oneLane() {
			x.remove(cmd) // not what one lane of a fork removes: the other keeps it
			x.ungated(cmd)
		}
	}
	return out
}

// checkFuncsThatNeedTheirObject are the check functions that fail with
// an error on an object that does not exist (the others answer: exists,
// phase "Gone", a pod that was never evicted, …).
var checkFuncsThatNeedTheirObject = map[string]bool{"skew": true, "pending": true, "running": true,
	"ready": true, "replicas": true, "cordoned": true, "tainted": true, "pressure": true}

// checkRefs reports the objects a step's check names that will not be
// there when it is evaluated.
func (x *objectIndex) checkRefs(c scenarioCommand) []manifest.Diagnostic {
	chk := c.chk.parsed
	if chk == nil {
		var err error
		if chk, err = check.Parse(c.chk.Expr); err != nil {
			return nil // the loader reported it
		}
	}
	var out []manifest.Diagnostic
	for _, r := range chk.Refs() {
		if !checkFuncsThatNeedTheirObject[r.Func] {
			continue
		}
		if msg, ok := x.missing(objectRef{r.Kind, r.Name}); ok {
			out = append(out, manifest.Diagnostic{File: c.pos.File, Line: c.pos.Line, Col: c.pos.Col,
				Severity: manifest.SeverityWarning, Message: fmt.Sprintf("%s: %s: %s", c.where, shortCommand(c.line), msg),
				Hint: "the check will end in an error when it is evaluated"})
		}
	}
	return out
}

// objectRef is an object a command needs: a kind of indexedKinds or
// "zone", and its name as written ("ns/name" or a bare name).
type objectRef struct{ kind, name string }

// objectRefs lists what a command needs to exist.
func objectRefs(c command.Command) []objectRef {
	switch c := c.(type) {
	case command.Remove:
		return []objectRef{{c.Kind, c.Name}}
	case command.Label:
		return []objectRef{{"node", c.Node}}
	case command.Taint:
		return []objectRef{{"node", c.Node}}
	case command.Cordon:
		return []objectRef{{"node", c.Node}}
	case command.Drain:
		return []objectRef{{"node", c.Node}}
	case command.Pressure:
		return []objectRef{{"node", c.Node}}
	case command.NodeHealth:
		return []objectRef{{"node", c.Node}}
	case command.Scale:
		return []objectRef{{c.Kind, c.Name}}
	case command.Delete:
		if c.Kind == "priorityclass" {
			return nil // refused whatever the name (run-time message)
		}
		return []objectRef{{c.Kind, c.Name}}
	case command.Rollout:
		return []objectRef{{c.Kind, c.Name}}
	case command.SetSpread:
		return []objectRef{{c.Kind, c.Name}}
	case command.SetPriority:
		return []objectRef{{"priorityclass", c.Class}, {c.Kind, c.Name}}
	case command.Usage:
		return []objectRef{{c.Kind, c.Name}}
	case command.Autoscale:
		return []objectRef{{c.Kind, c.Name}}
	case command.ProbeFault:
		return []objectRef{{"pod", strings.TrimPrefix(c.Pod, "pod/")}}
	case command.Ungate:
		return []objectRef{{"pod", c.Pod}}
	}
	return nil
}

// missing reports why r cannot be found (ok false: it may exist).
func (x *objectIndex) missing(r objectRef) (string, bool) {
	if x.opaque {
		return "", false
	}
	switch r.kind {
	case "node":
		if x.nodesUnknowable || x.keys["node"][r.name] {
			return "", false
		}
		return fmt.Sprintf("unknown node %q; %s", r.name, nodeRange(x.sorted("node"))), true
	case "zone":
		if x.nodesUnknowable {
			return "", false
		}
		zones := x.zones()
		for _, z := range zones {
			if z == r.name {
				return "", false
			}
		}
		return fmt.Sprintf("unknown zone %q; %s", r.name, summarizeNames("zone", zones)), true
	case "priorityclass":
		if x.keys["priorityclass"][r.name] {
			return "", false
		}
		return fmt.Sprintf("no PriorityClass with name %s was found; %s", r.name, summarizeNames("class", x.sorted("priorityclass"))), true
	}
	if !knownKind(r.kind) {
		return "", false
	}
	if x.exists(r.kind, r.name) || x.generated(r.kind, r.name) {
		return "", false
	}
	return fmt.Sprintf("unknown %s %q; %s", r.kind, r.name, summarizeNames(r.kind, x.sorted(r.kind))), true
}

func knownKind(kind string) bool {
	for _, k := range indexedKinds {
		if k == kind {
			return true
		}
	}
	return false
}

// exists looks a namespaced name up as the lab resolves it: "ns/name"
// exactly, a bare name in any namespace.
func (x *objectIndex) exists(kind, name string) bool {
	m := x.keys[kind]
	if strings.Contains(name, "/") {
		return m[name]
	}
	for key := range m {
		if _, n, _ := strings.Cut(key, "/"); n == name {
			return true
		}
	}
	return false
}

// generatedBy lists the kinds whose objects create objects of a kind
// with the owner's name and a generated suffix.
var generatedBy = map[string][]string{
	"pod":        {"deployment", "replicaset", "replicationcontroller", "statefulset", "daemonset", "job", "cronjob"},
	"replicaset": {"deployment"},
	"job":        {"cronjob"},
}

// generated reports whether name may be one a controller will give: an
// owner's name and "-" begin it.
func (x *objectIndex) generated(kind, name string) bool {
	ns, bare, qualified := strings.Cut(name, "/")
	if !qualified {
		bare = name
	}
	for _, owner := range generatedBy[kind] {
		for key := range x.keys[owner] {
			ons, oname, _ := strings.Cut(key, "/")
			if (!qualified || ons == ns) && strings.HasPrefix(bare, oname+"-") {
				return true
			}
		}
	}
	return false
}

func (x *objectIndex) sorted(kind string) []string {
	var out []string
	for k := range x.keys[kind] {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (x *objectIndex) zones() []string {
	seen := map[string]bool{}
	var out []string
	for _, z := range x.nodeZone {
		if z != "" && !seen[z] {
			seen[z] = true
			out = append(out, z)
		}
	}
	sort.Strings(out)
	return out
}

// create records what a command makes.
func (x *objectIndex) create(c command.Command) {
	switch c := c.(type) {
	case command.AddZone:
		if !x.nodesExact {
			x.nodesUnknowable = true
			return
		}
		if _, over := x.overBudget(c); over || x.nodesUnknowable || x.hasZone(c.Name) {
			return // unknowable, or the command fails
		}
		for i := 1; i <= max(c.Nodes, 1); i++ {
			x.addNode(x.nextNodeName(c.Name, i), c.Name)
		}
	case command.AddNode:
		if !x.keys["node"][c.Name] {
			x.addNode(c.Name, c.Zone)
			x.relabel(c.Name, c.Labels)
		}
	case command.Label:
		x.relabel(c.Node, c.Labels) // a node may move to another zone
	case command.Apply:
		if c.File != "" {
			x.opaque = true
			return
		}
		objs, err := manifest.Load("inline", []byte(c.Inline), manifest.Options{})
		if err != nil {
			return
		}
		x.addObjects(objs)
		x.podsApplied(objs) // validate_gates.go
	case command.Autoscale:
		ns, name := hpaOf(c)
		x.add("hpa", ns, name)
	}
}

// hpaOf is the namespace and name of the HorizontalPodAutoscaler
// autoscale makes: named after its target unless --name says otherwise.
// A bare target in several namespaces is taken to be in default (the
// command fails on it anyway).
func hpaOf(c command.Autoscale) (ns, name string) {
	ns, name = "default", c.Name
	if n, rest, ok := strings.Cut(c.Name, "/"); ok {
		ns, name = n, rest
	}
	if c.HPAName != "" {
		name = c.HPAName
	}
	return ns, name
}

// mayCreate records what a command of the other sequence may have made
// by the time a command runs. Its nodes may or may not exist then, so
// the names `add zone` gives later are unknowable; so are the ones it
// gives itself (they depend on how many nodes there are when it runs).
func (x *objectIndex) mayCreate(c command.Command) {
	x.adding = true
	defer func() { x.adding = false }()
	switch c.(type) {
	case command.AddZone:
		x.nodesUnknowable = true
	case command.AddNode, command.Apply:
		before := len(x.keys["node"])
		x.create(c)
		if len(x.keys["node"]) != before {
			x.nodesExact = false
		}
	default:
		x.create(c)
	}
}

// remove forgets the nodes a command removes (nodes go at once; a
// deleted pod or workload lingers while it terminates).
func (x *objectIndex) remove(c command.Command) {
	var nodes []string
	switch c := c.(type) {
	case command.Remove:
		if c.Kind == "node" {
			nodes = []string{c.Name}
		} else {
			for n, z := range x.nodeZone {
				if z == c.Name {
					nodes = append(nodes, n)
				}
			}
		}
	case command.Delete:
		if c.Kind == "node" {
			nodes = []string{c.Name}
		}
	}
	for _, n := range nodes {
		delete(x.keys["node"], n)
		delete(x.nodeZone, n)
	}
}

// relabel follows a change of a node's zone label.
func (x *objectIndex) relabel(node string, labels []command.KV) {
	if _, ok := x.nodeZone[node]; !ok {
		return
	}
	for _, kv := range labels {
		if kv.Key != x.zoneLabel {
			continue
		}
		x.nodeZone[node] = kv.Value
		if kv.Remove {
			x.nodeZone[node] = ""
		}
	}
}

func (x *objectIndex) addNode(name, zone string) {
	x.add("node", "", name)
	x.nodeZone[name] = zone
}

func (x *objectIndex) hasZone(zone string) bool {
	for _, z := range x.nodeZone {
		if z == zone {
			return true
		}
	}
	return false
}

// nextNodeName is Session.nextNodeName over the index (a test keeps the
// two in step).
func (x *objectIndex) nextNodeName(zone string, i int) string {
	for n := len(x.keys["node"]) + 1; ; n++ {
		name := nodeNameFrom(x.nodeNames, n, i, zone)
		if !x.keys["node"][name] {
			return name
		}
		if !strings.Contains(x.nodeNames, "{n}") {
			i++
		}
	}
}

// addObjects records the objects of an applied manifest.
func (x *objectIndex) addObjects(o *manifest.Objects) {
	for _, n := range o.Nodes {
		x.addNode(n.Name, n.Labels[x.zoneLabel])
	}
	for _, v := range o.PriorityClasses {
		x.add("priorityclass", "", v.Name)
	}
	for _, v := range o.Pods {
		x.add("pod", v.Namespace, v.Name)
	}
	for _, v := range o.PodDisruptionBudgets {
		x.add("pdb", v.Namespace, v.Name)
	}
	for _, v := range o.Deployments {
		x.add("deployment", v.Namespace, v.Name)
	}
	for _, v := range o.ReplicaSets {
		x.add("replicaset", v.Namespace, v.Name)
	}
	for _, v := range o.ReplicationControllers {
		x.add("replicationcontroller", v.Namespace, v.Name)
	}
	for _, v := range o.StatefulSets {
		x.add("statefulset", v.Namespace, v.Name)
	}
	for _, v := range o.DaemonSets {
		x.add("daemonset", v.Namespace, v.Name)
	}
	for _, v := range o.Jobs {
		x.add("job", v.Namespace, v.Name)
	}
	for _, v := range o.CronJobs {
		x.add("cronjob", v.Namespace, v.Name)
	}
	for _, v := range o.HPAs {
		x.add("hpa", v.Namespace, v.Name)
	}
}

// emptyWarning warns about a file with nothing to run: no node, pod or
// workload at t=0, and no command that adds any (an empty file, only
// comments, a header alone). It loads — an empty cluster is a valid
// state — but is almost certainly not what was meant.
func emptyWarning(f *File, s *Session) (manifest.Diagnostic, bool) {
	for _, kind := range indexedKinds {
		if kind != "priorityclass" && kind != "pdb" && kind != "hpa" && len(s.objectMetas(kind)) > 0 {
			return manifest.Diagnostic{}, false
		}
	}
	if sc := f.Scenario; sc != nil {
		var lines []string
		for _, e := range sc.Timeline {
			lines = append(lines, e.Do)
		}
		if sc.Lesson != nil {
			for _, st := range sc.Lesson.Steps {
				lines = append(append(lines, st.Do...), st.Solution...)
			}
		}
		for _, line := range lines {
			switch (scenarioCommand{line: line}).cmd().(type) {
			case command.AddZone, command.AddNode, command.Apply:
				return manifest.Diagnostic{}, false
			}
		}
	}
	return manifest.Diagnostic{File: f.Name, Line: 1, Col: 1, Severity: manifest.SeverityWarning,
		Message: "nothing to run: no nodes, pods or workloads, and no command adds any",
		Hint:    "add Kubernetes manifests (kind: Node, Pod, Deployment, …) or a cluster: shorthand in the podlab/v1 Scenario header"}, true
}

// scenarioWarnings are validate's warnings beyond the loader's: an empty
// file, and commands that name objects they will not find.
func scenarioWarnings(f *File, s *Session) []manifest.Diagnostic {
	if d, ok := emptyWarning(f, s); ok {
		return []manifest.Diagnostic{d}
	}
	return validateCommands(f, s)
}

// commandSyntax parses every timeline and lesson command, for a File not
// made by the loader (which refuses a file whose commands do not parse).
func commandSyntax(f *File) error {
	sc := f.Scenario
	if sc == nil {
		return nil
	}
	var all []scenarioCommand
	for i, e := range sc.Timeline {
		all = append(all, scenarioCommand{where: fmt.Sprintf("timeline[%d].do", i), line: e.Do, pos: e.Pos})
	}
	if sc.Lesson != nil {
		for i, st := range sc.Lesson.Steps {
			all = append(all, stepCommands(i, st)...)
		}
	}
	for _, c := range all {
		if c.chk != nil {
			continue // the loader parsed it; CheckStep reports an error
		}
		_, rest, err := SplitLane(c.line) // a lane of a fork the lesson makes
		if err == nil {
			_, err = command.Parse(rest)
		}
		if err != nil {
			return fmt.Errorf("%s: %s: %w", c.pos, c.where, err)
		}
	}
	return nil
}
