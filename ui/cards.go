package ui

import "podlab.dev/podlab/lab"

// cardKey is everything a rendered node card (or row) shows besides its
// pods: when it and the pods on show are unchanged the cached lines are
// reused, so a frame renders only the cards that changed, and only those
// on screen.
type cardKey struct {
	node     *lab.Node // replaced by the engine on every change
	use      lab.NodeUsage
	pressure bool
	w        int
	selected bool
	podSel   int // pod under the cursor (-1: none)
	npods    int // pods and nominated pods in all (the "+N")
	shown    int // glyphs on show
	wlGen    int
	styles   *Styles
	focus    focusID
	rows     bool
	names    int // columns of pod names (0: glyphs)
}

// cardCache keeps the last rendered card per node name.
type cardCache struct {
	m map[string]cachedCard
	// misses counts renders (a frame that missed none can reuse the boxes)
	misses int
}

type cachedCard struct {
	key cardKey
	// pods and nominated are the first key.shown pods (and nominated pod
	// keys) the card was drawn from: the engine replaces a pod object
	// whenever it changes, so pointer and state equality mean "same glyph".
	pods      []lab.PodView
	nominated []string
	lines     []string
}

// get returns node i's cached lines if they still show the same things.
func (c *cardCache) get(m *Model, i int, k cardKey) ([]string, bool) {
	nv := m.data.nodes[i]
	e, ok := c.m[nv.Node.Name]
	if !ok || e.key != k {
		return nil, false
	}
	np := min(k.shown, len(nv.Pods))
	for j := 0; j < np; j++ {
		if e.pods[j].Pod != nv.Pods[j].Pod || e.pods[j].State != nv.Pods[j].State {
			return nil, false
		}
	}
	nom := m.data.nominated[nv.Node.Name]
	for j := 0; j < k.shown-np; j++ {
		if e.nominated[j] != nom[j] {
			return nil, false
		}
	}
	return e.lines, true
}

func (c *cardCache) put(m *Model, i int, k cardKey, lines []string) {
	if c.m == nil {
		c.m = map[string]cachedCard{}
	}
	c.misses++
	nv := m.data.nodes[i]
	np := min(k.shown, len(nv.Pods))
	nom := m.data.nominated[nv.Node.Name]
	c.m[nv.Node.Name] = cachedCard{key: k, lines: lines,
		pods:      append([]lab.PodView(nil), nv.Pods[:np]...),
		nominated: append([]string(nil), nom[:k.shown-np]...)}
}

// cardKeyOf builds the cache key of node i's card showing `shown` glyphs.
func (m *Model) cardKeyOf(i, w, shown int, selected, rows bool) cardKey {
	nv := m.data.nodes[i]
	nom := m.data.nominated[nv.Node.Name]
	k := cardKey{node: nv.Node, use: m.data.usage[i], pressure: nv.MemoryPressure, w: w, selected: selected, podSel: -1,
		npods: len(nv.Pods) + len(nom), shown: shown, wlGen: m.data.wlGen, styles: m.st, rows: rows}
	if selected {
		k.focus = m.focus
		if m.focus == focusPods {
			k.podSel = clamp(m.podIdx, len(nv.Pods))
		}
	}
	return k
}
