package command

import (
	"sort"
	"strconv"
	"strings"
	"time"
)

// Command is one parsed command. String returns its canonical form, which
// parses back to an equal command (history, saved timelines and replay
// rely on it).
type Command interface {
	Verb() string
	String() string
}

// Shape is the size of nodes that add zone / add node create.
type Shape struct {
	CPU    string // quantity, "" ⇒ lab default
	Memory string
	Pods   string
}

func (s Shape) flags() []string {
	var out []string
	if s.CPU != "" {
		out = append(out, "--cpu="+s.CPU)
	}
	if s.Memory != "" {
		out = append(out, "--memory="+s.Memory)
	}
	if s.Pods != "" {
		out = append(out, "--pods="+s.Pods)
	}
	return out
}

// AddZone: add zone NAME [--nodes N] [--cpu Q --memory Q --pods N] [--label k=v]... [--taint k=v:Effect]...
type AddZone struct {
	Name   string
	Nodes  int // 0 ⇒ lab default (1)
	Shape  Shape
	Labels []KV
	Taints []TaintSpec
}

// AddNode: add node NAME --zone Z [--cpu Q --memory Q --pods N] [--label k=v]... [--taint k=v:Effect]...
type AddNode struct {
	Name   string
	Zone   string
	Shape  Shape
	Labels []KV
	Taints []TaintSpec
}

// Remove: remove node|zone NAME.
type Remove struct {
	Kind string // "node" or "zone"
	Name string
}

// KV is a label assignment (Remove ⇒ "k-").
type KV struct {
	Key, Value string
	Remove     bool
}

func (kv KV) String() string {
	if kv.Remove {
		return kv.Key + "-"
	}
	return kv.Key + "=" + kv.Value
}

// TaintSpec is a taint to add (k=v:Effect) or remove (k-, k:Effect-).
type TaintSpec struct {
	Key, Value, Effect string
	Remove             bool
}

func (t TaintSpec) String() string {
	s := t.Key
	if t.Value != "" {
		s += "=" + t.Value
	}
	if t.Effect != "" {
		s += ":" + t.Effect
	}
	if t.Remove {
		s += "-"
	}
	return s
}

// Label: label node NAME k=v|k- ...
type Label struct {
	Node   string
	Labels []KV
}

// Taint: taint node NAME k=v:Effect|k-|k:Effect- ...
type Taint struct {
	Node   string
	Taints []TaintSpec
}

// Cordon: cordon NAME / uncordon NAME.
type Cordon struct {
	Node     string
	Uncordon bool
}

// Drain: drain NAME [--timeout D] [--ignore-daemonsets] [--force] [--grace-period N] [--delete-emptydir-data].
type Drain struct {
	Node             string
	Timeout          time.Duration // 0 ⇒ wait forever (kubectl's default)
	IgnoreDaemonSets bool
	Force            bool
	DeleteEmptyDir   bool
	GracePeriod      *int64
}

// Scale: scale KIND/NAME --replicas=N.
type Scale struct {
	Kind, Name string
	Replicas   int32
}

// Apply: apply -f FILE (Inline holds a manifest given in a scenario timeline).
type Apply struct {
	File   string
	Inline string
	// Source names the file Inline was read from (the session records a
	// file's text, not its path), for messages: "rs.yaml:4:9: …".
	Source string
}

// Delete: delete KIND NAME [--grace-period=N] [--force] [--cascade=background|orphan|foreground].
type Delete struct {
	Kind, Name  string
	GracePeriod *int64
	Force       bool
	Cascade     string // "" ⇒ background
}

// Rollout: rollout restart|undo|status|pause|resume KIND/NAME [--to-revision=N].
type Rollout struct {
	Action     string
	Kind, Name string
	ToRevision int64
}

// SetSpread: set spread KIND/NAME [--constraint i|--add|--remove i] field=value ...
type SetSpread struct {
	Kind, Name string
	// Index of the constraint to change (0-based); -1 with Add appends.
	Index  int
	Add    bool
	Delete bool
	Fields SpreadPatch
}

// SetPriority: set priority KIND/NAME CLASS.
type SetPriority struct {
	Kind, Name, Class string
}

// Pressure: pressure node NAME memory=P%|off.
type Pressure struct {
	Node    string
	Percent float64 // ignored when Off
	Off     bool
}

