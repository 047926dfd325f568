package lab

import (
	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers"
)

// metricsSource is what the metrics read besides the engine's pods and
// nodes: the zone label, a controller's workload, a node's requested
// resources. A session gives its own (Session.metricsSource); a benchmark
// can record a bare engine.
type metricsSource struct {
	eng     *engine.Engine
	zoneKey string
	// owner is the workload of a pod's controller (Session.WorkloadOf);
	// kind "" for none.
	owner func(namespace, kind, name string) (wkind, wname string)
	// ownerMoves reports whether owner's answer for a controller kind
	// reads other objects, which can change while its pods do not (a
	// ReplicaSet deleted or orphaned): those are checked every sample.
	ownerMoves func(kind string) bool
	// requested is what the pods assigned to a node request (false: the
	// scheduler does not know the node).
	requested func(node string) (api.Resources, bool)
}

// metricsSource reads the session's current engine and controllers.
func (s *Session) metricsSource() metricsSource {
	return metricsSource{
		eng:     s.eng,
		zoneKey: s.zoneLabel(),
		owner:   s.workloadOfOwner,
		ownerMoves: func(kind string) bool {
			return kind == controllers.KindReplicaSet || kind == controllers.KindJob
		},
		requested: func(node string) (api.Resources, bool) {
			req, _, ok := s.NodeRequested(node)
			return req, ok
		},
	}
}

// sample records the cluster now. Going back in time (undo, rewind,
// replay) first forgets what was recorded after now; another engine (an
// undo, a checkpoint, a fork's lane) gets a tracker of its own.
func (m *Metrics) sample(eng *engine.Engine, source func() metricsSource) {
	if m.shadow != nil {
		m.shadow.sample(eng, source)
	}
	now := eng.Now()
	if m.sampled && now < m.last {
		m.truncate(now)
		m.dropTracker()
	}
	m.sampled, m.last = true, now
	switch {
	case m.fullPass != nil:
		src := source()
		m.stamp++
		m.fullPass(m, &src, now)
	case m.tr == nil || m.tr.stale(eng):
		m.dropTracker()
		m.tr = newTracker(source())
		m.stamp++
		m.tr.rebuild(m, now)
	case m.tr.quiet():
		return
	default:
		m.stamp++
		m.tr.update(m, now)
	}
	m.shrink()
}

func (m *Metrics) dropTracker() {
	if m.tr != nil {
		m.tr.cancel()
		m.tr = nil
	}
}

// tracker keeps what a sample reports — pending and running pods, per
// workload its pods per node and per domain of each topology key, node
// requests, evictions and preemptions — up to date from the engine's
// change notifications (engine.Watcher), so that a sample costs what
// changed since the last one, not a pass over every pod. Each pod's last
// contribution is remembered (podSeen): a change subtracts it and adds
// the new one. Equivalent to the reference pass over every pod
// (metrics_reference_test.go), which it replaced.
type tracker struct {
	src    metricsSource
	cancel func()
	// changes reported since the last sample (a key may repeat); past
	// maxQueued the queue is dropped and the tracker rebuilt
	dirtyPods, dirtyNodes []string
	overflow              bool

	pods      map[string]podSeen
	owners    map[ownerKey]*ownerState
	workloads map[string]*wlState
	keys      map[string]*keyDomains
	nodes     map[string]*nodeSeries

	// what the next report looks at, and series that may have stopped
	// being reported (a deleted workload, a removed node or domain)
	touchedW []*wlState
	touchedN []string
	gone     []*Series

	pending, running    int
	evictions, preempts int
	events              int
	global              [4]*Series // evictions, preemptions, pending, running
}

// podSeen is a pod as last counted.
type podSeen struct {
	pod   *api.Pod
	state engine.PodState
	owner *ownerState
}

// ownerKey is a pod's controller.
type ownerKey struct{ ns, kind, name string }

// ownerState is a controller with counted pods and the workload they
// count for (nil: none).
type ownerState struct {
	key          ownerKey
	wkind, wname string
	w            *wlState
	pods         int
}

// wlState is a workload's counts and its series.
type wlState struct {
	name             string
	pods             int // every pod, whatever its state
	pending, running int
	// perNode counts its bound, live pods per node (terminating and
	// finished ones do not count, as in the spread report)
	perNode map[string]int
	// keyRefs counts the spread constraints per topology key over its
	// pods; spreads has the zone key and every key with a count
	keyRefs            map[string]int
	spreads            []*spreadCounts
	touched            bool
	sPending, sRunning *Series
}

