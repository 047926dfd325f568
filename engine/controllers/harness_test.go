package controllers

import (
	"container/heap"
	"fmt"
	"sort"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
)

// fakeCluster is a tiny stand-in for the engine in these tests: pods are
// bound at once to a feasible node (placement picks it), start after
// startDelay, turn ready readyDelay later and vanish their grace period
// after deletion. It checks nothing about scheduling fidelity; the
// engine's own tests run the controllers with the real scheduler.
type fakeCluster struct {
	t          testing.TB
	now        api.Time
	nodes      []*api.Node
	pods       map[string]*api.Pod
	events     []Event
	startDelay time.Duration
	readyDelay time.Duration
	grace      *time.Duration // overrides the pods' own grace when set
	place      func(fc *fakeCluster, p *api.Pod) string
	// pending transitions, a heap ordered by (at, seq)
	timers timerHeap
	seq    int
	m      *Manager
	// afterInstant runs after every Reconcile (invariant checks).
	afterInstant func(now api.Time)
	noSchedule   bool
}

type timer struct {
	at  api.Time
	seq int
	fn  func()
}

type timerHeap []timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}
func (h timerHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *timerHeap) Push(x any)   { *h = append(*h, x.(timer)) }
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	*h = old[:len(old)-1]
	return t
}

func newFakeCluster(t testing.TB, nodes ...*api.Node) *fakeCluster {
	fc := &fakeCluster{t: t, nodes: nodes, pods: map[string]*api.Pod{}, startDelay: time.Second, readyDelay: 2 * time.Second}
	fc.place = leastPodsPlacement
	fc.m = New(fc, 1)
	return fc
}

func mkNode(name string, labels map[string]string) *api.Node {
	l := map[string]string{api.LabelHostname: name}
	for k, v := range labels {
		l[k] = v
	}
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: l}}
}

func (fc *fakeCluster) Pods(ns string) []*api.Pod {
	out := make([]*api.Pod, 0, len(fc.pods))
	for _, p := range fc.pods {
		if ns == "" || p.Namespace == ns {
			out = append(out, p)
		}
	}
	return out
}

func (fc *fakeCluster) Nodes() []*api.Node { return fc.nodes }

func (fc *fakeCluster) after(d time.Duration, fn func()) {
	fc.seq++
	heap.Push(&fc.timers, timer{at: fc.now.Add(d), seq: fc.seq, fn: fn})
}

func (fc *fakeCluster) CreatePod(p *api.Pod) error {
	if _, ok := fc.pods[p.Key()]; ok {
		return fmt.Errorf("pods %q already exists", p.Name)
	}
	api.DefaultPod(p)
	fc.pods[p.Key()] = p
	if !fc.noSchedule {
		fc.schedule(p)
	}
	return nil
}

// schedule binds a pending pod and starts it.
func (fc *fakeCluster) schedule(p *api.Pod) {
	if p.Spec.NodeName == "" {
		p.Spec.NodeName = fc.place(fc, p)
	}
	if p.Spec.NodeName == "" {
		return
	}
	fc.startPod(p)
}

func (fc *fakeCluster) startPod(p *api.Pod) {
	fc.after(fc.startDelay, func() {
		if p.DeletionTimestamp != nil || fc.pods[p.Key()] != p {
			return
		}
		p.Status.Phase = api.PodRunning
		t := fc.now
		p.Status.StartTime = &t
		if p.Annotations["test/never-ready"] != "" {
			return
		}
		fc.after(fc.readyDelay, func() {
			if p.DeletionTimestamp != nil || fc.pods[p.Key()] != p || p.IsTerminal() {
				return
			}
			p.Status.Conditions = append(p.Status.Conditions, api.Condition{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: fc.now})
		})
	})
}

func (fc *fakeCluster) DeletePod(ns, name string) error {
	p, ok := fc.pods[key(ns, name)]
	if !ok {
		return fmt.Errorf("pods %q not found", name)
	}
	if p.DeletionTimestamp != nil {
		return nil
	}
	t := fc.now
	p.DeletionTimestamp = &t
	g := time.Duration(*p.Spec.TerminationGracePeriodSeconds) * time.Second
	if fc.grace != nil {
		g = *fc.grace
	}
	if p.Spec.NodeName == "" || p.IsTerminal() {
		g = 0
	}
	fc.after(g, func() { delete(fc.pods, p.Key()) })
	return nil
}

