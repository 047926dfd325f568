package podtopologyspread

import (
	"sort"
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// Test builders: a node or an existing pod is one line of text so a case
// reads like upstream's tables.
//
//	node: "node-a zone=zone1 node=node-a taint:key=value:NoSchedule"
//	pod:  "p-a1 @node-a foo= ns:ns1 terminating"

func nodes(specs ...string) []*api.Node {
	out := make([]*api.Node, 0, len(specs))
	for _, s := range specs {
		f := strings.Fields(s)
		n := &api.Node{ObjectMeta: api.ObjectMeta{Name: f[0], Labels: map[string]string{}}}
		for _, tok := range f[1:] {
			if rest, ok := strings.CutPrefix(tok, "taint:"); ok {
				parts := strings.Split(rest, ":")
				k, v, _ := strings.Cut(parts[0], "=")
				n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: k, Value: v, Effect: parts[1]})
				continue
			}
			k, v, _ := strings.Cut(tok, "=")
			n.Labels[k] = v
		}
		out = append(out, n)
	}
	return out
}

func pods(specs ...string) []*api.Pod {
	out := make([]*api.Pod, 0, len(specs))
	for _, s := range specs {
		f := strings.Fields(s)
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: f[0], Namespace: "default", Labels: map[string]string{}}}
		for _, tok := range f[1:] {
			switch {
			case strings.HasPrefix(tok, "@"):
				p.Spec.NodeName = tok[1:]
			case strings.HasPrefix(tok, "ns:"):
				p.Namespace = tok[3:]
			case tok == "terminating":
				t := api.Time(0)
				p.DeletionTimestamp = &t
			default:
				k, v, _ := strings.Cut(tok, "=")
				p.Labels[k] = v
			}
		}
		out = append(out, p)
	}
	return out
}

// podBuilder builds the incoming pod.
type podBuilder struct{ p *api.Pod }

func makePod(name string) *podBuilder {
	return &podBuilder{p: &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{}}}}
}

func (b *podBuilder) Label(k, v string) *podBuilder { b.p.Labels[k] = v; return b }

func (b *podBuilder) Namespace(ns string) *podBuilder { b.p.Namespace = ns; return b }

// Spread adds a constraint (st.MakePod().SpreadConstraint).
func (b *podBuilder) Spread(maxSkew int32, key, when string, sel *api.LabelSelector) *podBuilder {
	return b.Constraint(api.TopologySpreadConstraint{MaxSkew: maxSkew, TopologyKey: key, WhenUnsatisfiable: when, LabelSelector: sel})
}

func (b *podBuilder) Constraint(c api.TopologySpreadConstraint) *podBuilder {
	b.p.Spec.TopologySpreadConstraints = append(b.p.Spec.TopologySpreadConstraints, c)
	return b
}

func (b *podBuilder) NodeSelector(m map[string]string) *podBuilder {
	b.p.Spec.NodeSelector = m
	return b
}

func (b *podBuilder) nodeAffinity(key, op string, vals ...string) *podBuilder {
	b.p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
			MatchExpressions: []api.NodeSelectorRequirement{{Key: key, Operator: op, Values: vals}},
		}}},
	}}
	return b
}

func (b *podBuilder) NodeAffinityIn(key string, vals ...string) *podBuilder {
	return b.nodeAffinity(key, api.NodeSelectorOpIn, vals...)
}

func (b *podBuilder) NodeAffinityNotIn(key string, vals ...string) *podBuilder {
	return b.nodeAffinity(key, api.NodeSelectorOpNotIn, vals...)
}

func (b *podBuilder) Toleration(key, effect string) *podBuilder {
	b.p.Spec.Tolerations = append(b.p.Spec.Tolerations, api.Toleration{Key: key, Operator: api.TolerationOpExists, Effect: effect})
	return b
}

func (b *podBuilder) OwnedBy(kind, name string) *podBuilder {
	b.p.OwnerReferences = append(b.p.OwnerReferences, api.OwnerReference{APIVersion: "apps/v1", Kind: kind, Name: name, Controller: true})
	return b
}

func (b *podBuilder) Obj() *api.Pod { return b.p }

var (
	fooSelector = exists("foo")
	barSelector = exists("bar")
	honor       = ptr(api.PolicyHonor)
	ignore      = ptr(api.PolicyIgnore)
)

func ptr[T any](v T) *T { return &v }

func exists(key string) *api.LabelSelector {
	return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: key, Operator: api.LabelSelectorOpExists}}}
}

func matchLabels(kv ...string) *api.LabelSelector {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return &api.LabelSelector{MatchLabels: m}
}