// keyDomains is a topology key's domains: every node with the key is a
// domain (as in the spread report).
type keyDomains struct {
	key   string
	of    map[string]string // node → its domain
	size  map[string]int    // domain → its nodes
	users map[*wlState]struct{}
}

// spreadCounts is a workload's pods per domain of one key, with how many
// domains hold each count so that min and max follow each change.
type spreadCounts struct {
	key    string
	kd     *keyDomains
	counts map[string]int
	hist   map[int]int
	lo, hi int
	skew   *Series
	pods   map[string]*Series // per domain, for the zone key
}

// nodeSeries is a node's two series.
type nodeSeries struct{ cpu, mem *Series }

func newTracker(src metricsSource) *tracker {
	t := &tracker{
		src:       src,
		pods:      map[string]podSeen{},
		owners:    map[ownerKey]*ownerState{},
		workloads: map[string]*wlState{},
		keys:      map[string]*keyDomains{},
		nodes:     map[string]*nodeSeries{},
	}
	t.cancel = src.eng.Watch(t)
	return t
}

// PodChanged implements engine.Watcher.
func (t *tracker) PodChanged(key string) {
	if t.overflow {
		return
	}
	t.dirtyPods = append(t.dirtyPods, key)
	t.checkQueue()
}

// NodeChanged implements engine.Watcher.
func (t *tracker) NodeChanged(name string) {
	if t.overflow {
		return
	}
	t.dirtyNodes = append(t.dirtyNodes, name)
	t.checkQueue()
}

// checkQueue bounds the queue of changes (an engine run long without a
// sample): past a few times the pods, rebuilding is cheaper.
func (t *tracker) checkQueue() {
	if len(t.dirtyPods)+len(t.dirtyNodes) > 4*len(t.pods)+4096 {
		t.overflow = true
		t.dirtyPods, t.dirtyNodes = nil, nil
	}
}

// stale reports that the tracker must be rebuilt: another engine, too
// many changes queued, or events gone (not the history it counted).
func (t *tracker) stale(eng *engine.Engine) bool {
	return t.src.eng != eng || t.overflow || len(eng.Events()) < t.events
}

// quiet reports that nothing a sample reads changed since the last one.
func (t *tracker) quiet() bool {
	if len(t.dirtyPods) > 0 || len(t.dirtyNodes) > 0 || len(t.src.eng.Events()) != t.events {
		return false
	}
	if t.src.ownerMoves != nil {
		for _, o := range t.owners {
			if t.src.ownerMoves(o.key.kind) {
				if k, n := t.src.owner(o.key.ns, o.key.kind, o.key.name); k != o.wkind || n != o.wname {
					return false
				}
			}
		}
	}
	return true
}

// rebuild counts every node and pod of the engine and reports every
// series, as the reference pass does.
func (t *tracker) rebuild(m *Metrics, now api.Time) {
	t.keyDomainsOf(t.src.zoneKey)
	for _, n := range t.src.eng.Nodes() {
		t.touchedN = append(t.touchedN, n.Name)
	}
	t.src.eng.EachPod(func(p *api.Pod, st engine.PodState) {
		o := t.ownerOf(p)
		t.apply(p, st, o, 1)
		t.pods[p.Key()] = podSeen{pod: p, state: st, owner: o}
	})
	t.countEvents()
	t.report(m, now)
	// a series of an earlier engine that the state now does not report
	// drops to 0
	for k, sr := range m.series {
		if sr.stamp != m.stamp && len(sr.Points) > 0 && sr.Points[len(sr.Points)-1].V != 0 {
			m.put(k, sr.Name, sr.Labels, now, 0)
		}
	}
}

// update applies the changes since the last sample and reports what
// they touched.
func (t *tracker) update(m *Metrics, now api.Time) {
	for _, name := range t.dirtyNodes {
		t.nodeChanged(name)
	}
	for _, key := range t.dirtyPods {
		t.podChanged(key)
	}
	t.dirtyNodes, t.dirtyPods = t.dirtyNodes[:0], t.dirtyPods[:0]
	if t.src.ownerMoves != nil {
		t.checkOwners()
	}
	t.countEvents()
	t.report(m, now)
}

func (t *tracker) countEvents() {
	evs := t.src.eng.EventsSince(t.events)
	for _, e := range evs {
		switch e.Reason {
		case engine.ReasonEvicted, engine.ReasonTaintManagerEviction:
			t.evictions++
		case engine.ReasonPreempted:
			t.preempts++
		}
	}
	t.events += len(evs)
}

