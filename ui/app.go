// Package ui is the terminal lab: one Bubble Tea model (Model) that owns
// the session, the clock loop, the shared selection and the layout, and
// routes keys to components — the views (tabs) and the overlays, each with
// its own key map, Update and View (component.go). It reads the lab
// session (lab.Session and the lab's view model) and never decides
// anything about scheduling itself: every user action becomes a command of
// the lab's language, applied through the session. It imports lab, its
// sub-packages command and textsafe, assets and the charm libraries only.
package ui

import (
	"fmt"
	"os"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/assets"
	"podlab.dev/podlab/lab"
)

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
	// Recovery is the recovery file ("" none; lab.RecoveryPath is the
	// user's): kept while there are unsaved changes, offered at start
	// (recovery.go). Ignored with NoFiles.
	Recovery string
}

// Model is the root model: it owns the session, the clock, the shared
// selection, the layout and the global keys, and routes the rest to the
// current view or the open overlay (see component.go).
type Model struct {
	sess *lab.Session
	// fork is the forked lab (nil: not forked); lane is the lane m.sess is.
	fork   *lab.Fork
	lane   string
	opts   Options
	global *globalKeys
	st     *Styles
	help   help.Model

	themeName string
	w, h      int

	views []view
	view  int // index in views of the current view
	// top is the open overlay other than the palette (help, legend,
	// presets); the palette, when open, is above it.
	top   overlay
	focus focusID

	nodeIdx, podIdx, wlIdx, pendIdx int
	groupIdx                        int

	paused   bool
	speedIdx int
	tickID   int
	// quietTicks counts ticks that skipped the refresh (nothing changed).
	quietTicks int

	lessonOpen bool
	pal        palette

	status    string
	statusErr bool

	eventFilter string

	data frameData
	// applied counts commands applied (a change the stamp cannot see).
	applied int
	// keysGen counts setKeys calls (the footer is memoised on it).
	keysGen int
	// cards caches rendered node cards and rows; podRefs the workload of
	// each pod key.
	cards      cardCache
	podRefs    map[string]string
	memos      memos
	headerMemo headerMemo
	// hits are the regions the last frame drew that a click can select.
	hits hitMap
	// busy is the long operation running off the UI goroutine (nil:
	// none); lastFrame is the frame drawn before it (busy.go).
	busy      *busy
	lastFrame string
	// drawn: lastFrame shows the current state (a tick that changed
	// nothing visible keeps it, so View does not draw the same frame
	// again); drawnClock is the clock it shows.
	drawn      bool
	drawnClock string
	// send delivers a message to the running program (Run sets it).
	send func(tea.Msg)

	// savedMark is the session as last opened or saved; restored, a
	// session restored from the recovery file (unsaved until saved);
	// saveName, the file it came from (quit.go, save.go).
	savedMark lab.Mark
	// savedCommands is how many commands the last save recorded (0:
	// none since the file was opened).
	savedCommands int
	restored      bool
	saveName      string
	// quitAfterSave: the quit question's s (save, then quit); quitClean:
	// the user quit (the recovery file goes).
	quitAfterSave, quitClean bool
	// recov keeps the recovery file (nil: none); restoring is the
	// recovery file being opened.
	recov     *recovery
	restoring *lab.Recovery
	// savedWhileBusy are saves that ended during a long operation.
	savedWhileBusy []fileSavedMsg
}

// setViews installs the views: their tabs and number keys follow.
func (m *Model) setViews(views []view) {
	m.views = views
	names := make([]string, len(views))
	for i, v := range views {
		names[i] = v.Title()
	}
	m.global = newGlobalKeys(names)
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
	m := &Model{opts: opts, lessonOpen: true, help: help.New()}
	m.setViews(newViews(m))
	m.pal = newPalette()
	m.setTheme(opts.Theme)
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
	if opts.Recovery != "" && !opts.NoFiles {
		m.startRecovery(opts.Recovery)
	}
	return m
}