func newSnapshot(t testing.TB, ns []*api.Node, ps []*api.Pod) *framework.Snapshot {
	t.Helper()
	snap := framework.NewSnapshot()
	for _, n := range ns {
		snap.AddNode(n)
	}
	for _, p := range ps {
		if snap.Get(p.Spec.NodeName) == nil {
			t.Fatalf("pod %s: node %q not in the snapshot", p.Name, p.Spec.NodeName)
		}
		snap.AddPod(framework.NewPodInfo(p))
	}
	return snap
}

func listArgs() Args { return Args{DefaultingType: ListDefaulting} }

func mustNew(t testing.TB, args Args) *Plugin {
	t.Helper()
	pl, err := New(args)
	if err != nil {
		t.Fatal(err)
	}
	return pl
}

// filterCodes runs PreFilter and Filter on every node; a PreFilter Skip
// counts as Success everywhere (the runtime skips Filter).
func filterCodes(t testing.TB, pl *Plugin, snap *framework.Snapshot, pod *api.Pod) map[string]framework.Code {
	t.Helper()
	state := framework.NewCycleState()
	pi := framework.NewPodInfo(pod)
	out := map[string]framework.Code{}
	_, st := pl.PreFilter(state, pi, snap)
	if st.IsSkip() {
		for _, ni := range snap.Nodes() {
			out[ni.Node.Name] = framework.Success
		}
		return out
	}
	if !st.IsSuccess() {
		t.Fatalf("PreFilter: %v", st.Message())
	}
	for _, ni := range snap.Nodes() {
		s := pl.Filter(state, pi, ni)
		out[ni.Node.Name] = s.CodeOf()
		switch s.CodeOf() {
		case framework.Unschedulable:
			if s.Message() != ErrReasonConstraintsNotMatch {
				t.Errorf("node %s: reason %q", ni.Node.Name, s.Message())
			}
		case framework.UnschedulableAndUnresolvable:
			if s.Message() != ErrReasonNodeLabelNotMatch {
				t.Errorf("node %s: reason %q", ni.Node.Name, s.Message())
			}
		}
	}
	return out
}

// normalizedScores runs PreScore, Score and NormalizeScore over the
// feasible nodes (all when feasible is nil), as upstream's score tests.
func normalizedScores(t testing.TB, pl *Plugin, snap *framework.Snapshot, pod *api.Pod, feasible []string) map[string]int64 {
	t.Helper()
	if feasible == nil {
		for _, ni := range snap.Nodes() {
			feasible = append(feasible, ni.Node.Name)
		}
	}
	var infos []*framework.NodeInfo
	for _, n := range feasible {
		infos = append(infos, snap.Get(n))
	}
	state := framework.NewCycleState()
	pi := framework.NewPodInfo(pod)
	out := map[string]int64{}
	st := pl.PreScore(state, pi, snap, infos)
	if st.IsSkip() {
		for _, n := range feasible {
			out[n] = 0 // a skipped plugin contributes 0 (as the oracle reports it)
		}
		return out
	}
	if !st.IsSuccess() {
		t.Fatalf("PreScore: %v", st.Message())
	}
	scores := make([]framework.NodeScore, len(infos))
	for i, ni := range infos {
		s, st := pl.Score(state, pi, ni)
		if !st.IsSuccess() {
			t.Fatalf("Score(%s): %v", ni.Node.Name, st.Message())
		}
		scores[i] = framework.NodeScore{Name: ni.Node.Name, Index: ni.Index, Score: s}
	}
	if st := pl.NormalizeScore(state, pi, scores); !st.IsSuccess() {
		t.Fatalf("NormalizeScore: %v", st.Message())
	}
	for _, s := range scores {
		out[s.Name] = s.Score
	}
	return out
}

func codes(kv ...any) map[string]framework.Code {
	m := map[string]framework.Code{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(framework.Code)
	}
	return m
}

const (
	ok     = framework.Success
	unsch  = framework.Unschedulable
	unres  = framework.UnschedulableAndUnresolvable
	dns    = api.DoNotSchedule
	anyway = api.ScheduleAnyway
)

func diffCodes(got, want map[string]framework.Code) string {
	var keys []string
	for k := range want {
		keys = append(keys, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		if got[k] != want[k] {
			b.WriteString("  " + k + ": got " + got[k].String() + ", want " + want[k].String() + "\n")
		}
	}
	return b.String()
}

func newCycleState() *framework.CycleState { return framework.NewCycleState() }

func podInfo(p *api.Pod) *framework.PodInfo { return framework.NewPodInfo(p) }

const errorCode = framework.Error
