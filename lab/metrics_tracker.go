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
	// changes reported since the last sample (a key may repeat); past a
	// few times the pods (checkQueue) the queue is dropped and the
	// tracker rebuilt
	dirtyPods  []dirtyPod
	dirtyNodes []string
	overflow   bool

	// pods by the engine's number (engine.PodID; nil: none): a slice, not
	// a map probed by the pod's key, as the node ids below; npods counts
	// them
	pods      []*podSeen
	npods     int
	owners    map[ownerKey]*ownerState
	workloads map[string]*wlState
	keys      map[string]*keyDomains
	// nodes are numbered once (nodeID), so that what is kept per node is
	// a slice indexed by its id, not a map probed by its name per change
	ids       map[string]int32
	nodeNames []string     // id → name
	nodes     []nodeSeries // id → its series

	// what the next report looks at, and series that may have stopped
	// being reported (a deleted workload, a removed node or domain)
	touchedW []*wlState
	touchedN []int32 // node ids
	gone     []*Series

	pending, running    int
	evictions, preempts int
	events              int
	global              [4]*Series // evictions, preemptions, pending, running
	globalLast          [4]int     // their values last reported
}

// dirtyPod is a pod told changed: its key and number.
type dirtyPod struct {
	key string
	id  engine.PodID
}

// podSeen is a pod as last counted, with what it counted for copied out
// of its object (reading the old object again costs cache misses). 64
// bytes, one cache line: a pod's change reads all of it. Its spread
// constraints and owner references are those of pod (pods are never
// edited in place): only their first element's address and their length
// are kept, to tell a new object of the same pod.
type podSeen struct {
	pod     *api.Pod
	owner   *ownerState
	node    string                        // spec.nodeName
	tsc0    *api.TopologySpreadConstraint // &pod.Spec.TopologySpreadConstraints[0] (nil: none)
	ref0    *api.OwnerReference           // &pod.OwnerReferences[0] (nil: none)
	nodeID  int32                         // its id (-1: none)
	counted int32                         // the id of countedNode (-1: none)
	state   int32                         // an engine.PodState
	ntsc    uint16                        // len of the constraints (saturated)
	nrefs   uint16                        // len of the owner references (saturated)
}

// podState is the state the pod was counted in.
func (seen *podSeen) podState() engine.PodState { return engine.PodState(seen.state) }

// set records the pod as counted now; the node's id is looked up only
// when its node is not the one seen before.
func (t *tracker) set(seen *podSeen, p *api.Pod, st engine.PodState, o *ownerState) {
	node, id := p.Spec.NodeName, seen.nodeID
	if seen.pod == nil || node != seen.node {
		id = t.nodeID(node)
	}
	counted := id
	if countedNode(p) == "" {
		counted = -1
	}
	*seen = podSeen{pod: p, state: int32(st), owner: o, node: node, nodeID: id, counted: counted,
		ntsc: saturate16(len(p.Spec.TopologySpreadConstraints)), nrefs: saturate16(len(p.OwnerReferences))}
	if len(p.Spec.TopologySpreadConstraints) > 0 {
		seen.tsc0 = &p.Spec.TopologySpreadConstraints[0]
	}
	if len(p.OwnerReferences) > 0 {
		seen.ref0 = &p.OwnerReferences[0]
	}
}

// saturate16 is n, or the largest uint16 (a length that never matches
// the fast comparisons, which then look at the objects).
func saturate16(n int) uint16 { return uint16(min(n, 1<<16-1)) }

// nodeID numbers a node when first seen ("": -1).
func (t *tracker) nodeID(name string) int32 {
	if name == "" {
		return -1
	}
	if id, ok := t.ids[name]; ok {
		return id
	}
	id := int32(len(t.nodeNames))
	t.ids[name] = id
	t.nodeNames = append(t.nodeNames, name)
	t.nodes = append(t.nodes, nodeSeries{})
	return id
}

