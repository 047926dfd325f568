package serve

import (
	"fmt"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"podlab.dev/podlab/lab"
	"podlab.dev/podlab/lab/workshop"
	"podlab.dev/podlab/ui"
)

// Messages the room sends a participant's program (room.go); they are
// handled on the program's goroutine, which owns the lab session.
type (
	stepMsg      struct{ step int }
	broadcastMsg struct{ text string }
	resetMsg     struct{}
	endMsg       struct{ reason string }
	// crashMsg panics in the participant's Update: the tests prove with it
	// that a panic ends that session only.
	crashMsg struct{}
)

// How long a banner line stays.
const (
	broadcastFor = 2 * time.Minute
	noticeFor    = 5 * time.Second
)

// A participant who pressed nothing for idleAfter ticks every idleTick.
const (
	idleAfter = 20 * time.Second
	idleTick  = 3 * time.Second
)

// participant wraps the lab's model (ui.Model) for one SSH session: it
// asks for a name when the SSH user is generic, rate-limits input, shows
// the instructor's broadcasts and limit notices on a line above the lab,
// reports progress and the last frame to the room, and applies the
// instructor's push, reset and end. A panic ends this session only.
type participant struct {
	srv  *Server
	prog *tea.Program
	// size is the client's latest window (set by the window-change
	// goroutine): Bubble Tea sends its initial size from a goroutine of
	// its own, which can arrive after a resize the client made at once.
	size   atomic.Value // tea.WindowSizeMsg
	keyID  string
	uiOpts ui.Options
	seat   *seat
	inner  *ui.Model
	sess   *lab.Session
	ref    *refusals
	seen   int // refusals already shown
	w, h   int

	asking  bool
	nameBuf []rune
	nameErr string

	// banner is the line above the lab: a notice (limits, pushes) while
	// it lasts, else the instructor's broadcast while it lasts.
	banner      string
	notice      string
	noticeUntil time.Time
	bcast       string
	bcastUntil  time.Time
	innerH      int  // the height the lab was last given
	dirty       bool // input since the last publish
	lastInput   time.Time
	slow        bool // the lab ticks at idleTick
	bucket      bucket
	dropped     int

	endReason string
}

// join takes a seat for name and builds the lab on it.
func (p *participant) join(name string) error {
	st, back, err := p.srv.room.join(name, p.keyID, p.prog)
	if err != nil {
		return err
	}
	p.seat = st
	st.mu.Lock()
	p.sess, p.ref = st.sess, st.refused
	st.mu.Unlock()
	p.seen = p.ref.n
	p.inner = ui.New(p.sess, p.uiOpts)
	p.lastInput = time.Now()
	verb := "joined"
	if back {
		verb = "reconnected"
	}
	p.srv.room.logf("%s %s", st.name, verb)
	if st.name != name {
		p.setBanner(fmt.Sprintf("%q was taken: you are %q in this workshop", name, st.name), noticeFor, time.Now())
	}
	return nil
}

// Init implements tea.Model.
func (p *participant) Init() tea.Cmd {
	if p.asking {
		return nil
	}
	return p.inner.Init()
}

// Update implements tea.Model.
func (p *participant) Update(msg tea.Msg) (m tea.Model, cmd tea.Cmd) {
	defer func() {
		if r := recover(); r != nil {
			p.crashed(r)
			m, cmd = p, tea.Quit
		}
	}()
	now := time.Now()
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		if latest, ok := p.size.Load().(tea.WindowSizeMsg); ok && latest != msg {
			// stale: have the program (and its renderer) take the latest
			return p, func() tea.Msg { return latest }
		}
		p.w, p.h = msg.Width, msg.Height
		if p.inner == nil {
			return p, nil
		}
		return p, p.resizeInner()
	case endMsg:
		p.endReason = msg.reason
		return p, tea.Quit
	case tea.MouseMotionMsg:
		// a drag redraws on every cell: over the budget, drop it quietly
		if !p.bucket.take(now) {
			return p, nil
		}
	case crashMsg:
		panic("crashMsg: a test asked this session to panic")
	case tea.KeyPressMsg, tea.MouseClickMsg, tea.PasteMsg, tea.MouseWheelMsg:
		if !p.bucket.take(now) {
			p.dropped++
			p.setBanner(fmt.Sprintf("slow down: this workshop takes at most %d keys a second (%d ignored)", p.srv.cfg.Limits.CommandsPerSecond, p.dropped), noticeFor, now)
			return p, p.resizeInner()
		}
		if p.asking {
			return p.updateName(msg)
		}
		if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "esc" && p.banner != "" {
			// esc dismisses the banner (and still reaches the lab)
			p.noticeUntil, p.bcastUntil = now, now
		}
		if p.seat != nil {
			p.seat.tracker.Input(now)
			p.dirty = true
		}
		p.lastInput = now
		if p.slow && p.inner != nil {
			p.slow = false
			p.inner.SetTickEvery(p.srv.cfg.TickEvery)
		}
	}
	if p.asking {
		return p, nil
	}
	var extra tea.Cmd
	switch msg := msg.(type) {
	case stepMsg:
		p.inner.SetStep(msg.step)
		p.setBanner(fmt.Sprintf("the instructor moved the room to step %d", msg.step+1), noticeFor, now)
		extra = p.resizeInner()
	case broadcastMsg:
		p.bcast, p.bcastUntil = "instructor: "+msg.text, now.Add(broadcastFor)
		p.noticeUntil = now
		p.updateBanner(now)
		extra = p.resizeInner()
	case resetMsg:
		sess, ref, err := p.srv.newSession()
		if err != nil {
			p.setBanner("reset failed: "+err.Error(), noticeFor, now)
			return p, p.resizeInner()
		}
		p.sess, p.ref, p.seen = sess, ref, 0
		p.seat.mu.Lock()
		p.seat.sess, p.seat.refused = sess, ref
		p.seat.mu.Unlock()
		p.seat.tracker.Reset(sess, now)
		p.inner = ui.New(sess, p.uiOpts)
		p.slow = false
		p.setBanner("the instructor gave you a fresh lab", noticeFor, now)
		p.innerH = 0
		return p, tea.Batch(p.inner.Init(), p.resizeInner(), p.observe(now, true))
	default:
		if !p.slow && now.Sub(p.lastInput) > idleAfter {
			// nobody is typing: tick less often (a glance still shows the
			// clock moving; the next key brings the full rate back)
			p.slow = true
			p.inner.SetTickEvery(idleTick)
		}
		if p.banner != "" {
			p.updateBanner(now)
			extra = p.resizeInner()
		}
		_, cmd = p.inner.Update(msg)
		if p.ref.n != p.seen {
			p.seen = p.ref.n
			p.setBanner(p.ref.last, noticeFor*2, now)
			p.srv.room.logf("%s hit a limit: %s", p.seat.name, firstSentence(p.ref.last))
			p.dirty = true
			extra = p.resizeInner()
		}
	}
	p.observe(now, false)
	return p, tea.Batch(cmd, extra)
}