// Usage: usage KIND/NAME memory=Q|P% | cpu=Q|P% [at DURATION].
type Usage struct {
	Kind, Name string
	Memory     string // quantity ("1.2Gi") or percentage ("150%")
	// CPU is a pod's use, or a workload's total load (shared by its ready
	// pods); a percentage is of one pod's request (× the workload's
	// replicas when the load takes effect).
	CPU string
	// At is the virtual time a workload's cpu load changes (nil: now).
	At *time.Duration
}

// Advance: advance D.
type Advance struct{ D time.Duration }

// Seed: seed N.
type Seed struct{ N int64 }

// NodeHealth: fail node NAME [--unreachable] / recover node NAME.
type NodeHealth struct {
	Node        string
	Fail        bool
	Unreachable bool
}

// Undo and Redo are lab meta-commands (never recorded in history).
type Undo struct{}

// Redo re-applies an undone command.
type Redo struct{}

func (AddZone) Verb() string     { return "add zone" }
func (AddNode) Verb() string     { return "add node" }
func (Remove) Verb() string      { return "remove" }
func (Label) Verb() string       { return "label" }
func (Taint) Verb() string       { return "taint" }
func (c Cordon) Verb() string    { return map[bool]string{false: "cordon", true: "uncordon"}[c.Uncordon] }
func (Drain) Verb() string       { return "drain" }
func (Scale) Verb() string       { return "scale" }
func (Apply) Verb() string       { return "apply" }
func (Delete) Verb() string      { return "delete" }
func (Rollout) Verb() string     { return "rollout" }
func (SetSpread) Verb() string   { return "set spread" }
func (SetPriority) Verb() string { return "set priority" }
func (Pressure) Verb() string    { return "pressure" }
func (Usage) Verb() string       { return "usage" }
func (Advance) Verb() string     { return "advance" }
func (Seed) Verb() string        { return "seed" }
func (c NodeHealth) Verb() string {
	if c.Fail {
		return "fail node"
	}
	return "recover node"
}
func (Undo) Verb() string { return "undo" }
func (Redo) Verb() string { return "redo" }

func join(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}