// inSnapshot tells whether the pod is among its node's pods in the
// scheduler's snapshot (what the node's requests sum): bound and not
// finished. A pod whose membership and node did not change leaves its
// node's requests as they were.
func (seen *podSeen) inSnapshot() bool {
	return seen.node != "" && seen.podState() != engine.StateTerminated
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

// wlState is a workload's counts and its series. What a pod's change
// reads and writes comes first: the counts and the zone key's per-domain
// counts, kept in the struct itself (zone) rather than behind a pointer.
// It keeps no count per node: a pod moving node would write a line of
// its own for it (a cache miss a move), while the only readers — a key
// added, a node moving between domains — are rare and count the pods as
// counted instead (addKey, nodeChanged).
type wlState struct {
	pods             int // every pod, whatever its state
	pending, running int
	touched          bool
	// zone counts its pods per domain of the zone key; it is spreads[0]
	zone spreadCounts
	// keyRefs counts the spread constraints per topology key over its
	// pods; spreads has the zone key and every key with a count
	spreads            []*spreadCounts
	name               string
	keyRefs            map[string]int
	sPending, sRunning *Series
	// the values last reported (a touched workload whose counts did not
	// move reports nothing)
	repPending, repRunning int
}

// nodeSeries is a node's two series, and its allocatable as of the node
// object it was read from; the tracker keeps them in a slice by node id,
// one 64-byte element each (TestNodeSeriesIsOneLine).
type nodeSeries struct {
	cpu, mem *Series
	// allocatable cpu (millicores) and memory, valid while fresh
	allocCPU, allocMem int64
	// the values last reported
	cpuV, memV float64
	// the sample that last reported it (truncated: it is only compared
	// with the current one)
	stamp int32
	// live: the node has series; fresh: alloc is the node's current
	// allocatable (NodeChanged clears it)
	live, fresh bool
	_           [8]byte // to 64 bytes: an element never straddles two lines
}

func newTracker(src metricsSource) *tracker {
	t := &tracker{
		src:       src,
		owners:    map[ownerKey]*ownerState{},
		workloads: map[string]*wlState{},
		keys:      map[string]*keyDomains{},
		ids:       map[string]int32{},
	}
	t.cancel = src.eng.Watch(t)
	return t
}

// PodChangedID implements engine.PodIDWatcher. A pod told again soon
// after (created then bound, a new object then its state: half of what
// BenchmarkDay's churn tells) is not queued twice: update reads each
// pod's state at the sample, so a later copy of the same pod would find
// it counted as it is and do nothing.
func (t *tracker) PodChangedID(key string, id engine.PodID) {
	if t.overflow {
		return
	}
	for i := len(t.dirtyPods) - 1; i >= 0 && i >= len(t.dirtyPods)-4; i-- {
		if t.dirtyPods[i].id == id {
			return
		}
	}
	t.dirtyPods = append(t.dirtyPods, dirtyPod{key, id})
	t.checkQueue()
}

// PodChanged implements engine.Watcher. The engine tells the tracker the
// pod's number (PodChangedID); a change told without it cannot be
// placed, so the next sample rebuilds.
func (t *tracker) PodChanged(string) {
	t.overflow = true
	t.dirtyPods, t.dirtyNodes = nil, nil
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
	if len(t.dirtyPods)+len(t.dirtyNodes) > 4*t.npods+4096 {
		t.overflow = true
		t.dirtyPods, t.dirtyNodes = nil, nil
	}
}

// stale reports that the tracker must be rebuilt: another engine, too
// many changes queued, or events gone (not the history it counted).
func (t *tracker) stale(eng *engine.Engine) bool {
	return t.src.eng != eng || t.overflow || eng.EventCount() < t.events
}

// quiet reports that nothing a sample reads changed since the last one.
func (t *tracker) quiet() bool {
	if len(t.dirtyPods) > 0 || len(t.dirtyNodes) > 0 || t.src.eng.EventCount() != t.events {
		return false
	}
	if t.src.ownerMoves != nil {
		for _, o := range t.owners {
			if t.ownerMoved(o) {
				return false
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
		t.touchedN = append(t.touchedN, t.nodeID(n.Name))
	}
	t.src.eng.EachPodID(func(p *api.Pod, st engine.PodState, id engine.PodID) {
		seen := &podSeen{}
		t.set(seen, p, st, t.ownerOf(p))
		t.setSeen(id, seen) // before apply: a new key's counts include it
		t.apply(seen, 1)
	})
	t.countEvents()
	t.report(m, now)
	// a series of an earlier engine that the state now does not report
	// drops to 0
	m.flush() // the stamps
	for _, sr := range m.series {
		if last, ok := sr.Last(); sr.stamp != m.stamp && ok && last.V != 0 {
			m.putSeries(sr, now, 0)
		}
	}
}

// update applies the changes since the last sample and reports what
// they touched.
func (t *tracker) update(m *Metrics, now api.Time) {
	for _, name := range t.dirtyNodes {
		t.nodeChanged(name)
	}
	for _, d := range t.dirtyPods {
		t.podChanged(d.key, d.id)
	}
	t.dirtyNodes, t.dirtyPods = t.dirtyNodes[:0], t.dirtyPods[:0]
	if t.src.ownerMoves != nil {
		t.checkOwners()
	}
	t.countEvents()
	t.report(m, now)
}

func (t *tracker) countEvents() {
	t.src.eng.EachEventSince(t.events, func(e *engine.Event) {
		switch e.Reason {
		case engine.ReasonEvicted, engine.ReasonTaintManagerEviction:
			t.evictions++
		case engine.ReasonPreempted:
			t.preempts++
		}
	})
	t.events = t.src.eng.EventCount()
}

// podChanged subtracts what the pod counted for and adds what it counts
// for now (only the parts that moved, for a pod that keeps its owner).
func (t *tracker) podChanged(key string, id engine.PodID) {
	var seen *podSeen
	if int(id) < len(t.pods) {
		seen = t.pods[id]
	}
	p, st, cur := t.src.eng.PodWithStateID(key)
	if cur != id {
		p = nil // the key holds another pod now (told with its own number), or none
	}
	if seen == nil {
		if p == nil {
			return
		}
		seen = &podSeen{}
		t.set(seen, p, st, t.ownerOf(p))
		t.setSeen(id, seen) // before apply: a new key's counts include it
		t.apply(seen, 1)
		t.touchNode(-1, seen.nodeID, false, seen.inSnapshot())
		return
	}
	if seen.pod == p && seen.podState() == st {
		return // reported twice
	}
	if p == nil {
		t.apply(seen, -1)
		t.releaseOwner(seen.owner)
		t.touchNode(seen.nodeID, -1, seen.inSnapshot(), false)
		t.pods[id] = nil
		t.npods--
		return
	}
	was := *seen
	if seen.owner != nil && sameOwner(seen, p) && sameConstraints(seen, p.Spec.TopologySpreadConstraints) {
		t.set(seen, p, st, seen.owner)
		t.move(&was, seen)
	} else {
		t.apply(seen, -1)
		t.releaseOwner(seen.owner)
		t.set(seen, p, st, t.ownerOf(p))
		t.apply(seen, 1)
	}
	t.touchNode(was.nodeID, seen.nodeID, was.inSnapshot(), seen.inSnapshot())
}

// setSeen keeps a pod's podSeen under its number.
func (t *tracker) setSeen(id engine.PodID, seen *podSeen) {
	if int(id) >= len(t.pods) {
		t.pods = append(t.pods, make([]*podSeen, int(id)+1-len(t.pods))...)
	}
	t.pods[id] = seen
	t.npods++
}

func (t *tracker) releaseOwner(o *ownerState) {
	if o != nil && o.pods == 0 {
		delete(t.owners, o.key)
	}
}

// sameOwner: the pod's controller is the one it counted for (a new
// object of the same pod shares its owner references).
func sameOwner(seen *podSeen, p *api.Pod) bool {
	if len(p.OwnerReferences) == int(seen.nrefs) && seen.nrefs > 0 && &p.OwnerReferences[0] == seen.ref0 {
		return true
	}
	o := seen.owner
	ref := p.ControllerRef()
	return ref != nil && ref.Kind == o.key.kind && ref.Name == o.key.name && p.Namespace == o.key.ns
}

// sameConstraints: the pod's spread constraints cb are those it had (a
// new object of the same pod shares them).
func sameConstraints(seen *podSeen, cb []api.TopologySpreadConstraint) bool {
	if len(cb) == int(seen.ntsc) && (len(cb) == 0 || &cb[0] == seen.tsc0) {
		return true
	}
	ca := seen.pod.Spec.TopologySpreadConstraints
	if len(ca) != len(cb) {
		return false
	}
	for i := range ca {
		if ca[i].TopologyKey != cb[i].TopologyKey {
			return false
		}
	}
	return true
}

// move is apply(-1) then apply(1) for a pod whose owner and constraints
// are those it had: only its state and counted node can have moved.
func (t *tracker) move(was, now *podSeen) {
	w := now.owner.w
	if now.state != was.state {
		t.countState(was.podState(), w, -1)
		t.countState(now.podState(), w, 1)
	}
	if w != nil && was.counted != now.counted {
		t.countNode(w, was.counted, -1)
		t.countNode(w, now.counted, 1)
	}
}

// countState counts a pod's state in the totals and its workload's.
func (t *tracker) countState(st engine.PodState, w *wlState, sign int) {
	switch st {
	case engine.StatePending:
		t.pending += sign
		if w != nil {
			w.pending += sign
			t.touch(w)
		}
	case engine.StateRunning:
		t.running += sign
		if w != nil {
			w.running += sign
			t.touch(w)
		}
	}
}

// countNode counts a pod of w on node id (-1: none) in its spreads.
func (t *tracker) countNode(w *wlState, id int32, sign int) {
	if id < 0 {
		return
	}
	t.touch(w)
	// the zone's counts without reading spreads (its first element)
	if d := w.zone.kd.domainOf(id); d >= 0 {
		w.zone.add(d, sign)
	}
	for _, sc := range w.spreads[1:] {
		if d := sc.kd.domainOf(id); d >= 0 {
			sc.add(d, sign)
		}
	}
}

// touchNode marks the nodes whose requests a pod's change may have moved.
func (t *tracker) touchNode(oldNode, newNode int32, wasIn, isIn bool) {
	if oldNode == newNode && wasIn == isIn {
		return
	}
	if oldNode >= 0 {
		t.touchedN = append(t.touchedN, oldNode)
	}
	if newNode >= 0 && newNode != oldNode {
		t.touchedN = append(t.touchedN, newNode)
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
func (t *tracker) apply(seen *podSeen, sign int) {
	var w *wlState
	if o := seen.owner; o != nil {
		o.pods += sign
		w = o.w
	}
	t.countState(seen.podState(), w, sign)
	if w == nil {
		return
	}
	w.pods += sign
	t.touch(w)
	t.countNode(w, seen.counted, sign)
	// keys after the node: a new key's counts start from the pods as
	// counted, this one included (addKey)
	for _, c := range seen.pod.Spec.TopologySpreadConstraints {
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
		if !t.ownerMoved(o) {
			continue
		}
		var moved []*podSeen
		for _, seen := range t.pods {
			if seen != nil && seen.owner == o {
				moved = append(moved, seen)
				t.apply(seen, -1)
			}
		}
		// uncounted until applied again, one at a time: a key a pod adds
		// starts from the pods counted so far (addKey)
		for _, seen := range moved {
			seen.owner = nil
		}
		t.resolve(o)
		for _, seen := range moved {
			seen.owner = o
			t.apply(seen, 1)
		}
	}
}

// ownerMoved reports whether the controller's workload is no longer the
// one it was resolved to (only kinds for which ownerMoves says it can).
func (t *tracker) ownerMoved(o *ownerState) bool {
	if !t.src.ownerMoves(o.key.kind) {
		return false
	}
	k, n := t.src.owner(o.key.ns, o.key.kind, o.key.name)
	return k != o.wkind || n != o.wname
}

func (t *tracker) workload(name string) *wlState {
	if w := t.workloads[name]; w != nil {
		return w
	}
	w := &wlState{name: name, keyRefs: map[string]int{}}
	t.workloads[name] = w
	t.addKey(w, t.src.zoneKey)
	t.touch(w)
	return w
}

// report puts every touched series at this sample, then drops to 0 the
// series that stopped being reported.
func (t *tracker) report(m *Metrics, now api.Time) {
	globals := [4]struct {
		name string
		v    int
	}{{"evictions", t.evictions}, {"preemptions", t.preempts}, {"pending", t.pending}, {"running", t.running}}
	for i, g := range globals {
		if t.global[i] == nil || g.v != t.globalLast[i] {
			t.global[i] = m.reportOrCreate(t.global[i], seriesID{name: g.name}, now, float64(g.v))
			t.globalLast[i] = g.v
		}
	}
	for _, id := range t.touchedN {
		t.reportNode(m, id, now)
	}
	for _, w := range t.touchedW {
		t.reportWorkload(m, w, now)
	}
	if len(t.gone) > 0 {
		m.flush() // the stamps
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

func (t *tracker) reportNode(m *Metrics, id int32, now api.Time) {
	ns, name := &t.nodes[id], t.nodeNames[id]
	if ns.live && ns.stamp == int32(m.stamp) {
		return // already reported at this sample
	}
	ok := ns.fresh // NodeChanged clears it
	if !ok {
		if n := t.src.eng.Node(name); n != nil {
			alloc := api.ResourcesOf(n.Status.Allocatable)
			ns.allocCPU, ns.allocMem, ns.fresh, ok = alloc.MilliCPU, alloc.Memory, true, true
		}
	}
	var req api.Resources
	if ok {
		req, ok = t.src.requested(name)
	}
	if !ok {
		if ns.live {
			for _, sr := range []*Series{ns.cpu, ns.mem} {
				if sr != nil {
					t.gone = append(t.gone, sr)
				}
			}
		}
		*ns = nodeSeries{}
		return
	}
	ns.live = true
	ns.stamp = int32(m.stamp)
	node := labelPair{k1: "node", v1: name}
	// a value that did not move is not reported again (its series is not
	// even read): the step function holds it
	if v := percent(req.MilliCPU, ns.allocCPU); ns.cpu == nil || v != ns.cpuV {
		ns.cpu, ns.cpuV = m.reportOrCreate(ns.cpu, seriesID{"node_cpu_requested_percent", node}, now, v), v
	}
	if v := percent(req.Memory, ns.allocMem); ns.mem == nil || v != ns.memV {
		ns.mem, ns.memV = m.reportOrCreate(ns.mem, seriesID{"node_memory_requested_percent", node}, now, v), v
	}
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
	if w.sPending == nil || w.pending != w.repPending {
		w.sPending = m.reportOrCreate(w.sPending, seriesID{"pending", wl}, now, float64(w.pending))
		w.repPending = w.pending
	}
	if w.sRunning == nil || w.running != w.repRunning {
		w.sRunning = m.reportOrCreate(w.sRunning, seriesID{"running", wl}, now, float64(w.running))
		w.repRunning = w.running
	}
	for _, sc := range w.spreads {
		t.reportSpread(m, w, sc, now)
	}
}
