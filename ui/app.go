// Package ui is the terminal lab: one Bubble Tea model (Model) that owns
// focus, layout and the clock loop, and plain render functions for each
// view. It reads the lab session (lab.Session) and never decides anything
// about scheduling itself: every user action becomes a command of the lab's
// language, applied through the session.
package ui

import (
	"fmt"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/assets"
	"podlab.dev/podlab/lab"
)

type viewID int

const (
	viewCluster viewID = iota
	viewExplain
	viewTimeline
	viewEviction
	viewEvents
)

var viewNames = [...]string{"cluster", "explain", "timeline", "eviction", "events"}

type focusID int

const (
	focusNodes focusID = iota
	focusPods
	focusWorkloads
	focusPending
	numFocus
)

// speeds are the clock speeds, virtual seconds per real second.
var speeds = []float64{0.25, 0.5, 1, 2, 4, 8, 16, 32, 64}

// tickEvery is the real time between clock ticks.
const tickEvery = 100 * time.Millisecond

// Minimum terminal size the lab draws in.
const (
	minWidth  = 60
	minHeight = 16
)

// Options configure the lab.
type Options struct {
	// Theme is a theme name ("" picks dark or light from the terminal).
	Theme string
	// Speed overrides the scenario's clock speed (0: the scenario's).
	Speed float64
	// NoColor drops colours (NO_COLOR is honoured by New too).
	NoColor bool
	// Paused starts with the clock stopped.
	Paused bool
	// NoFiles is a served workshop session (podlab serve): opening and
	// saving host files and switching lessons are disabled.
	NoFiles bool
	// TickEvery is the real time between clock ticks (0: 100ms); podlab
	// serve ticks less often, as every tick redraws every participant.
	TickEvery time.Duration
}

// Model is the root model.
type Model struct {
	sess *lab.Session
	opts Options
	keys KeyMap
	st   *Styles

	themeName string
	w, h      int

	view  viewID
	focus focusID

	nodeIdx, podIdx, wlIdx, pendIdx int
	groupIdx                        int

	paused   bool
	speedIdx int
	tickID   int
	// quietTicks counts ticks that skipped the refresh (nothing changed).
	quietTicks int

	lessonOpen bool
	help       bool
	helpScroll int
	legend     bool
	pal        palette
	picker     *picker

	status    string
	statusErr bool

	scroll      [len(viewNames)]int
	eventFilter string
	explainKey  string
	tlZoom      int // timeline: seconds per cell, as an index into zooms

	data frameData
	// applied counts commands applied (a change the stamp cannot see).
	applied int
	// cards caches rendered node cards and rows; podRefs the workload of
	// each pod key.
	cards     cardCache
	podRefs   map[string]string
	helpCache helpCache
	memos     memos
	// wlRows is where the last frame drew the workload list's rows.
	wlRows rowSpan
}

// tickMsg advances the clock; id guards against two loops running.
type tickMsg struct {
	id int
	at time.Time
}

// New builds the model for a session.
func New(sess *lab.Session, opts Options) *Model {
	if os.Getenv("NO_COLOR") != "" {
		opts.NoColor = true
	}
	m := &Model{opts: opts, keys: DefaultKeyMap(), lessonOpen: true}
	m.pal = newPalette()
	m.setTheme(opts.Theme)
	m.tlZoom = 2
	m.adopt(sess)
	// the command line's options override the first scenario's clock: a
	// --speed means play at that speed (unless --paused too)
	if opts.Speed != 0 {
		m.speedIdx, m.paused = speedIndex(opts.Speed), opts.Paused
	}
	if opts.Paused {
		m.paused = true
	}
	m.refresh()
	return m
}

// adopt makes sess the lab's session, as New and opening a file or preset
// do: the clock takes the scenario's speed and paused setting, and the
// selection, views and their scrolling start over.
func (m *Model) adopt(sess *lab.Session) {
	m.sess = sess
	speed, paused := 0.0, false
	if sc := sess.File().Scenario; sc != nil {
		speed, paused = sc.Clock.Speed, sc.Clock.Paused
	}
	m.speedIdx, m.paused = speedIndex(speed), paused
	m.view, m.focus = viewCluster, focusNodes
	m.nodeIdx, m.podIdx, m.wlIdx, m.pendIdx = 0, 0, 0, 0
	m.scroll = [len(viewNames)]int{}
	m.explainKey = ""
}

func speedIndex(speed float64) int {
	if speed == 0 {
		speed = 1
	}
	best := 2
	for i, s := range speeds {
		if s <= speed {
			best = i
		}
	}
	return best
}

func (m *Model) setTheme(name string) {
	if name == "" {
		name = "dark"
	}
	t, err := assets.LoadTheme(name)
	if err != nil {
		t, _ = assets.LoadTheme("dark")
		m.setStatus(err.Error(), true)
	}
	m.themeName = t.Name
	m.st = NewStyles(t, m.opts.NoColor)
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.opts.Theme == "" {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	cmds = append(cmds, m.tick())
	return tea.Batch(cmds...)
}

func (m *Model) tick() tea.Cmd {
	id := m.tickID
	return tea.Tick(m.tickEvery(), func(t time.Time) tea.Msg { return tickMsg{id: id, at: t} })
}

func (m *Model) setStatus(s string, isErr bool) {
	m.status, m.statusErr = s, isErr
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.refreshLayout()
		return m, nil
	case tea.BackgroundColorMsg:
		if m.opts.Theme == "" && !msg.IsDark() {
			m.setTheme("light")
			m.refresh()
		}
		return m, nil
	case tickMsg:
		if msg.id != m.tickID {
			return m, nil
		}
		if !m.paused {
			d := time.Duration(float64(m.tickEvery()) * speeds[m.speedIdx])
			if err := m.sess.Advance(d); err != nil {
				m.setStatus(err.Error(), true)
				m.paused = true
			}
			m.refreshAfterTick()
		}
		return m, m.tick()
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseClickMsg:
		m.handleClick(msg.Mouse())
		return m, nil
	case tea.MouseWheelMsg:
		m.handleWheel(msg.Mouse())
		return m, nil
	case fileLoadedMsg:
		return m, m.finishOpen(msg)
	case fileSavedMsg:
		if msg.err != nil {
			m.setStatus(msg.err.Error(), true)
		} else {
			m.setStatus("saved "+msg.path, false)
		}
		return m, nil
	}
	return m, nil
}

// apply runs a command line through the session, reports its output (or
// error) in the status line and refreshes; the error is returned for
// callers that show it elsewhere too (the palette keeps it inline).
func (m *Model) apply(line string) error {
	out, err := m.sess.Apply(line)
	m.changed()
	if err != nil {
		m.setStatus(err.Error(), true)
	} else {
		if out == "" {
			out = line
		}
		m.setStatus("› "+line+"  ·  "+out, false)
	}
	m.refresh()
	return err
}

func (m *Model) togglePause() {
	m.paused = !m.paused
}

func (m *Model) clockText() string {
	state := "⏵"
	if m.paused {
		state = "⏸"
	}
	sp := speeds[m.speedIdx]
	spText := fmt.Sprintf("×%g", sp)
	if sp == 0.25 {
		spText = "×¼"
	} else if sp == 0.5 {
		spText = "×½"
	}
	return fmt.Sprintf("%s %s %s", state, m.sess.Now().Clock(), spText)
}
