package scheduler

import (
	"fmt"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// cycleBuffers are reused from cycle to cycle so that filtering and
// scoring allocate nothing per node.
type cycleBuffers struct {
	// statuses[nodeIndex] is the node's rejection (nil: feasible).
	statuses []*framework.Status
	// rejectedBy[nodeIndex] is 1 + the index of the filter plugin that
	// rejected the node (0: none, or not a filter plugin).
	rejectedBy []int8
	// cand[worker] holds the worker's surviving node positions; span[worker]
	// is where its survivors start in feasible and how many there are.
	cand [][]int32
	span [][2]int
	// workerErr[worker] is set when a filter returned neither success nor
	// a rejection (an internal error fails the whole cycle upstream).
	workerErr []*framework.Status
	feasible  []*framework.NodeInfo
	// feasibleIdx[i] is feasible[i].Index, known without touching the node.
	feasibleIdx []int32
	// cachedNodes/cachedNames are the snapshot's nodes and their names as
	// of the last cycle, so scoring need not read every node's name.
	cachedNodes []*framework.NodeInfo
	cachedNames []string
	// cachedList is the snapshot's node slice itself as of the last check:
	// the snapshot builds a new slice whenever nodes are added or removed
	// and never replaces an element in place, so the same slice (same
	// first element's address and length) holds the same nodes. Keeping
	// it referenced stops its memory being reused for another slice.
	cachedList []*framework.NodeInfo
	// namesChanged is set when the name cache was rebuilt; slots hold the
	// score lists per feasible set (see labelSlotFor), setID numbers sets
	// and stamp orders slot use.
	namesChanged bool
	slots        [2]labelSlot
	setID        uint64
	stamp        uint64
	filters      []activeFilter
	// partial[worker] are per-worker partial totals; rangeErr[worker] the
	// first out-of-range normalised score a worker found.
	partial  [][]int64
	rangeErr []*framework.Status
	// round, accNodes/accIdx, roundMark and markStamp are filterSome's:
	// the nodes of the current round, the feasible nodes found so far,
	// and which nodes (by index) belong to the round.
	round     []*framework.NodeInfo
	accNodes  []*framework.NodeInfo
	accIdx    []int32
	roundMark []uint64
	markStamp uint64
}

type activeFilter struct {
	plugin framework.FilterPlugin
	batch  framework.BatchFilterPlugin // nil: per-node calls
	index  int8
}

// refreshNames revalidates the node-name cache against the snapshot's
// node list (a pointer comparison per node) and rebuilds it when nodes
// were added or removed.
func (b *cycleBuffers) refreshNames(nodes []*framework.NodeInfo) {
	// the same slice as last time: nothing to compare (a pass per cycle
	// was O(nodes) per pod, quadratic when a DaemonSet places a pod on
	// each of thousands of new nodes)
	if len(nodes) > 0 && len(nodes) == len(b.cachedList) && &nodes[0] == &b.cachedList[0] {
		return
	}
	b.cachedList = nodes
	if len(b.cachedNodes) == len(nodes) {
		same := true
		for i, ni := range nodes {
			if b.cachedNodes[i] != ni {
				same = false
				break
			}
		}
		if same {
			return
		}
	}
	b.namesChanged = true
	b.cachedNodes = append(b.cachedNodes[:0], nodes...)
	b.cachedNames = b.cachedNames[:0]
	for _, ni := range nodes {
		b.cachedNames = append(b.cachedNames, ni.Node.Name)
	}
}

func (b *cycleBuffers) reset(numNodes, workers int) {
	if cap(b.statuses) < numNodes {
		b.statuses = make([]*framework.Status, numNodes)
		b.rejectedBy = make([]int8, numNodes)
	}
	b.statuses = b.statuses[:numNodes]
	b.rejectedBy = b.rejectedBy[:numNodes]
	clear(b.statuses)
	clear(b.rejectedBy)
	for len(b.cand) < workers {
		b.cand = append(b.cand, nil)
		b.workerErr = append(b.workerErr, nil)
		b.span = append(b.span, [2]int{})
	}
	clear(b.workerErr)
}

// filterNodes runs the filter plugins on nodes, as findNodesThatPassFilters
// with percentageOfNodesToScore = 100: every node is evaluated (upstream
// stops after numFeasibleNodesToFind feasible nodes from a rotating start;
// the lab evaluates all so that explain and schedule agree and results do
// not depend on history). Loops are plugin-major over a fixed partition of
// the nodes: each worker keeps the positions still feasible and runs the
// next plugin on those only, which gives every node exactly the verdict of
// RunFilterPlugins (first rejecting plugin wins). Nodes holding nominated
// pods of at least the pod's priority then get the first pass of
// RunFilterPluginsWithNominatedPods (see nominatedPass). It fills
// buf.statuses/rejectedBy and returns the feasible nodes in name order, or
// an Error status.
func (s *Scheduler) filterNodes(state *framework.CycleState, pi *framework.PodInfo, nodes []*framework.NodeInfo, narrowed map[string]struct{}) ([]*framework.NodeInfo, *framework.Status) {
	b := &s.buf
	if st := s.filterPass(state, pi, nodes, narrowed == nil); st != nil {
		return nil, st
	}
	consider := func(ni *framework.NodeInfo) bool { return true }
	if narrowed != nil {
		consider = func(ni *framework.NodeInfo) bool {
			_, ok := narrowed[ni.Node.Name]
			return ok
		}
	}
	rejected, st := s.nominatedPass(state, pi, consider)
	if st != nil {
		return nil, st
	}
	if rejected > 0 {
		j := 0
		for i, ni := range b.feasible {
			if idx := b.feasibleIdx[i]; b.statuses[idx] == nil {
				b.feasible[j], b.feasibleIdx[j] = ni, idx
				j++
			}
		}
		b.feasible, b.feasibleIdx = b.feasible[:j], b.feasibleIdx[:j]
	}
	return b.feasible, nil
}

// filterPass runs the filter plugins plugin-major over nodes (see
// filterNodes), filling buf.statuses/rejectedBy and leaving the nodes
// that pass, in the order of nodes, in buf.feasible/feasibleIdx. all says
// nodes is the snapshot's node list (positions are indexes).
func (s *Scheduler) filterPass(state *framework.CycleState, pi *framework.PodInfo, nodes []*framework.NodeInfo, all bool) *framework.Status {
	b := &s.buf
	b.filters = b.filters[:0]
	for i, pl := range s.prof.filter {
		if state.SkipFilterPlugins[pl.Name()] {
			continue
		}
		bf, _ := pl.(framework.BatchFilterPlugin)
		if s.referencePaths {
			bf = nil
		}
		b.filters = append(b.filters, activeFilter{plugin: pl, batch: bf, index: int8(i)})
	}
	filters := b.filters
	if cap(b.feasible) < len(nodes) {
		b.feasible = make([]*framework.NodeInfo, len(nodes))
		b.feasibleIdx = make([]int32, len(nodes))
	}
	b.feasible, b.feasibleIdx = b.feasible[:len(nodes)], b.feasibleIdx[:len(nodes)]
	workers := parallelize(s.cfg.Parallelism, len(nodes), func(w, lo, hi int) {
		cand := b.cand[w][:0]
		for k := lo; k < hi; k++ {
			cand = append(cand, int32(k))
		}
		// one rejection callback per worker (not per plugin: it escapes
		// into the interface call, so each closure was an allocation);
		// f is the plugin running
		var f activeFilter
		reject := func(k int32, st *framework.Status) {
			// with all, k is the index: the NodeInfo need not be read
			idx := int(k)
			if !all {
				idx = nodes[k].Index
			}
			if st.Code != framework.Unschedulable && st.Code != framework.UnschedulableAndUnresolvable {
				b.workerErr[w] = errorStatus(fmt.Errorf("running %q filter plugin: %w", f.plugin.Name(), statusError(st)), f.plugin.Name())
			}
			b.statuses[idx] = st
			b.rejectedBy[idx] = f.index + 1
		}
		for _, f = range filters {
			if f.batch != nil {
				cand = f.batch.FilterBatch(state, pi, nodes, cand, reject)
				if len(cand) == 0 {
					break
				}
				continue
			}
			j := 0
			for _, k := range cand {
				ni := nodes[k]
				st := f.plugin.Filter(state, pi, ni)
				if st == nil || st.Code == framework.Success {
					cand[j] = k
					j++
					continue
				}
				if st.Code != framework.Unschedulable && st.Code != framework.UnschedulableAndUnresolvable {
					b.workerErr[w] = errorStatus(fmt.Errorf("running %q filter plugin: %w", f.plugin.Name(), statusError(st)), f.plugin.Name())
				}
				b.statuses[ni.Index] = st
				b.rejectedBy[ni.Index] = f.index + 1
			}
			cand = cand[:j]
			if j == 0 {
				break
			}
		}
		// Survivors go to the worker's own region of the feasible
		// buffers, starting at lo; the regions are joined below. With
		// all, nodes is snap.Nodes and k is the Index.
		for j, k := range cand {
			ni, idx := nodes[k], k
			if !all {
				idx = int32(ni.Index)
			}
			b.feasible[lo+j], b.feasibleIdx[lo+j] = ni, idx
		}
		b.cand[w] = cand
		b.span[w] = [2]int{lo, len(cand)}
	})
	for _, st := range b.workerErr {
		if st != nil {
			return st
		}
	}
	n := 0
	for w := 0; w < workers; w++ {
		lo, cnt := b.span[w][0], b.span[w][1]
		if lo != n {
			copy(b.feasible[n:n+cnt], b.feasible[lo:lo+cnt])
			copy(b.feasibleIdx[n:n+cnt], b.feasibleIdx[lo:lo+cnt])
		}
		n += cnt
	}
	b.feasible, b.feasibleIdx = b.feasible[:n], b.feasibleIdx[:n]
	return nil
}

// nominatedPass runs the first pass of RunFilterPluginsWithNominatedPods
// (pkg/scheduler/framework/runtime/framework.go) on every node that holds
// nominated pods of at least the pod's priority: the filters run with
// those pods added to the node and to the PreFilter state, and a rejection
// there is the node's verdict. The plugin-major loop already ran the
// second pass (without them) on every node, so a node is feasible only if
// both passes accept it, and its status is the first pass's when that one
// rejects — exactly upstream's order. It returns the number of nodes it
// rejected, or an Error status. consider says which nodes were filtered
// in this pass.
func (s *Scheduler) nominatedPass(state *framework.CycleState, pi *framework.PodInfo, consider func(*framework.NodeInfo) bool) (int, *framework.Status) {
	if s.nominator.Len() == 0 {
		return 0, nil
	}
	rejected := 0
	for _, name := range s.nominator.nodes() {
		ni := s.snap.Get(name)
		if ni == nil {
			continue
		}
		if !consider(ni) {
			continue
		}
		added, st := s.filterWithNominatedPods(state, pi, ni)
		if !added || st.IsSuccess() {
			continue
		}
		if !st.IsRejected() {
			return 0, st
		}
		rejected++
		s.buf.statuses[ni.Index] = st
		s.buf.rejectedBy[ni.Index] = 0
		if i, ok := s.prof.filterIndex[st.Plugin]; ok {
			s.buf.rejectedBy[ni.Index] = int8(i + 1)
		}
	}
	return rejected, nil
}

// filterWithNominatedPods is the first pass of
// RunFilterPluginsWithNominatedPods (addGENominatedPods + RunFilterPlugins).
// It reports whether any nominated pod was added.
func (s *Scheduler) filterWithNominatedPods(state *framework.CycleState, pi *framework.PodInfo, ni *framework.NodeInfo) (bool, *framework.Status) {
	nominated := s.nominator.NominatedPodsForNode(ni.Node.Name)
	if len(nominated) == 0 {
		return false, nil
	}
	prio := pi.Priority
	key := pi.Pod.Key()
	var (
		stateOut *framework.CycleState
		nodeOut  *framework.NodeInfo
	)
	for _, np := range nominated {
		if np.Priority < prio || np.Pod.HasKey(key) {
			continue
		}
		if nodeOut == nil {
			nodeOut = ni.Clone()
			stateOut = state.Clone()
		}
		nodeOut.AddPodInfo(np)
		if st := s.RunPreFilterExtensionAddPod(stateOut, pi, np, nodeOut); !st.IsSuccess() {
			return true, st
		}
	}
	if nodeOut == nil {
		return false, nil
	}
	return true, s.runFilterPlugins(stateOut, pi, nodeOut)
}

// runFilterPlugins runs every filter plugin (except those PreFilter
// skipped) on one node and returns the first rejection, attributed to its
// plugin, as frameworkImpl.RunFilterPlugins.
func (s *Scheduler) runFilterPlugins(state *framework.CycleState, pi *framework.PodInfo, ni *framework.NodeInfo) *framework.Status {
	for _, pl := range s.prof.filter {
		if state.SkipFilterPlugins[pl.Name()] {
			continue
		}
		st := pl.Filter(state, pi, ni)
		if st.IsSuccess() {
			continue
		}
		if !st.IsRejected() {
			return errorStatus(fmt.Errorf("running %q filter plugin: %w", pl.Name(), statusError(st)), pl.Name())
		}
		return st.WithPlugin(pl.Name())
	}
	return nil
}

// filterOneWithNominatedPods is RunFilterPluginsWithNominatedPods on one
// node: both passes when nominated pods were added.
func (s *Scheduler) filterOneWithNominatedPods(state *framework.CycleState, pi *framework.PodInfo, ni *framework.NodeInfo) *framework.Status {
	added, st := s.filterWithNominatedPods(state, pi, ni)
	if added && !st.IsSuccess() {
		return st
	}
	return s.runFilterPlugins(state, pi, ni)
}