// podChanged subtracts what the pod counted for and adds what it counts
// for now.
func (t *tracker) podChanged(key string) {
	seen, had := t.pods[key]
	p := t.src.eng.Pod(key)
	var st engine.PodState
	if p != nil {
		st, _ = t.src.eng.PodState(key)
	}
	if had && seen.pod == p && seen.state == st {
		return // reported twice
	}
	if had {
		t.apply(seen.pod, seen.state, seen.owner, -1)
		if seen.owner != nil && seen.owner.pods == 0 {
			delete(t.owners, seen.owner.key)
		}
		if n := seen.pod.Spec.NodeName; n != "" {
			t.touchedN = append(t.touchedN, n)
		}
	}
	if p == nil {
		delete(t.pods, key)
		return
	}
	o := t.ownerOf(p)
	t.apply(p, st, o, 1)
	t.pods[key] = podSeen{pod: p, state: st, owner: o}
	if n := p.Spec.NodeName; n != "" {
		t.touchedN = append(t.touchedN, n)
	}
}

// countedNode is the node a pod counts on in its workload's spread: bound,
// not terminating, not finished.
func countedNode(p *api.Pod) string {
	if p.DeletionTimestamp != nil || p.IsTerminal() {
		return ""
	}
	return p.Spec.NodeName
}

// apply adds (sign 1) or subtracts (-1) a pod's contribution.
func (t *tracker) apply(p *api.Pod, st engine.PodState, o *ownerState, sign int) {
	switch st {
	case engine.StatePending:
		t.pending += sign
	case engine.StateRunning:
		t.running += sign
	}
	if o == nil {
		return
	}
	o.pods += sign
	w := o.w
	if w == nil {
		return
	}
	w.pods += sign
	switch st {
	case engine.StatePending:
		w.pending += sign
	case engine.StateRunning:
		w.running += sign
	}
	t.touch(w)
	if node := countedNode(p); node != "" {
		c := w.perNode[node] + sign
		if c == 0 {
			delete(w.perNode, node)
		} else {
			w.perNode[node] = c
		}
		for _, sc := range w.spreads {
			if d, ok := sc.kd.of[node]; ok {
				sc.add(d, sign)
			}
		}
	}
	// keys after the node: a key's counts start from perNode
	for _, c := range p.Spec.TopologySpreadConstraints {
		k := c.TopologyKey
		n := w.keyRefs[k] + sign
		if n == 0 {
			delete(w.keyRefs, k)
		} else {
			w.keyRefs[k] = n
		}
		if k == t.src.zoneKey {
			continue // always there
		}
		if sign > 0 && n == 1 {
			t.addKey(w, k)
		} else if sign < 0 && n == 0 {
			t.removeKey(w, k)
		}
	}
}

func (t *tracker) touch(w *wlState) {
	if !w.touched {
		w.touched = true
		t.touchedW = append(t.touchedW, w)
	}
}

// ownerOf is the pod's controller, resolved to its workload once.
func (t *tracker) ownerOf(p *api.Pod) *ownerState {
	ref := p.ControllerRef()
	if ref == nil {
		return nil
	}
	k := ownerKey{p.Namespace, ref.Kind, ref.Name}
	if o := t.owners[k]; o != nil {
		return o
	}
	o := &ownerState{key: k}
	t.resolve(o)
	t.owners[k] = o
	return o
}

func (t *tracker) resolve(o *ownerState) {
	o.wkind, o.wname = t.src.owner(o.key.ns, o.key.kind, o.key.name)
	o.w = nil
	if o.wkind != "" {
		o.w = t.workload(Workload{Kind: o.wkind, Namespace: o.key.ns, Name: o.wname}.Ref())
	}
}

// checkOwners moves the pods of a controller whose workload changed (its
// ReplicaSet deleted or orphaned) to the workload it has now.
func (t *tracker) checkOwners() {
	for _, o := range t.owners {
		if !t.src.ownerMoves(o.key.kind) {
			continue
		}
		if k, n := t.src.owner(o.key.ns, o.key.kind, o.key.name); k == o.wkind && n == o.wname {
			continue
		}
		var keys []string
		for key, seen := range t.pods {
			if seen.owner == o {
				keys = append(keys, key)
				t.apply(seen.pod, seen.state, o, -1)
			}
		}
		t.resolve(o)
		for _, key := range keys {
			seen := t.pods[key]
			t.apply(seen.pod, seen.state, o, 1)
		}
	}
}