func quoteIfNeeded(s string) string {
	if s == "" {
		return "''"
	}
	if strings.ContainsAny(s, " \t\n\r'\"\\") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

func kvs(list []KV, flag string) []string {
	var out []string
	for _, kv := range list {
		if flag != "" {
			out = append(out, flag+"="+quoteIfNeeded(kv.String()))
		} else {
			out = append(out, quoteIfNeeded(kv.String()))
		}
	}
	return out
}

func taints(list []TaintSpec, flag string) []string {
	var out []string
	for _, t := range list {
		if flag != "" {
			out = append(out, flag+"="+quoteIfNeeded(t.String()))
		} else {
			out = append(out, quoteIfNeeded(t.String()))
		}
	}
	return out
}

func (c AddZone) String() string {
	parts := []string{"add zone", quoteIfNeeded(c.Name)}
	if c.Nodes != 0 {
		parts = append(parts, "--nodes="+strconv.Itoa(c.Nodes))
	}
	parts = append(parts, c.Shape.flags()...)
	parts = append(parts, kvs(c.Labels, "--label")...)
	parts = append(parts, taints(c.Taints, "--taint")...)
	return join(parts...)
}

func (c AddNode) String() string {
	parts := []string{"add node", quoteIfNeeded(c.Name), "--zone=" + quoteIfNeeded(c.Zone)}
	parts = append(parts, c.Shape.flags()...)
	parts = append(parts, kvs(c.Labels, "--label")...)
	parts = append(parts, taints(c.Taints, "--taint")...)
	return join(parts...)
}

func (c Remove) String() string { return join("remove", c.Kind, quoteIfNeeded(c.Name)) }

func (c Label) String() string {
	return join(append([]string{"label node", quoteIfNeeded(c.Node)}, kvs(c.Labels, "")...)...)
}

func (c Taint) String() string {
	return join(append([]string{"taint node", quoteIfNeeded(c.Node)}, taints(c.Taints, "")...)...)
}

func (c Cordon) String() string { return join(c.Verb(), quoteIfNeeded(c.Node)) }

func (c Drain) String() string {
	parts := []string{"drain", quoteIfNeeded(c.Node)}
	if c.IgnoreDaemonSets {
		parts = append(parts, "--ignore-daemonsets")
	}
	if c.Force {
		parts = append(parts, "--force")
	}
	if c.DeleteEmptyDir {
		parts = append(parts, "--delete-emptydir-data")
	}
	if c.GracePeriod != nil {
		parts = append(parts, "--grace-period="+strconv.FormatInt(*c.GracePeriod, 10))
	}
	if c.Timeout != 0 {
		parts = append(parts, "--timeout="+formatDuration(c.Timeout))
	}
	return join(parts...)
}

func (c Scale) String() string {
	return join("scale", c.Kind+"/"+quoteIfNeeded(c.Name), "--replicas="+strconv.Itoa(int(c.Replicas)))
}

func (c Apply) String() string {
	if c.Inline != "" {
		return "apply --inline=" + quoteIfNeeded(c.Inline)
	}
	return "apply -f " + quoteIfNeeded(c.File)
}

func (c Delete) String() string {
	parts := []string{"delete", c.Kind, quoteIfNeeded(c.Name)}
	if c.GracePeriod != nil {
		parts = append(parts, "--grace-period="+strconv.FormatInt(*c.GracePeriod, 10))
	}
	if c.Force {
		parts = append(parts, "--force")
	}
	if c.Cascade != "" {
		parts = append(parts, "--cascade="+c.Cascade)
	}
	return join(parts...)
}

func (c Rollout) String() string {
	parts := []string{"rollout", c.Action, c.Kind + "/" + quoteIfNeeded(c.Name)}
	if c.ToRevision != 0 {
		parts = append(parts, "--to-revision="+strconv.FormatInt(c.ToRevision, 10))
	}
	return join(parts...)
}

func (c SetSpread) String() string {
	parts := []string{"set spread", c.Kind + "/" + quoteIfNeeded(c.Name)}
	switch {
	case c.Add:
		parts = append(parts, "--add")
	case c.Delete:
		parts = append(parts, "--remove="+strconv.Itoa(c.Index))
	case c.Index != 0:
		parts = append(parts, "--constraint="+strconv.Itoa(c.Index))
	}
	parts = append(parts, c.Fields.fields()...)
	return join(parts...)
}

func (c SetPriority) String() string {
	return join("set priority", c.Kind+"/"+quoteIfNeeded(c.Name), quoteIfNeeded(c.Class))
}

func (c Pressure) String() string {
	if c.Off {
		return join("pressure node", quoteIfNeeded(c.Node), "memory=off")
	}
	return join("pressure node", quoteIfNeeded(c.Node), "memory="+strconv.FormatFloat(c.Percent, 'f', -1, 64)+"%")
}

func (c Advance) String() string { return "advance " + formatDuration(c.D) }
func (c Seed) String() string    { return "seed " + strconv.FormatInt(c.N, 10) }

func (c NodeHealth) String() string {
	if !c.Fail {
		return "recover node " + quoteIfNeeded(c.Node)
	}
	if c.Unreachable {
		return "fail node " + quoteIfNeeded(c.Node) + " --unreachable"
	}
	return "fail node " + quoteIfNeeded(c.Node)
}

func (Undo) String() string { return "undo" }
func (Redo) String() string { return "redo" }

// formatDuration prints durations the way people type them ("90s" as
// "1m30s", "2m", "500ms").
func formatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// Kinds lists the object kinds commands accept, with their aliases.
var kindAliases = map[string]string{
	"pod": "pod", "pods": "pod", "po": "pod",
	"deployment": "deployment", "deployments": "deployment", "deploy": "deployment",
	"replicaset": "replicaset", "replicasets": "replicaset", "rs": "replicaset",
	"replicationcontroller": "replicationcontroller", "replicationcontrollers": "replicationcontroller", "rc": "replicationcontroller",
	"statefulset": "statefulset", "statefulsets": "statefulset", "sts": "statefulset",
	"daemonset": "daemonset", "daemonsets": "daemonset", "ds": "daemonset",
	"job": "job", "jobs": "job",
	"cronjob": "cronjob", "cronjobs": "cronjob", "cj": "cronjob",
	"node": "node", "nodes": "node", "no": "node",
	"poddisruptionbudget": "pdb", "pdb": "pdb", "pdbs": "pdb",
	"priorityclass": "priorityclass", "priorityclasses": "priorityclass", "pc": "priorityclass",
	"horizontalpodautoscaler": "hpa", "horizontalpodautoscalers": "hpa", "hpa": "hpa",
}

// CanonicalKind maps a kind or alias (kubectl's short names) to the
// lab's canonical kind, "" if unknown.
func CanonicalKind(k string) string { return kindAliases[strings.ToLower(k)] }

// KnownKinds lists canonical kinds in a stable order (for messages and completion).
func KnownKinds() []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range kindAliases {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}