func (fc *fakeCluster) SetPodOwnership(ns, name string, labels map[string]string, refs []api.OwnerReference) error {
	p, ok := fc.pods[key(ns, name)]
	if !ok {
		return fmt.Errorf("pods %q not found", name)
	}
	p.Labels, p.OwnerReferences = labels, refs
	return nil
}

func (fc *fakeCluster) FinishPod(ns, name, phase, reason string) error {
	p, ok := fc.pods[key(ns, name)]
	if !ok {
		return fmt.Errorf("pods %q not found", name)
	}
	p.Status.Phase, p.Status.Reason = phase, reason
	p.Status.Conditions = nil
	return nil
}

func (fc *fakeCluster) Record(e Event) { fc.events = append(fc.events, e) }

// addPod adds a pre-existing pod (as if from the scenario file).
func (fc *fakeCluster) addPod(p *api.Pod) {
	api.DefaultPod(p)
	fc.pods[p.Key()] = p
}

// runUntil reconciles at now and then steps through timers and wake-ups
// until t (inclusive).
func (fc *fakeCluster) runUntil(t api.Time) {
	fc.m.Start()
	fc.reconcile()
	for {
		next, ok := fc.nextTime()
		if !ok || next > t {
			break
		}
		fc.now = next
		fc.fire()
		fc.reconcile()
	}
	if fc.now < t {
		fc.now = t
	}
	fc.m.SetNow(fc.now)
}

func (fc *fakeCluster) reconcile() {
	fc.m.Reconcile(fc.now)
	if fc.afterInstant != nil {
		fc.afterInstant(fc.now)
	}
}

func (fc *fakeCluster) nextTime() (api.Time, bool) {
	var best api.Time
	ok := false
	if len(fc.timers) > 0 {
		best, ok = fc.timers[0].at, true
	}
	if w, has := fc.m.NextWake(); has && (!ok || w < best) {
		best, ok = w, true
	}
	return best, ok
}

func (fc *fakeCluster) fire() {
	for len(fc.timers) > 0 && fc.timers[0].at <= fc.now {
		heap.Pop(&fc.timers).(timer).fn()
	}
}

// leastPodsPlacement picks the feasible node with the fewest live pods
// (ties by name): nodeSelector/required node affinity, NoSchedule/NoExecute
// taints and cordons respected.
func leastPodsPlacement(fc *fakeCluster, p *api.Pod) string {
	count := map[string]int{}
	for _, q := range fc.pods {
		if q.Spec.NodeName != "" && q.DeletionTimestamp == nil && !q.IsTerminal() {
			count[q.Spec.NodeName]++
		}
	}
	best := ""
	for _, n := range fc.nodes {
		if !fakeFeasible(p, n) {
			continue
		}
		if best == "" || count[n.Name] < count[best] {
			best = n.Name
		}
	}
	return best
}

func fakeFeasible(p *api.Pod, n *api.Node) bool {
	if !api.PodMatchesNodeSelectorAndAffinityTerms(p, n) {
		return false
	}
	taints := append([]api.Taint(nil), n.Spec.Taints...)
	if n.Spec.Unschedulable {
		taints = append(taints, api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule})
	}
	_, bad := api.FindUntoleratedTaint(taints, p.Spec.Tolerations, func(t *api.Taint) bool {
		return t.Effect == api.TaintEffectNoSchedule || t.Effect == api.TaintEffectNoExecute
	})
	return !bad
}

// podsOf returns live pods whose names start with prefix, sorted by name.
func (fc *fakeCluster) podsWith(pred func(*api.Pod) bool) []*api.Pod {
	var out []*api.Pod
	for _, p := range fc.pods {
		if pred(p) {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (fc *fakeCluster) eventMessages(reason string) []string {
	var out []string
	for _, e := range fc.events {
		if reason == "" || e.Reason == reason {
			out = append(out, e.Message)
		}
	}
	return out
}

func labelSel(kv ...string) *api.LabelSelector {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return &api.LabelSelector{MatchLabels: m}
}

func template(image string, kv ...string) api.PodTemplateSpec {
	l := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		l[kv[i]] = kv[i+1]
	}
	return api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: l},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: image}}}}
}

func intStr(s string) *api.IntOrString {
	var v api.IntOrString
	if n, err := fmt.Sscanf(s, "%d", &v.IntVal); err == nil && n == 1 && s[len(s)-1] != '%' {
		return &v
	}
	return &api.IntOrString{IsString: true, StrVal: s}
}