// observe publishes the participant's progress when it changed.
func (p *participant) observe(now time.Time, force bool) tea.Cmd {
	every := p.srv.cfg.ObserveEvery
	if force {
		every = 0
	}
	if p.seat.tracker.Observe(p.sess, now, every) || force || p.dirty {
		p.seat.publish(p.seat.tracker.Progress())
		p.dirty = false
	}
	return nil
}

// setBanner shows a notice for d.
func (p *participant) setBanner(text string, d time.Duration, now time.Time) {
	p.notice, p.noticeUntil = text, now.Add(d)
	p.updateBanner(now)
	if p.seat != nil {
		p.seat.tracker.Note(text)
	}
}

func (p *participant) updateBanner(now time.Time) {
	switch {
	case now.Before(p.noticeUntil):
		p.banner = p.notice
	case now.Before(p.bcastUntil):
		p.banner = p.bcast
	default:
		p.banner = ""
	}
}

// resizeInner gives the lab the terminal minus the banner line.
func (p *participant) resizeInner() tea.Cmd {
	if p.inner == nil || p.w == 0 {
		return nil
	}
	h := p.h
	if p.banner != "" {
		h--
	}
	if h == p.innerH {
		return nil
	}
	_, cmd := p.inner.Update(tea.WindowSizeMsg{Width: p.w, Height: h})
	p.innerH = h
	return cmd
}

// View implements tea.Model.
func (p *participant) View() (v tea.View) {
	defer func() {
		if r := recover(); r != nil {
			p.crashed(r)
			v = tea.NewView("podlab: this session hit an internal error and ends; reconnect to continue.")
			go p.prog.Quit()
		}
	}()
	if p.asking {
		return p.nameView()
	}
	v = p.inner.View()
	if p.banner != "" {
		line := ansi.Truncate(" ▶ "+p.banner, max(p.w, 1), "…")
		style := lipgloss.NewStyle().Reverse(true).Bold(true)
		v.Content = style.Render(line+strings.Repeat(" ", max(p.w-ansi.StringWidth(line), 0))) + "\n" + v.Content
	}
	if p.seat != nil {
		p.seat.setFrame(v.Content, p.w, p.h)
	}
	return v
}

func (p *participant) crashed(r any) {
	who := "a participant"
	if p.seat != nil {
		who = p.seat.name
	}
	p.srv.room.logf("panic in %s's session (only that session ended): %v\n%s", who, r, debug.Stack())
	p.endReason = "podlab hit an internal error in your session and ended it (the instructor's log has the details). Reconnect to continue."
}

// The name prompt, for generic SSH users (root, ubuntu…).

func (p *participant) updateName(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if paste, isPaste := msg.(tea.PasteMsg); isPaste {
		p.nameBuf = append(p.nameBuf, []rune(paste.Content)...)
		return p, nil
	}
	if !ok {
		return p, nil
	}
	switch k.String() {
	case "ctrl+c", "esc":
		return p, tea.Quit
	case "backspace":
		if len(p.nameBuf) > 0 {
			p.nameBuf = p.nameBuf[:len(p.nameBuf)-1]
		}
	case "enter":
		name := workshop.CleanName(string(p.nameBuf))
		if name == "" || workshop.IsGeneric(name) {
			p.nameErr = "type the name the instructor will see (letters, digits, . - _)"
			return p, nil
		}
		if err := p.join(name); err != nil {
			p.endReason = sentence(err) + ". Ask the instructor."
			return p, tea.Quit
		}
		p.asking = false
		p.seat.tracker.Input(time.Now())
		return p, tea.Batch(p.inner.Init(), p.resizeInner(), p.observe(time.Now(), true))
	default:
		if k.Text != "" && len(p.nameBuf) < workshop.MaxNameLen {
			p.nameBuf = append(p.nameBuf, []rune(k.Text)...)
		}
	}
	return p, nil
}

func (p *participant) nameView() tea.View {
	title, _ := p.srv.room.Lesson()
	lines := []string{
		"",
		"  podlab workshop — " + title,
		"",
		"  Your name (the instructor sees it): " + string(p.nameBuf) + "█",
	}
	if p.nameErr != "" {
		lines = append(lines, "", "  "+p.nameErr)
	}
	lines = append(lines, "", "  enter to start · esc to leave")
	v := tea.NewView(strings.Join(lines, "\n"))
	v.AltScreen = true
	return v
}
