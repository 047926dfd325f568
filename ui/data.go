package ui

import (
	"slices"
	"sort"
	"strings"

	"podlab.dev/podlab/lab"
)

// frameData is everything the views draw, rebuilt by refresh() after the
// cluster changed — never inside View. What derives from placement (the
// workload list, spread, lesson checks) is recomputed only when the
// cluster's stamp moved, so a tick on a big, quiet cluster stays cheap.
type frameData struct {
	snap      *lab.Snapshot
	nodes     []lab.NodeView  // display order: by group domain, then name
	domains   []string        // group key values, in display order ("" = missing)
	nodeDom   []int           // nodes[i] is in domains[nodeDom[i]]
	domStart  []int           // first index in nodes of each domain
	usage     []lab.NodeUsage // usage[i] of nodes[i]
	workloads []lab.Workload
	// wlIndex maps "kind/namespace/name" to an index in workloads; wlGen
	// counts rebuilds (rendered cards remember it).
	wlIndex map[string]int
	wlGen   int
	// nominated lists, per node, the pending pods nominated to it
	// (preemptors waiting for their victims to go).
	nominated map[string][]string
	spread    []lab.SpreadView
	spreadFor string // the workload spread was computed for
	lesson    []lab.CheckResult
	lessonFor int
	timelines []lab.PodTimeline
	explain   *lab.LiveExplanation
	// evictNodes are the nodes the eviction view shows, with rankings.
	evictNodes []evictNode
	explainErr error
	groupKey   string
	groupKeys  []string // the keys g cycles through
	// layoutGen counts changes of the node order and grouping.
	layoutGen int
	stamp     stamp
	// events: indexes of the events the filter keeps, extended
	// incrementally (the log is append-only).
	events eventIndex
}

// stamp identifies the cluster's state for caching: a new session or
// engine (undo replays into a new one), a placement change, a new event,
// a pod changing state, or a command applied.
type stamp struct {
	sess    *lab.Session
	eng     *lab.Engine
	gen     int64
	events  int
	counts  lab.Counts
	applied int
	group   int
}

type evictNode struct {
	nv      lab.NodeView
	ranking []lab.RankEntry
}

// groupKeys are the topology keys the cluster view can group by (the
// lab says which: the scenario's zone label first).
func (m *Model) groupKeys() []string { return m.data.groupKeys }

func (m *Model) currentStamp() stamp {
	snap := m.data.snap
	return stamp{sess: m.sess, eng: m.sess.Engine(), gen: m.sess.Generation(), events: len(snap.Events),
		counts: snap.Counts, applied: m.applied, group: m.groupIdx}
}

// refresh rebuilds frameData from the session.
func (m *Model) refresh() {
	m.drawn = false
	d := &m.data
	d.snap = m.sess.Engine().Snapshot()
	st := m.currentStamp()
	changed := st != d.stamp
	if st.sess != d.stamp.sess || st.eng != d.stamp.eng {
		m.cards = cardCache{}
		m.podRefs = map[string]string{}
		d.events = eventIndex{}
	}
	if changed {
		d.groupKeys = m.sess.GroupKeys(d.snap.Nodes)
		if m.groupIdx >= len(d.groupKeys) {
			m.groupIdx = 0
		}
		d.groupKey = d.groupKeys[m.groupIdx]
	}
	m.layoutNodes()
	if changed || d.workloads == nil {
		d.workloads = m.sess.Workloads()
		index := make(map[string]int, len(d.workloads))
		same := len(index) == len(d.wlIndex)
		for i, w := range d.workloads {
			ref := w.Key()
			index[ref] = i
			if j, ok := d.wlIndex[ref]; !ok || j != i {
				same = false
			}
		}
		if !same || len(index) != len(d.wlIndex) {
			d.wlIndex = index
			d.wlGen++
		}
	}
	d.nominated = nil
	for _, pp := range d.snap.Pending {
		if pp.NominatedNode != "" {
			if d.nominated == nil {
				d.nominated = map[string][]string{}
			}
			d.nominated[pp.NominatedNode] = append(d.nominated[pp.NominatedNode], pp.Pod)
		}
	}
	m.wlIdx = clamp(m.wlIdx, len(d.workloads))
	m.pendIdx = clamp(m.pendIdx, len(d.snap.Pending))
	m.nodeIdx = clamp(m.nodeIdx, len(d.nodes))
	if w, ok := m.selectedWorkload(); !ok {
		d.spread, d.spreadFor = nil, ""
	} else if changed || d.spreadFor != w.Ref() {
		d.spread, d.spreadFor = m.sess.Spread(w), w.Ref()
	}
	if changed || d.lessonFor != m.sess.Step() || d.lesson == nil {
		d.lesson, d.lessonFor = m.sess.CheckStep(m.sess.Step()), m.sess.Step()
	}
	m.updateEvents()
	m.views[m.view].Refresh()
	// Explaining a bound pod takes it out of the scheduler's cache and puts
	// it back: read the stamp after it so that does not count as a change.
	d.stamp = m.currentStamp()
	m.setKeys()
}