func (t *tracker) workload(name string) *wlState {
	if w := t.workloads[name]; w != nil {
		return w
	}
	w := &wlState{name: name, perNode: map[string]int{}, keyRefs: map[string]int{}}
	t.workloads[name] = w
	t.addKey(w, t.src.zoneKey)
	t.touch(w)
	return w
}

// keyDomainsOf is a key's domains, from the nodes when first asked.
func (t *tracker) keyDomainsOf(key string) *keyDomains {
	if kd := t.keys[key]; kd != nil {
		return kd
	}
	kd := &keyDomains{key: key, of: map[string]string{}, size: map[string]int{}, users: map[*wlState]struct{}{}}
	for _, n := range t.src.eng.Nodes() {
		if v, ok := n.Labels[key]; ok {
			kd.of[n.Name] = v
			kd.size[v]++
		}
	}
	t.keys[key] = kd
	return kd
}

// addKey starts counting a workload's pods per domain of key.
func (t *tracker) addKey(w *wlState, key string) {
	kd := t.keyDomainsOf(key)
	sc := &spreadCounts{key: key, kd: kd, counts: make(map[string]int, len(kd.size)), hist: map[int]int{}}
	for d := range kd.size {
		sc.counts[d] = 0
	}
	for node, c := range w.perNode {
		if d, ok := kd.of[node]; ok {
			sc.counts[d] += c
		}
	}
	for _, c := range sc.counts {
		sc.hist[c]++
	}
	sc.bounds()
	w.spreads = append(w.spreads, sc)
	kd.users[w] = struct{}{}
	t.touch(w)
}

// removeKey stops counting per domain of key: the skew series stops.
func (t *tracker) removeKey(w *wlState, key string) {
	for i, sc := range w.spreads {
		if sc.key == key {
			t.goneSpread(sc)
			w.spreads = append(w.spreads[:i], w.spreads[i+1:]...)
			delete(sc.kd.users, w)
			t.touch(w)
			return
		}
	}
}

func (t *tracker) goneSpread(sc *spreadCounts) {
	if sc.skew != nil {
		t.gone = append(t.gone, sc.skew)
	}
	for _, sr := range sc.pods {
		t.gone = append(t.gone, sr)
	}
}

func (w *wlState) spread(key string) *spreadCounts {
	for _, sc := range w.spreads {
		if sc.key == key {
			return sc
		}
	}
	return nil
}

// nodeChanged follows a node into, out of and between the domains of
// every key counted, moving its pods' counts with it.
func (t *tracker) nodeChanged(name string) {
	t.touchedN = append(t.touchedN, name)
	n := t.src.eng.Node(name)
	for _, kd := range t.keys {
		old, had := kd.of[name]
		var v string
		has := false
		if n != nil {
			v, has = n.Labels[kd.key]
		}
		if had == has && old == v {
			continue
		}
		if has {
			if kd.size[v] == 0 {
				for w := range kd.users {
					w.spread(kd.key).addDomain(v)
					t.touch(w)
				}
			}
			kd.size[v]++
			kd.of[name] = v
		} else {
			delete(kd.of, name)
		}
		for w := range kd.users {
			if c := w.perNode[name]; c != 0 {
				sc := w.spread(kd.key)
				if had {
					sc.add(old, -c)
				}
				if has {
					sc.add(v, c)
				}
				t.touch(w)
			}
		}
		if had {
			if kd.size[old]--; kd.size[old] == 0 {
				delete(kd.size, old)
				for w := range kd.users {
					sc := w.spread(kd.key)
					sc.removeDomain(old)
					if sr := sc.pods[old]; sr != nil {
						t.gone = append(t.gone, sr)
						delete(sc.pods, old)
					}
					t.touch(w)
				}
			}
		}
	}
}

func (sc *spreadCounts) addDomain(d string) {
	sc.counts[d] = 0
	sc.hist[0]++
	sc.bounds()
}

func (sc *spreadCounts) removeDomain(d string) {
	c := sc.counts[d]
	delete(sc.counts, d)
	sc.unhist(c)
	sc.bounds()
}

// add changes domain d's count by delta.
func (sc *spreadCounts) add(d string, delta int) {
	c := sc.counts[d]
	sc.counts[d] = c + delta
	sc.unhist(c)
	sc.hist[c+delta]++
	if c+delta < sc.lo {
		sc.lo = c + delta
	}
	if c+delta > sc.hi {
		sc.hi = c + delta
	}
	if (c == sc.lo || c == sc.hi) && sc.hist[c] == 0 {
		sc.bounds()
	}
}

func (sc *spreadCounts) unhist(c int) {
	if sc.hist[c]--; sc.hist[c] == 0 {
		delete(sc.hist, c)
	}
}

