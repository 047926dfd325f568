package interpodaffinity

import (
	"sort"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// domainCounts holds one number per domain of one topology key: upstream's
// map[topologyPair]int64 restricted to one key, as an array indexed by the
// snapshot's domain ids so that a Filter/Score lookup is an index read.
type domainCounts struct {
	key    string
	topo   *framework.Topology
	counts []int64
	// extra holds domains the topology does not know (a node relabelled
	// after the topology was built; never within one cycle).
	extra map[string]int64
}

// topologyCounts is a set of domainCounts, one per topology key, plus the
// number of non-zero (key, domain) entries — upstream deletes zero entries
// from its map, so "len(map) == 0" there is "nonZero == 0" here.
type topologyCounts struct {
	snap    *framework.Snapshot
	byKey   []*domainCounts
	nonZero int
	// touched records that some entry was ever written (PreScore skips
	// when no existing pod contributed to any domain).
	touched bool
}

func newTopologyCounts(snap *framework.Snapshot) topologyCounts {
	return topologyCounts{snap: snap}
}

// forKey returns the counts of a key, creating them when create is set.
// shared selects the snapshot's cached topology (PreFilter/PreScore, one
// goroutine) or a private one (AddPod/RemovePod may run in parallel Filter
// calls and must not write the snapshot's cache).
func (c *topologyCounts) forKey(key string, create, shared bool) *domainCounts {
	for _, d := range c.byKey {
		if d.key == key {
			return d
		}
	}
	if !create {
		return nil
	}
	var topo *framework.Topology
	if shared {
		topo = c.snap.Topology(key)
	} else {
		topo = buildTopology(c.snap, key)
	}
	d := &domainCounts{key: key, topo: topo, counts: make([]int64, len(topo.Domains))}
	c.byKey = append(c.byKey, d)
	return d
}

// buildTopology computes a key's topology without caching it in the
// snapshot (same result as Snapshot.Topology).
func buildTopology(snap *framework.Snapshot, key string) *framework.Topology {
	t := &framework.Topology{Key: key, DomainOf: make([]int32, len(snap.Nodes()))}
	seen := map[string]struct{}{}
	for _, ni := range snap.Nodes() {
		if v, ok := ni.Node.Labels[key]; ok {
			if _, dup := seen[v]; !dup {
				seen[v] = struct{}{}
				t.Domains = append(t.Domains, v)
			}
		}
	}
	sort.Strings(t.Domains)
	for i, ni := range snap.Nodes() {
		t.DomainOf[i] = -1
		if v, ok := ni.Node.Labels[key]; ok {
			t.DomainOf[i] = int32(sort.SearchStrings(t.Domains, v))
		}
	}
	return t
}

// Domain lookup results besides a domain id.
const (
	noKey         = -1 // the node lacks the topology key
	unknownDomain = -2 // the node has the key with a value the topology lacks
)

// domainOf returns the node's domain id for d's key: an index read when the
// NodeInfo is (a clone of) the snapshot's node at its Index, else a label
// lookup.
func (c *topologyCounts) domainOf(d *domainCounts, node *framework.NodeInfo) (int32, string) {
	if i := node.Index; i >= 0 && i < len(d.topo.DomainOf) && i < len(c.snap.Nodes()) && c.snap.Nodes()[i].Node == node.Node {
		return d.topo.DomainOf[i], ""
	}
	v, ok := node.Node.Labels[d.key]
	if !ok {
		return noKey, ""
	}
	if j := sort.SearchStrings(d.topo.Domains, v); j < len(d.topo.Domains) && d.topo.Domains[j] == v {
		return int32(j), ""
	}
	return unknownDomain, v
}

// add adds delta to the node's domain of key (nothing when the node lacks
// the key, as topologyToMatchedTermCount.update).
func (c *topologyCounts) add(key string, node *framework.NodeInfo, delta int64, shared bool) {
	d := c.forKey(key, true, shared)
	id, v := c.domainOf(d, node)
	if id == noKey {
		return
	}
	c.touched = true
	var before, after int64
	if id == unknownDomain {
		if d.extra == nil {
			d.extra = map[string]int64{}
		}
		before = d.extra[v]
		after = before + delta
		if after == 0 {
			delete(d.extra, v)
		} else {
			d.extra[v] = after
		}
	} else {
		before = d.counts[id]
		after = before + delta
		d.counts[id] = after
	}
	switch {
	case before == 0 && after != 0:
		c.nonZero++
	case before != 0 && after == 0:
		c.nonZero--
	}
}

// get returns the count of the node's domain for key and whether the node
// has the key.
func (c *topologyCounts) get(key string, node *framework.NodeInfo) (int64, bool) {
	d := c.forKey(key, false, false)
	if d == nil {
		_, ok := node.Node.Labels[key]
		return 0, ok
	}
	return c.getIn(d, node)
}

func (c *topologyCounts) getIn(d *domainCounts, node *framework.NodeInfo) (int64, bool) {
	id, v := c.domainOf(d, node)
	switch id {
	case noKey:
		return 0, false
	case unknownDomain:
		return d.extra[v], true
	}
	return d.counts[id], true
}

// clone deep-copies the counts (topologies are shared: read-only).
func (c topologyCounts) clone() topologyCounts {
	out := c
	out.byKey = make([]*domainCounts, len(c.byKey))
	for i, d := range c.byKey {
		nd := &domainCounts{key: d.key, topo: d.topo, counts: append([]int64(nil), d.counts...)}
		if d.extra != nil {
			nd.extra = make(map[string]int64, len(d.extra))
			for k, v := range d.extra {
				nd.extra[k] = v
			}
		}
		out.byKey[i] = nd
	}
	return out
}
