package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
)

// timelineView draws the termination of every pod that was killed as
// Gantt bars on a virtual-time axis. The zoom fits the events to the
// width until the user picks one with + and -.
type timelineView struct {
	m      *Model
	keys   timelineKeys
	scroll scroller
	// zoom is an index into zooms; auto picks the one that fits.
	zoom int
	auto bool
	// vp shows the content (bubbles/viewport), rebuilt when what it
	// shows changed (built); drawn is the last box.
	vp    viewport.Model
	built timelineState
	gen   int
	drawn memo
	// ctr finds the pods whose containers restarted; ctrPods are the
	// first of them (ctrMore the rest): timeline_containers.go
	ctr     ctrWatch
	ctrPods []ctrPod
	ctrMore int
	// ctrLen is the container section's length for maxScroll (SetKeys,
	// every frame), counted once per refresh and clock reading.
	ctrLen struct {
		ok   bool
		gen  int
		now  float64
		size int
	}
}

// timelineState is what the timeline's content depends on.
type timelineState struct {
	w, h, zoom, gen int
	st              *Styles
}

type timelineKeys struct {
	scrollKeys
	ZoomIn, ZoomOut, Fit key.Binding
}

func newTimelineView(m *Model) *timelineView {
	return &timelineView{m: m, auto: true, zoom: 2, vp: viewport.New(), keys: timelineKeys{scrollKeys: newScrollKeys(),
		ZoomIn:  bind("+", "zoom in", "+", "="),
		ZoomOut: bind("", "zoom out", "-"),
		Fit:     bind("", "zoom to fit", "f"),
	}}
}

// Title implements view.
func (v *timelineView) Title() string { return "timeline" }

// ShortHelp implements help.KeyMap.
func (v *timelineView) ShortHelp() []key.Binding {
	k := &v.keys
	return []key.Binding{k.Down, k.Up, k.ZoomIn, k.ZoomOut, k.Fit, v.m.global.Back}
}

// FullHelp implements help.KeyMap.
func (v *timelineView) FullHelp() [][]key.Binding {
	return fullHelp([]keyGroup{{"Timeline", append(v.keys.all(), &v.keys.ZoomIn, &v.keys.ZoomOut, &v.keys.Fit)}})
}

// SetKeys implements view.
func (v *timelineView) SetKeys() {
	k := &v.keys
	k.setEnabled(v.scroll.off, v.maxScroll())
	has := len(v.m.data.timelines) > 0
	zoom := v.currentZoom()
	k.ZoomIn.SetEnabled(has && zoom > 0)
	k.ZoomOut.SetEnabled(has && zoom < len(zooms)-1)
	k.Fit.SetEnabled(has && !v.auto)
}

// Update implements view.
func (v *timelineView) Update(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := &v.keys
	if d, ok := k.delta(msg, v.m.bodyHeight()-2); ok {
		v.scroll.move(d, v.maxScroll())
		return nil, true
	}
	switch {
	case key.Matches(msg, k.ZoomIn):
		v.zoom, v.auto = max(v.currentZoom()-1, 0), false
	case key.Matches(msg, k.ZoomOut):
		v.zoom, v.auto = min(v.currentZoom()+1, len(zooms)-1), false
	case key.Matches(msg, k.Fit):
		v.auto = true
	default:
		return nil, false
	}
	return nil, true
}

// currentZoom is the zoom drawn: the fitting one unless one was picked.
func (v *timelineView) currentZoom() int {
	if !v.auto {
		return v.zoom
	}
	start, end, ok := timelineSpan(v.m.data.timelines)
	if !ok {
		return v.zoom
	}
	return fitZoom((end - start).Seconds(), timelineBarWidth(v.m.w))
}

// View implements view: the content goes through a viewport, rebuilt
// only when the data, the size or the zoom changed.
func (v *timelineView) View(w, h int) []string {
	m := v.m
	if len(m.data.timelines) == 0 && len(v.ctrPods) == 0 {
		return v.render(w, h, v.currentZoom(), v.scroll.off)
	}
	st := timelineState{w: w, h: h, zoom: v.currentZoom(), gen: v.gen, st: m.st}
	if st != v.built {
		v.built = st
		v.vp.SetWidth(w - 2)
		v.vp.SetHeight(h - 2)
		v.vp.SetContentLines(v.lines(w, st.zoom))
	}
	v.vp.SetYOffset(v.scroll.off)
	type drawnKey struct {
		st  timelineState
		off int
	}
	return v.drawn.get(drawnKey{st, v.vp.YOffset()}, func() []string {
		return box(m.st, v.boxTitle(), strings.Split(v.vp.View(), "\n"), w, h, true)
	})
}

// Refresh implements view.
func (v *timelineView) Refresh() {
	v.m.data.timelines = v.m.sess.TerminationTimelines()
	v.ctr.update(v.m.sess.Engine(), v.m.sess.Engine().Events())
	v.ctrPods, v.ctrMore = containerPods(v.m.sess, v.ctr.pods)
	v.gen++
	v.scroll.clamp(v.maxScroll())
}

// Live implements view: terminations progress with the clock.
func (v *timelineView) Live() bool { return true }

// Wheel implements view.
func (v *timelineView) Wheel(delta int) { v.scroll.move(delta, v.maxScroll()) }

// Reset implements view.
func (v *timelineView) Reset() { v.scroll, v.auto = scroller{}, true }

// maxScroll is the view's lines less the box's: the axis, per pod its
// bar, its containers' bars and the cause, then a blank line and the
// legend (timelineView draws them).
func (v *timelineView) maxScroll() int {
	c, now := &v.ctrLen, v.m.sess.Now().Seconds()
	if !c.ok || c.gen != v.gen || c.now != now {
		c.ok, c.gen, c.now, c.size = true, v.gen, now, len(v.containerSection(80))
	}
	n := c.size
	if len(v.m.data.timelines) == 0 {
		if n == 0 {
			return 0
		}
		n += 2 // the hint
	} else {
		n += 1 + 2
	}
	for _, t := range v.m.data.timelines {
		n += 2 + len(t.Timeline.Containers)
	}
	return max(n-(v.m.bodyHeight()-2), 0)
}