// bounds sets lo and hi from the histogram (its distinct counts).
func (sc *spreadCounts) bounds() {
	first := true
	for c := range sc.hist {
		if first {
			sc.lo, sc.hi, first = c, c, false
			continue
		}
		sc.lo, sc.hi = min(sc.lo, c), max(sc.hi, c)
	}
}

// report puts every touched series at this sample, then drops to 0 the
// series that stopped being reported.
func (t *tracker) report(m *Metrics, now api.Time) {
	globals := [4]struct {
		name string
		v    int
	}{{"evictions", t.evictions}, {"preemptions", t.preempts}, {"pending", t.pending}, {"running", t.running}}
	for i, g := range globals {
		t.global[i] = m.reportOrCreate(t.global[i], seriesID{name: g.name}, now, float64(g.v))
	}
	for _, name := range t.touchedN {
		t.reportNode(m, name, now)
	}
	for _, w := range t.touchedW {
		t.reportWorkload(m, w, now)
	}
	for _, sr := range t.gone {
		if sr.stamp != m.stamp {
			m.putSeries(sr, now, 0)
		}
	}
	t.touchedN, t.touchedW, t.gone = t.touchedN[:0], t.touchedW[:0], t.gone[:0]
}

// reportOrCreate reports a cached series, or finds (creates) it first.
func (m *Metrics) reportOrCreate(sr *Series, id seriesID, now api.Time, v float64) *Series {
	if sr == nil {
		return m.putCached(id, now, v)
	}
	m.report(sr, now, v)
	return sr
}

func (t *tracker) reportNode(m *Metrics, name string, now api.Time) {
	ns := t.nodes[name]
	if ns != nil && ns.cpu != nil && ns.cpu.stamp == m.stamp && ns.mem != nil && ns.mem.stamp == m.stamp {
		return // already reported at this sample
	}
	n := t.src.eng.Node(name)
	var req api.Resources
	ok := n != nil
	if ok {
		req, ok = t.src.requested(name)
	}
	if !ok {
		if ns != nil {
			for _, sr := range []*Series{ns.cpu, ns.mem} {
				if sr != nil {
					t.gone = append(t.gone, sr)
				}
			}
			delete(t.nodes, name)
		}
		return
	}
	if ns == nil {
		ns = &nodeSeries{}
		t.nodes[name] = ns
	}
	alloc := api.ResourcesOf(n.Status.Allocatable)
	node := labelPair{k1: "node", v1: name}
	ns.cpu = m.reportOrCreate(ns.cpu, seriesID{"node_cpu_requested_percent", node}, now, percent(req.MilliCPU, alloc.MilliCPU))
	ns.mem = m.reportOrCreate(ns.mem, seriesID{"node_memory_requested_percent", node}, now, percent(req.Memory, alloc.Memory))
}

func (t *tracker) reportWorkload(m *Metrics, w *wlState, now api.Time) {
	w.touched = false
	if w.pods == 0 {
		// its last pod is gone: so are its series
		for _, sr := range []*Series{w.sPending, w.sRunning} {
			if sr != nil {
				t.gone = append(t.gone, sr)
			}
		}
		for _, sc := range w.spreads {
			t.goneSpread(sc)
			delete(sc.kd.users, w)
		}
		delete(t.workloads, w.name)
		return
	}
	wl := labelPair{k1: "workload", v1: w.name}
	w.sPending = m.reportOrCreate(w.sPending, seriesID{"pending", wl}, now, float64(w.pending))
	w.sRunning = m.reportOrCreate(w.sRunning, seriesID{"running", wl}, now, float64(w.running))
	for _, sc := range w.spreads {
		if len(sc.counts) == 0 {
			// no node has the key: no skew to report
			if sc.skew != nil {
				t.gone = append(t.gone, sc.skew)
			}
			continue
		}
		sc.skew = m.reportOrCreate(sc.skew, seriesID{"skew", labelPair{k1: "key", v1: sc.key, k2: "workload", v2: w.name}}, now, float64(sc.hi-sc.lo))
		if sc.key != t.src.zoneKey {
			continue
		}
		if sc.pods == nil {
			sc.pods = make(map[string]*Series, len(sc.counts))
		}
		for d, c := range sc.counts {
			sr := m.reportOrCreate(sc.pods[d], seriesID{"pods", labelPair{k1: "workload", v1: w.name, k2: "zone", v2: d}}, now, float64(c))
			if sr != nil {
				sc.pods[d] = sr
			}
		}
	}
}
