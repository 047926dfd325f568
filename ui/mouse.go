package ui

import (
	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// Mouse hits come from what the last frame drew: while drawing, the
// header records its tabs and the cluster view its panels, node cards,
// pod glyphs and workload rows as regions (hitMap). A click or the wheel
// looks the point up; nothing is re-rendered or read back from the text.

// hitKind is what a region selects.
type hitKind int

const (
	hitTab      hitKind = iota // a view's tab: index is the view
	hitPanel                   // a cluster panel: focus is the panel
	hitNode                    // a node card or row: index is the node
	hitPod                     // a pod glyph: node and index
	hitWorkload                // a workload row: index is the workload
	hitTime                    // the rewind slider: index is the instant (ns)
	hitPending                 // a pending pod's line: index is the pod
)

// hit is one region of the screen, cells [x0,x1) × [y0,y1).
type hit struct {
	x0, y0, x1, y1 int
	kind           hitKind
	node, index    int
	focus          focusID
}

// hitMap is the regions of one frame; later regions lie on top.
type hitMap struct {
	w, h   int // the frame's size
	ox, oy int // origin of what is being drawn
	hits   []hit
}

// reset starts a frame of w×h cells.
func (hm *hitMap) reset(w, h int) {
	hm.w, hm.h, hm.ox, hm.oy = w, h, 0, 0
	hm.hits = hm.hits[:0]
}

// add records a region relative to the current origin.
func (hm *hitMap) add(h hit) {
	h.x0, h.x1 = h.x0+hm.ox, h.x1+hm.ox
	h.y0, h.y1 = h.y0+hm.oy, h.y1+hm.oy
	hm.hits = append(hm.hits, h)
}

// clip cuts the node and pod regions in columns [x0, x1) at line y
// (relative to the origin): what lies below was cut off by the box.
func (hm *hitMap) clip(x0, x1, y int) {
	x0, x1, y = x0+hm.ox, x1+hm.ox, y+hm.oy
	out := hm.hits[:0]
	for _, h := range hm.hits {
		if (h.kind == hitNode || h.kind == hitPod) && h.x0 >= x0 && h.x0 < x1 {
			if h.y0 >= y {
				continue
			}
			h.y1 = min(h.y1, y)
		}
		out = append(out, h)
	}
	hm.hits = out
}

// at is the topmost region of a kind at (x, y).
func (hm *hitMap) at(x, y int, kinds ...hitKind) (hit, bool) {
	for i := len(hm.hits) - 1; i >= 0; i-- {
		h := hm.hits[i]
		if x < h.x0 || x >= h.x1 || y < h.y0 || y >= h.y1 {
			continue
		}
		for _, k := range kinds {
			if h.kind == k {
				return h, true
			}
		}
	}
	return hit{}, false
}

// frameHits returns the regions of the frame on screen (drawing it first
// if the terminal changed size since).
func (m *Model) frameHits() *hitMap {
	if m.hits.w != m.w || m.hits.h != m.h {
		m.render()
	}
	return &m.hits
}

// handleClick selects what is under the mouse: a view tab, a pod glyph,
// a node, a workload row, a pending pod, an instant on the rewind slider.
func (m *Model) handleClick(mo tea.Mouse) tea.Cmd {
	if m.w < minWidth || m.h < minHeight || m.overlay() != nil {
		return nil
	}
	hm := m.frameHits()
	if h, ok := hm.at(mo.X, mo.Y, hitTime); ok {
		return m.rewindTo(lab.Time(h.index))
	}
	if h, ok := hm.at(mo.X, mo.Y, hitTab); ok {
		m.switchView(h.index)
		return nil
	}
	if m.view != 0 {
		return nil
	}
	if h, ok := hm.at(mo.X, mo.Y, hitPod, hitNode, hitWorkload, hitPending); ok {
		switch h.kind {
		case hitPending:
			m.pendIdx, m.focus = h.index, focusPending
		case hitWorkload:
			m.wlIdx, m.focus = h.index, focusWorkloads
			m.refresh()
		case hitNode:
			m.nodeIdx, m.podIdx, m.focus = h.node, 0, focusNodes
		case hitPod:
			m.nodeIdx, m.podIdx, m.focus = h.node, h.index, focusPods
		}
	}
	return nil
}

// handleWheel scrolls the list or view under the mouse: in the cluster
// view the panel under the pointer takes the focus first.
func (m *Model) handleWheel(mo tea.Mouse) {
	if m.overlay() != nil {
		return
	}
	if m.view == 0 {
		if h, ok := m.frameHits().at(mo.X, mo.Y, hitPanel); ok && h.focus != m.focus {
			m.focus = h.focus
			if h.focus != focusPods {
				m.refresh()
			}
		}
	}
	switch mo.Button {
	case tea.MouseWheelUp:
		m.views[m.view].Wheel(-1)
	case tea.MouseWheelDown:
		m.views[m.view].Wheel(1)
	}
}
