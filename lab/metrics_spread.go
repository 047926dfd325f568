package lab

import "podlab.dev/podlab/engine/api"

// keyDomains is a topology key's domains as the metrics count them: every
// node with the key is a domain (as in the spread report). Domains are
// numbered once (a domain whose last node left keeps its number, with no
// nodes), so that a workload's counts are a slice, not a map.
type keyDomains struct {
	key     string
	of      []int          // node id → its domain + 1 (0: none)
	index   map[string]int // domain value → its number
	names   []string       // number → value
	size    []int          // number → its nodes (0: not a domain now)
	domains int            // how many domains have nodes
	users   map[*wlState]struct{}
}

// spreadCounts is a workload's pods per domain of one key.
type spreadCounts struct {
	// what a pod's change reads and writes first
	kd     *keyDomains
	counts []int // by domain number (missing: 0)
	// what changed since the last report: the domains whose count moved,
	// or every domain (a new spread, a domain added or removed)
	changed []int
	all     bool
	key     string
	skew    *Series
	pods    []*Series // by domain number, for the zone key
	// the values last reported (skipped when they did not move)
	lastSkew int
	last     []int
}

// keyDomainsOf is a key's domains, from the nodes when first asked.
func (t *tracker) keyDomainsOf(key string) *keyDomains {
	if kd := t.keys[key]; kd != nil {
		return kd
	}
	kd := &keyDomains{key: key, index: map[string]int{}, users: map[*wlState]struct{}{}}
	for _, n := range t.src.eng.Nodes() {
		if v, ok := n.Labels[key]; ok {
			kd.join(t.nodeID(n.Name), v)
		}
	}
	t.keys[key] = kd
	return kd
}

// join puts a node in domain v, numbering v when new; it reports whether
// the domain had no nodes before.
func (kd *keyDomains) join(node int32, v string) (d int, added bool) {
	d, ok := kd.index[v]
	if !ok {
		d = len(kd.names)
		kd.index[v] = d
		kd.names = append(kd.names, v)
		kd.size = append(kd.size, 0)
	}
	if int(node) >= len(kd.of) {
		kd.of = append(kd.of, make([]int, int(node)+1-len(kd.of))...)
	}
	kd.of[node] = d + 1
	kd.size[d]++
	if kd.size[d] == 1 {
		kd.domains++
		return d, true
	}
	return d, false
}

// leave takes a node out of its domain d; it reports whether d has no
// nodes left.
func (kd *keyDomains) leave(node int32, d int) (removed bool) {
	kd.of[node] = 0
	kd.size[d]--
	if kd.size[d] == 0 {
		kd.domains--
		return true
	}
	return false
}

// domainOf is a node's domain (-1: none).
func (kd *keyDomains) domainOf(node int32) int {
	if int(node) < len(kd.of) {
		return kd.of[node] - 1
	}
	return -1
}

// addKey starts counting a workload's pods per domain of key.
func (t *tracker) addKey(w *wlState, key string) {
	kd := t.keyDomainsOf(key)
	sc := &spreadCounts{}
	if len(w.spreads) == 0 {
		sc = &w.zone // the first key, the zone's (workload)
	}
	*sc = spreadCounts{key: key, kd: kd, counts: make([]int, len(kd.names)), all: true}
	// the counts start from the workload's pods as counted (a new
	// workload has none)
	if w.pods > 0 {
		for _, seen := range t.pods {
			if seen != nil && seen.counted >= 0 && seen.owner != nil && seen.owner.w == w {
				if d := kd.domainOf(seen.counted); d >= 0 {
					sc.counts[d]++
				}
			}
		}
	}
	w.spreads = append(w.spreads, sc)
	kd.users[w] = struct{}{}
	t.touch(w)
}

// removeKey stops counting per domain of key: its series stop.
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
		if sr != nil {
			t.gone = append(t.gone, sr)
		}
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

// add changes domain d's count by delta.
func (sc *spreadCounts) add(d, delta int) {
	if d >= len(sc.counts) {
		sc.counts = append(sc.counts, make([]int, d+1-len(sc.counts))...)
	}
	sc.counts[d] += delta
	if !sc.all {
		sc.changed = append(sc.changed, d)
	}
}