// fullRefreshEvery bounds how many quiet ticks may pass without a full
// refresh (what changes without an event or a placement — a pod's memory
// signal drifting — shows within a second).
const fullRefreshEvery = 10

// refreshAfterTick refreshes after the clock advanced. When nothing was
// placed or removed, no event was recorded and no command applied, the
// frame data still holds (the clock in the header reads the session), so
// the snapshot is not rebuilt: a quiet 50,000-pod cluster ticks for free.
// The timeline and eviction views draw time-dependent data and always
// refresh.
func (m *Model) refreshAfterTick() {
	d := &m.data
	quiet := d.snap != nil && d.stamp.sess == m.sess && d.stamp.eng == m.sess.Engine() &&
		d.stamp.gen == m.sess.Generation() && d.stamp.events == len(m.sess.Engine().Events()) &&
		d.stamp.applied == m.applied && !m.views[m.view].Live()
	if quiet && m.quietTicks < fullRefreshEvery {
		m.quietTicks++
		return
	}
	m.quietTicks = 0
	m.refresh()
}

// changed marks the cluster as changed by a command (templates, usage and
// other edits the placement stamp does not see).
func (m *Model) changed() { m.applied++ }

// podWorkload is the index in workloads of a pod's workload (-1: none).
// The owner of a pod never changes, so its workload's name is cached per
// pod key and looked up only for pods on screen.
func (m *Model) podWorkload(p *lab.Pod) int {
	key := p.Key()
	ref, ok := m.podRefs[key]
	if !ok {
		ref = m.sess.WorkloadKey(p)
		if m.podRefs == nil {
			m.podRefs = map[string]string{}
		}
		m.podRefs[key] = ref
	}
	if i, ok := m.data.wlIndex[ref]; ok {
		return i
	}
	return -1
}

// podWorkloadByKey is podWorkload for a pod known by key.
func (m *Model) podWorkloadByKey(key string) int {
	if p := m.sess.Engine().Pod(key); p != nil {
		return m.podWorkload(p)
	}
	return -1
}

// layoutNodes orders nodes by their domain for the group key.
func (m *Model) layoutNodes() {
	d := &m.data
	key := d.groupKey
	domSet := map[string]bool{}
	for _, nv := range d.snap.Nodes {
		domSet[nv.Node.Labels[key]] = true
	}
	d.domains = d.domains[:0]
	for v := range domSet {
		d.domains = append(d.domains, v)
	}
	// missing key ("") last
	sort.Slice(d.domains, func(i, j int) bool {
		a, b := d.domains[i], d.domains[j]
		if (a == "") != (b == "") {
			return b == ""
		}
		return a < b
	})
	pos := make(map[string]int, len(d.domains))
	for i, v := range d.domains {
		pos[v] = i
	}
	prevNames := make([]*lab.Node, len(d.nodes))
	for i, nv := range d.nodes {
		prevNames[i] = nv.Node
	}
	prevStart := append([]int(nil), d.domStart...)
	d.nodes = append(d.nodes[:0], d.snap.Nodes...)
	sort.SliceStable(d.nodes, func(i, j int) bool {
		return pos[d.nodes[i].Node.Labels[key]] < pos[d.nodes[j].Node.Labels[key]]
	})
	d.nodeDom = d.nodeDom[:0]
	d.usage = d.usage[:0]
	d.domStart = d.domStart[:0]
	for i, nv := range d.nodes {
		di := pos[nv.Node.Labels[key]]
		if len(d.domStart) == di {
			d.domStart = append(d.domStart, i)
		}
		d.nodeDom = append(d.nodeDom, di)
		d.usage = append(d.usage, m.sess.NodeUsage(nv))
	}
	d.domStart = append(d.domStart, len(d.nodes))
	same := len(prevNames) == len(d.nodes) && slices.Equal(prevStart, d.domStart)
	for i := 0; same && i < len(d.nodes); i++ {
		same = prevNames[i] == d.nodes[i].Node
	}
	if !same {
		d.layoutGen++
	}
}

