package ui

import (
	"sort"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab"
)

// frameData is everything the views draw, rebuilt by refresh() after the
// cluster changed — never inside View.
type frameData struct {
	snap      *engine.Snapshot
	nodes     []engine.NodeView // display order: by group domain, then name
	domains   []string          // group key values, in display order ("" = missing)
	nodeDom   []int             // nodes[i] is in domains[nodeDom[i]]
	usage     []nodeUse         // usage[i] of nodes[i]
	workloads []lab.Workload
	// podWorkload maps a pod key to its index in workloads (-1: none).
	podWorkload map[string]int
	spread      []lab.SpreadView
	lesson      []lab.CheckResult
	timelines   []lab.PodTimeline
	explain     *lab.LiveExplanation
	explainErr  error
	groupKey    string
	eventsSeen  int
}

// groupKeys are the topology keys the cluster view can group by: the
// zone label, the hostname, and any other label every... some node has.
func (m *Model) groupKeys() []string {
	keys := []string{api.LabelTopologyZone, api.LabelHostname}
	seen := map[string]bool{keys[0]: true, keys[1]: true}
	var extra []string
	if m.data.snap != nil {
		for _, nv := range m.data.snap.Nodes {
			for k := range nv.Node.Labels {
				if !seen[k] && k != "kubernetes.io/os" && k != "kubernetes.io/arch" {
					seen[k] = true
					extra = append(extra, k)
				}
			}
		}
	}
	sort.Strings(extra)
	return append(keys, extra...)
}

// refresh rebuilds frameData from the session.
func (m *Model) refresh() {
	d := &m.data
	d.snap = m.sess.Engine().Snapshot()
	keys := m.groupKeys()
	if m.groupIdx >= len(keys) {
		m.groupIdx = 0
	}
	d.groupKey = keys[m.groupIdx]
	m.layoutNodes()
	d.workloads = m.sess.Workloads()
	index := map[string]int{}
	for i, w := range d.workloads {
		index[w.Kind+"/"+w.Namespace+"/"+w.Name] = i
	}
	d.podWorkload = map[string]int{}
	for _, nv := range d.snap.Nodes {
		for _, pv := range nv.Pods {
			d.podWorkload[pv.Pod.Key()] = m.workloadIndex(pv.Pod, index)
		}
	}
	for _, pp := range d.snap.Pending {
		if p := m.sess.Engine().Pod(pp.Pod); p != nil {
			d.podWorkload[pp.Pod] = m.workloadIndex(p, index)
		}
	}
	m.wlIdx = clamp(m.wlIdx, len(d.workloads))
	m.pendIdx = clamp(m.pendIdx, len(d.snap.Pending))
	m.nodeIdx = clamp(m.nodeIdx, len(d.nodes))
	d.spread = nil
	if w, ok := m.selectedWorkload(); ok {
		d.spread = m.sess.Spread(w)
	}
	d.lesson = m.sess.CheckStep(m.sess.Step())
	switch m.view {
	case viewExplain:
		m.refreshExplain()
	case viewTimeline:
		d.timelines = m.sess.TerminationTimelines()
	}
}

func (m *Model) refreshExplain() {
	d := &m.data
	key := m.explainKey
	if key == "" {
		key = m.selectedPodKey()
		m.explainKey = key
	}
	d.explain, d.explainErr = nil, nil
	if key == "" {
		return
	}
	d.explain, d.explainErr = m.sess.Explain(key)
}

func (m *Model) workloadIndex(p *api.Pod, index map[string]int) int {
	kind, name := m.sess.WorkloadOf(p)
	if kind == "" {
		if i, ok := index["pods/"+p.Namespace+"/(no controller)"]; ok {
			return i
		}
		return -1
	}
	if i, ok := index[kind+"/"+p.Namespace+"/"+name]; ok {
		return i
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
	pos := map[string]int{}
	for i, v := range d.domains {
		pos[v] = i
	}
	d.nodes = append(d.nodes[:0], d.snap.Nodes...)
	sort.SliceStable(d.nodes, func(i, j int) bool {
		return pos[d.nodes[i].Node.Labels[key]] < pos[d.nodes[j].Node.Labels[key]]
	})
	d.nodeDom = d.nodeDom[:0]
	d.usage = d.usage[:0]
	for _, nv := range d.nodes {
		d.nodeDom = append(d.nodeDom, pos[nv.Node.Labels[key]])
		cpu, mem, pods := nodeUsage(nv)
		d.usage = append(d.usage, nodeUse{cpu: cpu, mem: mem, pods: pods})
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

func (m *Model) selectedNode() (engine.NodeView, bool) {
	if len(m.data.nodes) == 0 {
		return engine.NodeView{}, false
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

func (m *Model) refreshLayout() {}

// nodeUse is a node's requested share of its allocatable.
type nodeUse struct{ cpu, mem, pods float64 }