// adopt makes sess the lab's session, as New and opening a file or preset
// do: the clock takes the scenario's speed and paused setting, and the
// selection, views and their scrolling start over.
func (m *Model) adopt(sess *lab.Session) {
	m.sess, m.fork, m.lane = sess, nil, ""
	if sess.Metrics() == nil {
		sess.EnableMetrics(0) // the metrics view's history
	}
	m.watchProgress(sess)
	speed, paused := 0.0, false
	if sc := sess.File().Scenario; sc != nil {
		speed, paused = sc.Clock.Speed, sc.Clock.Paused
	}
	m.speedIdx, m.paused = speedIndex(speed), paused
	m.view, m.focus = 0, focusNodes
	m.nodeIdx, m.podIdx, m.wlIdx, m.pendIdx = 0, 0, 0, 0
	m.saveName = ""
	m.markSaved(sess.Mark())
	for _, v := range m.views {
		v.Reset()
	}
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
	m.help.Styles = m.st.helpStyles()
	m.help.ShortSeparator = "  "
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

// setStatus shows s in the status line, which is one line: a multi-line
// report or error (deschedule --dry-run, a file's diagnostics) has its
// lines joined, not shown with ^J where they broke.
func (m *Model) setStatus(s string, isErr bool) {
	m.status, m.statusErr = oneLine(s), isErr
}

// oneLine joins the lines of s, each trimmed, with single spaces.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	var parts []string
	for _, l := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, " ")
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	// the recovery file follows every change, whichever path made it
	defer m.checkRecovery()
	// every message may change the frame but a tick that changes nothing
	// visible (see the tickMsg case)
	drawn := m.drawn
	m.drawn = false
	if m.busy != nil {
		return m.updateBusy(msg)
	}
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
			m.drawn = drawn
			return m, nil
		}
		same := true
		if !m.paused {
			d := time.Duration(float64(m.tickEvery()) * speeds[m.speedIdx])
			mark := m.eventsMark()
			err := m.advance(d)
			if err != nil {
				m.setStatus(err.Error(), true)
				m.paused = true
			} else {
				m.flashTimelineFailure(mark)
			}
			m.refreshAfterTick()
			// quiet (the frame data was kept), not a live view, and the
			// clock reads the same second: the last frame still holds
			same = err == nil && m.quietTicks > 0 && !m.views[m.view].Live() && m.clockText() == m.drawnClock
		}
		m.drawn = drawn && same
		return m, m.tick()
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseClickMsg:
		cmd := m.handleClick(msg.Mouse())
		m.setKeys()
		return m, cmd
	case tea.MouseWheelMsg:
		m.handleWheel(msg.Mouse())
		m.setKeys()
		return m, nil
	case fileLoadedMsg:
		return m, m.finishOpen(msg)
	case fileSavedMsg:
		return m, m.saved(msg)
	}
	return m, nil
}

// apply runs a command line through the session, reports its output (or
// error) in the status line and refreshes; the error is returned for
// callers that show it elsewhere too (the palette keeps it inline).
func (m *Model) apply(line string) error {
	mark := m.eventsMark()
	out, err := m.run(line)
	m.reportApplied(line, out, err)
	if err == nil {
		m.flashTimelineFailure(mark) // an advance ran the timeline
	}
	return err
}

// reportApplied shows a command's output (or error) in the status line
// and refreshes.
func (m *Model) reportApplied(line, out string, err error) {
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
}

// overlay is the overlay that takes the keys (nil: none).
func (m *Model) overlay() overlay {
	if m.pal.open {
		return paletteOverlay{m}
	}
	return m.top
}

// openOverlay opens the help, the legend or the presets.
func (m *Model) openOverlay(o overlay) {
	m.top = o
	o.SetKeys()
}

// openPalette opens the command line in a mode with a value to edit.
func (m *Model) openPalette(mode paletteMode, value string) tea.Cmd {
	return m.pal.start(mode, value)
}

func (m *Model) clockText() string {
	state := "⏵"
	if m.paused {
		state = "⏸"
	}
	if _, _, ok := m.rewound(); ok {
		state = "⏪" + state
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