func clamp(i, n int) int {
	if n == 0 {
		return 0
	}
	return max(0, min(i, n-1))
}

func (m *Model) selectedWorkload() (lab.Workload, bool) {
	if len(m.data.workloads) == 0 {
		return lab.Workload{}, false
	}
	return m.data.workloads[clamp(m.wlIdx, len(m.data.workloads))], true
}

func (m *Model) selectedNode() (lab.NodeView, bool) {
	if len(m.data.nodes) == 0 {
		return lab.NodeView{}, false
	}
	return m.data.nodes[clamp(m.nodeIdx, len(m.data.nodes))], true
}

// selectedPodKey is the pod under the cursor: in the pending list when it
// has focus, else the selected pod of the selected node.
func (m *Model) selectedPodKey() string {
	if m.focus == focusPending && len(m.data.snap.Pending) > 0 {
		return m.data.snap.Pending[clamp(m.pendIdx, len(m.data.snap.Pending))].Pod
	}
	nv, ok := m.selectedNode()
	if !ok || len(nv.Pods) == 0 {
		if len(m.data.snap.Pending) > 0 && m.focus != focusPods {
			return m.data.snap.Pending[clamp(m.pendIdx, len(m.data.snap.Pending))].Pod
		}
		return ""
	}
	return nv.Pods[clamp(m.podIdx, len(nv.Pods))].Pod.Key()
}

// refreshLayout follows a resize: the views' scroll limits moved.
func (m *Model) refreshLayout() {
	if m.data.snap != nil {
		m.views[m.view].Refresh()
	}
	m.setKeys()
}

// bodyHeight is the height of the views' area: the screen less the
// header, the status line and the footer.
func (m *Model) bodyHeight() int { return m.h - 3 }

// eventIndex is the filtered event list, extended as events arrive.
type eventIndex struct {
	filter string
	seen   int
	keep   []int
}

// updateEvents extends the filtered event indexes with the new events.
func (m *Model) updateEvents() {
	ev := &m.data.events
	all := m.data.snap.Events
	if ev.filter != m.eventFilter || ev.seen > len(all) {
		*ev = eventIndex{filter: m.eventFilter}
	}
	f := strings.ToLower(ev.filter)
	for i := ev.seen; i < len(all); i++ {
		e := all[i]
		if f == "" || containsFold(e.Object, f) || containsFold(e.Reason, f) || containsFold(e.Type, f) || containsFold(e.Message, f) {
			ev.keep = append(ev.keep, i)
		}
	}
	ev.seen = len(all)
}

func containsFold(s, lowerSub string) bool {
	return strings.Contains(strings.ToLower(s), lowerSub)
}

// refreshEviction picks the nodes the eviction view shows (those under
// memory pressure or with memory set by a pressure command, else the
// selected node) and their kubelet ranking.
func (m *Model) refreshEviction() {
	d := &m.data
	d.evictNodes = d.evictNodes[:0]
	for _, nv := range d.snap.Nodes {
		if lab.MemoryPressured(nv) {
			d.evictNodes = append(d.evictNodes, evictNode{nv: nv})
		}
	}
	if sel, ok := m.selectedNode(); ok && len(d.evictNodes) == 0 {
		d.evictNodes = append(d.evictNodes, evictNode{nv: sel})
	}
	for i := range d.evictNodes {
		e := &d.evictNodes[i]
		e.ranking = e.nv.Ranking
		if len(e.ranking) == 0 {
			e.ranking = m.sess.Engine().EvictionRanking(e.nv.Node.Name)
		}
	}
}