func (sc *spreadCounts) count(d int) int {
	if d < len(sc.counts) {
		return sc.counts[d]
	}
	return 0
}

// skewNow is max − min over the key's domains (false: no domains).
func (sc *spreadCounts) skewNow() (int, bool) {
	first := true
	lo, hi := 0, 0
	for d, n := range sc.kd.size {
		if n == 0 {
			continue
		}
		c := sc.count(d)
		if first {
			lo, hi, first = c, c, false
			continue
		}
		lo, hi = min(lo, c), max(hi, c)
	}
	return hi - lo, !first
}

// nodeChanged follows a node into, out of and between the domains of
// every key counted, moving its pods' counts with it.
func (t *tracker) nodeChanged(name string) {
	id := t.nodeID(name)
	t.touchedN = append(t.touchedN, id)
	t.nodes[id].fresh = false // read it again: its allocatable may have changed
	n := t.src.eng.Node(name)
	// each workload's pods counted on the node, found once when a domain
	// moves (nodes are relabelled, added and removed far less often than
	// pods move, so a pod's move keeps no per-node count)
	var onNode map[*wlState]int
	podsOn := func(w *wlState) int {
		if onNode == nil {
			onNode = map[*wlState]int{}
			for _, seen := range t.pods {
				if seen != nil && seen.counted == id && seen.owner != nil && seen.owner.w != nil {
					onNode[seen.owner.w]++
				}
			}
		}
		return onNode[w]
	}
	for _, kd := range t.keys {
		old := kd.domainOf(id)
		had := old >= 0
		var v string
		has := false
		if n != nil {
			v, has = n.Labels[kd.key]
		}
		if had == has && (!had || kd.names[old] == v) {
			continue
		}
		for w := range kd.users {
			sc := w.spread(kd.key)
			if c := podsOn(w); c != 0 && had {
				sc.add(old, -c)
			}
			sc.all = true // the domains or their counts moved
			t.touch(w)
		}
		if had && kd.leave(id, old) {
			for w := range kd.users {
				sc := w.spread(kd.key)
				if old < len(sc.pods) && sc.pods[old] != nil {
					t.gone = append(t.gone, sc.pods[old])
					sc.pods[old] = nil
				}
			}
		}
		if has {
			d, _ := kd.join(id, v)
			for w := range kd.users {
				if c := podsOn(w); c != 0 {
					w.spread(kd.key).add(d, c)
				}
			}
		}
	}
}

// reportSpread reports a workload's skew for one key and, for the zone
// key, its pods per zone: the zones whose count moved, or every zone when
// the domains changed.
func (t *tracker) reportSpread(m *Metrics, w *wlState, sc *spreadCounts, now api.Time) {
	all, changed := sc.all || sc.skew == nil, sc.changed
	sc.all, sc.changed = false, sc.changed[:0]
	if !all && len(changed) == 0 {
		return
	}
	skew, ok := sc.skewNow()
	if !ok {
		// no node has the key: no skew to report
		if sc.skew != nil {
			t.gone = append(t.gone, sc.skew)
		}
		return
	}
	if sc.skew == nil || skew != sc.lastSkew {
		sc.skew = m.reportOrCreate(sc.skew, seriesID{"skew", labelPair{k1: "key", v1: sc.key, k2: "workload", v2: w.name}}, now, float64(skew))
		sc.lastSkew = skew
	}
	if sc.key != t.src.zoneKey {
		return
	}
	if n := len(sc.kd.names); len(sc.pods) < n {
		sc.pods = append(sc.pods, make([]*Series, n-len(sc.pods))...)
		sc.last = append(sc.last, make([]int, n-len(sc.last))...)
	}
	put := func(d int) {
		if sc.kd.size[d] == 0 {
			return
		}
		if c := sc.count(d); sc.pods[d] == nil || c != sc.last[d] {
			id := seriesID{"pods", labelPair{k1: "workload", v1: w.name, k2: "zone", v2: sc.kd.names[d]}}
			sc.pods[d], sc.last[d] = m.reportOrCreate(sc.pods[d], id, now, float64(c)), c
		}
	}
	if all {
		for d := range sc.kd.names {
			put(d)
		}
		return
	}
	for _, d := range changed {
		put(d)
	}
}
