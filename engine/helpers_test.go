package engine

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/engine/scheduler/framework"
)

func sec(n float64) api.Time { return api.Time(time.Duration(n * float64(time.Second))) }

func i64(v int64) *int64 { return &v }

func q(s string) api.Quantity {
	v, err := api.ParseQuantity(s)
	if err != nil {
		panic(err)
	}
	return v
}

// fitScheduler is a small stand-in for the default profile used where a
// test is about time, not placement: NodeUnschedulable, TaintToleration
// (NoSchedule/NoExecute), NodeResourcesFit (cpu, memory, pods), least
// requested cpu first, then name.
type fitScheduler struct {
	snap *framework.Snapshot
	nom  *scheduler.Nominator
}

func newFitScheduler(_ int64, snap *framework.Snapshot, _ func() []*api.PodDisruptionBudget) Scheduler {
	return &fitScheduler{snap: snap, nom: scheduler.NewNominator()}
}

func (s *fitScheduler) Nominator() *scheduler.Nominator { return s.nom }

func (s *fitScheduler) ScheduleOne(pi *framework.PodInfo) scheduler.Result {
	reasons := map[string]int{}
	plugins := map[string]bool{}
	best := ""
	var bestFree int64
	for _, ni := range s.snap.Nodes() {
		n := ni.Node
		unsched := api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}
		if n.Spec.Unschedulable && !api.TolerationsTolerateTaint(pi.Pod.Spec.Tolerations, &unsched) {
			reasons["node(s) were unschedulable"]++
			plugins["NodeUnschedulable"] = true
			continue
		}
		if _, bad := api.FindUntoleratedTaint(n.Spec.Taints, pi.Pod.Spec.Tolerations, func(t *api.Taint) bool {
			return t.Effect == api.TaintEffectNoSchedule || t.Effect == api.TaintEffectNoExecute
		}); bad {
			reasons["node(s) had untolerated taint(s)"]++
			plugins["TaintToleration"] = true
			continue
		}
		if !api.MatchNodeSelectorMap(n, pi.Pod.Spec.NodeSelector) {
			reasons["node(s) didn't match Pod's node affinity/selector"]++
			plugins["NodeAffinity"] = true
			continue
		}
		fits := true
		if ni.Allocatable.AllowedPods > 0 && int64(len(ni.Pods))+1 > ni.Allocatable.AllowedPods {
			reasons["Too many pods"]++
			fits = false
		}
		if pi.Requests.MilliCPU > 0 && ni.Requested.MilliCPU+pi.Requests.MilliCPU > ni.Allocatable.MilliCPU {
			reasons["Insufficient cpu"]++
			fits = false
		}
		if pi.Requests.Memory > 0 && ni.Requested.Memory+pi.Requests.Memory > ni.Allocatable.Memory {
			reasons["Insufficient memory"]++
			fits = false
		}
		if !fits {
			plugins["NodeResourcesFit"] = true
			continue
		}
		free := ni.Allocatable.MilliCPU - ni.Requested.MilliCPU
		if best == "" || free > bestFree {
			best, bestFree = n.Name, free
		}
	}
	if best != "" {
		return scheduler.Result{Node: best}
	}
	var parts []string
	for r, c := range reasons {
		parts = append(parts, fmt.Sprintf("%d %s", c, r))
	}
	sort.Strings(parts)
	var pl []string
	for p := range plugins {
		pl = append(pl, p)
	}
	sort.Strings(pl)
	return scheduler.Result{
		Message: fmt.Sprintf("0/%d nodes are available: %s.", len(s.snap.Nodes()), strings.Join(parts, ", ")),
		Reasons: reasons, Plugins: pl,
	}
}

// addPrioClasses adds the classes prio-P that pb.prio refers to.
func addPrioClasses(t testing.TB, e *Engine, values ...int32) {
	t.Helper()
	for _, v := range values {
		must(t, e.AddPriorityClass(&api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("prio-%d", v)}, Value: v}))
	}
}

func newTestEngine(t testing.TB) *Engine {
	t.Helper()
	return New(Config{Seed: 1, NewScheduler: newFitScheduler})
}

func node(name, cpu, mem string) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{}}}
	n.Status.Capacity = api.ResourceList{api.ResourceCPU: q(cpu), api.ResourceMemory: q(mem), api.ResourcePods: q("110")}
	return n
}

type pb struct{ p *api.Pod }

func pod(name string) *pb {
	return &pb{&api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{}, Annotations: map[string]string{}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "app"}}}}}
}
func (b *pb) on(n string) *pb       { b.p.Spec.NodeName = n; return b }
func (b *pb) label(k, v string) *pb { b.p.Labels[k] = v; return b }
func (b *pb) ann(k, v string) *pb   { b.p.Annotations[k] = v; return b }
func (b *pb) grace(g int64) *pb     { b.p.Spec.TerminationGracePeriodSeconds = i64(g); return b }

// prio gives the pod the PriorityClass prio-P (addPrioClasses): admission
// computes spec.priority from the class, as the API server does.
func (b *pb) prio(p int32) *pb   { b.p.Spec.PriorityClassName = fmt.Sprintf("prio-%d", p); return b }
func (b *pb) class(c string) *pb { b.p.Spec.PriorityClassName = c; return b }
func (b *pb) preStop(secs int64) *pb {
	b.p.Spec.Containers[0].Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{SleepSeconds: i64(secs)}}
	return b
}
func (b *pb) req(cpu, mem string) *pb {
	rl := api.ResourceList{}
	if cpu != "" {
		rl[api.ResourceCPU] = q(cpu)
	}
	if mem != "" {
		rl[api.ResourceMemory] = q(mem)
	}
	b.p.Spec.Containers[0].Resources.Requests = rl
	return b
}
func (b *pb) lim(cpu, mem string) *pb {
	rl := api.ResourceList{}
	if cpu != "" {
		rl[api.ResourceCPU] = q(cpu)
	}
	if mem != "" {
		rl[api.ResourceMemory] = q(mem)
	}
	b.p.Spec.Containers[0].Resources.Limits = rl
	return b
}
func (b *pb) owner(kind, name string) *pb {
	b.p.OwnerReferences = []api.OwnerReference{{Kind: kind, Name: name, UID: kind + "/" + name, Controller: true}}
	return b
}
func (b *pb) obj() *api.Pod { return b.p }

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// objectEvents returns the events of one reason about obj
// ("pod/namespace/name"), oldest first.
func objectEvents(e *Engine, reason, obj string) []Event {
	var out []Event
	for _, ev := range e.Events() {
		if ev.Reason == reason && ev.Object == obj {
			out = append(out, ev)
		}
	}
	return out
}

// lastFailedScheduling returns obj's last FailedScheduling message ("" if
// none).
func lastFailedScheduling(e *Engine, obj string) string {
	evs := objectEvents(e, ReasonFailedScheduling, obj)
	if len(evs) == 0 {
		return ""
	}
	return evs[len(evs)-1].Message
}

// eventLines renders events as "t reason object: message" lines, filtered
// to the given reasons (all when none).
func eventLines(evs []Event, reasons ...string) []string {
	keep := map[string]bool{}
	for _, r := range reasons {
		keep[r] = true
	}
	var out []string
	for _, ev := range evs {
		if len(keep) > 0 && !keep[ev.Reason] {
			continue
		}
		out = append(out, fmt.Sprintf("%s %s %s: %s", ev.Time, ev.Reason, ev.Object, ev.Message))
	}
	return out
}

func wantLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events\n got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
