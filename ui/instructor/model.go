// Package instructor is the instructor's view of a workshop (podlab
// serve): a live, sortable table of participants — step, checks passed,
// time on the step, last command, idle/stuck marker — and the actions the
// instructor takes on the room: push everyone to a step, broadcast a line,
// reset a participant's lab, spotlight a participant's screen (a read-only
// mirror, full size, for the projector), and end the workshop with a
// summary. It reads and acts through the Room interface only.
package instructor

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"podlab.dev/podlab/lab/workshop"
)

// Options configure the view.
type Options struct {
	// Remote is an instructor connected over SSH: q leaves the view
	// without ending the workshop.
	Remote bool
	// Markers say when a participant is idle or stuck.
	Markers workshop.Markers
	// Now is the clock (tests); nil is time.Now.
	Now func() time.Time
	// Refresh is how often the table re-reads the room (default 500ms).
	Refresh time.Duration
}

type mode int

const (
	modeTable mode = iota
	modeSpotlight
	modePush
	modeBroadcast
	modeConfirmReset
	modeConfirmEnd
	modeSummary
)

// Model is the instructor's view.
type Model struct {
	room Room
	opts Options
	w, h int

	rows    []workshop.Progress
	sortKey workshop.SortKey
	sel     string // selected participant's name (stable across re-sorts)
	mode    mode
	input   []rune
	status  string
	summary workshop.Summary
	tickID  int
}

type tickMsg struct{ id int }

// EndedMsg tells the view the workshop ended elsewhere (a signal, another
// instructor): it shows the summary.
type EndedMsg struct{}

// New builds the view on a room.
func New(room Room, opts Options) *Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Markers == (workshop.Markers{}) {
		opts.Markers = workshop.DefaultMarkers
	}
	if opts.Refresh <= 0 {
		opts.Refresh = 500 * time.Millisecond
	}
	m := &Model{room: room, opts: opts, sortKey: workshop.ByStep, w: 100, h: 30}
	m.reload()
	return m
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return m.tick() }

func (m *Model) tick() tea.Cmd {
	id := m.tickID
	return tea.Tick(m.opts.Refresh, func(time.Time) tea.Msg { return tickMsg{id} })
}

// reload re-reads the room and sorts.
func (m *Model) reload() {
	m.rows = m.room.Snapshot()
	workshop.Sort(m.rows, m.sortKey, m.opts.Now())
	if m.sel == "" && len(m.rows) > 0 {
		m.sel = m.rows[0].Name
	}
}

func (m *Model) selIndex() int {
	for i, r := range m.rows {
		if r.Name == m.sel {
			return i
		}
	}
	return 0
}

// Rows is the table as drawn (tests).
func (m *Model) Rows() []workshop.Progress { return m.rows }

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tickMsg:
		if msg.id != m.tickID {
			return m, nil
		}
		if m.mode != modeSummary {
			m.reload()
		}
		return m, m.tick()
	case tea.KeyPressMsg:
		return m.key(msg)
	case EndedMsg:
		if m.mode != modeSummary {
			m.reload()
			m.summary = workshop.Summarize(m.rows)
			m.mode = modeSummary
		}
	}
	return m, nil
}

func (m *Model) key(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	s := k.String()
	switch m.mode {
	case modeSpotlight:
		switch s {
		case "esc", "q", "enter", "space":
			m.mode = modeTable
		case "up", "k", "left":
			m.moveSel(-1)
		case "down", "j", "right":
			m.moveSel(1)
		case "ctrl+c":
			m.mode = modeConfirmEnd
		}
		return m, nil
	case modePush, modeBroadcast:
		return m.promptKey(k)
	case modeConfirmReset, modeConfirmEnd:
		if s == "y" || s == "Y" {
			if m.mode == modeConfirmReset {
				if err := m.room.Reset(m.sel); err != nil {
					m.status = err.Error()
				} else {
					m.status = "reset " + m.sel + "'s lab"
				}
				m.mode = modeTable
				return m, nil
			}
			return m.end()
		}
		m.mode, m.status = modeTable, "cancelled"
		return m, nil
	case modeSummary:
		if s == "q" || s == "ctrl+c" || s == "esc" || s == "enter" {
			return m, tea.Quit
		}
		return m, nil
	}
	switch s {
	case "up", "k":
		m.moveSel(-1)
	case "down", "j":
		m.moveSel(1)
	case "s":
		m.sortKey = m.sortKey.Next()
		m.reload()
		m.status = "sorted by " + m.sortKey.String()
	case "enter", "space", "f":
		if len(m.rows) > 0 {
			m.mode = modeSpotlight
		}
	case "p":
		m.mode, m.input, m.status = modePush, nil, ""
	case "b":
		m.mode, m.input, m.status = modeBroadcast, nil, ""
	case "r":
		if len(m.rows) > 0 {
			m.mode = modeConfirmReset
		}
	case "e":
		m.mode = modeConfirmEnd
	case "q", "ctrl+c":
		if m.opts.Remote {
			return m, tea.Quit
		}
		m.mode = modeConfirmEnd
	}
	return m, nil
}

func (m *Model) moveSel(d int) {
	if len(m.rows) == 0 {
		return
	}
	i := max(0, min(m.selIndex()+d, len(m.rows)-1))
	m.sel = m.rows[i].Name
}

func (m *Model) promptKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch k.String() {
	case "esc", "ctrl+c":
		m.mode, m.status = modeTable, "cancelled"
	case "backspace":
		if len(m.input) > 0 {
			m.input = m.input[:len(m.input)-1]
		}
	case "enter":
		text := strings.TrimSpace(string(m.input))
		if m.mode == modePush {
			_, steps := m.room.Lesson()
			n, err := strconv.Atoi(text)
			if err != nil || n < 1 || n > len(steps) {
				m.status = fmt.Sprintf("give a step number from 1 to %d", len(steps))
				return m, nil
			}
			m.room.PushStep(n - 1)
			m.status = fmt.Sprintf("pushed the room to step %d", n)
		} else if text != "" {
			m.room.Broadcast(text)
			m.status = "sent: " + text
		}
		m.mode = modeTable
	default:
		if k.Text != "" && len(m.input) < 200 {
			m.input = append(m.input, []rune(k.Text)...)
		}
	}
	return m, nil
}

// end ends the workshop and shows the summary.
func (m *Model) end() (tea.Model, tea.Cmd) {
	m.reload()
	m.summary = workshop.Summarize(m.rows)
	m.room.End()
	m.mode = modeSummary
	return m, nil
}

// SummaryText is the end-of-workshop summary as text (also printed when
// the server exits).
func SummaryText(title string, steps []string, s workshop.Summary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Workshop summary — %s\n", title)
	fmt.Fprintf(&b, "%d participants; %d finished the lesson\n", s.Participants, s.Finished)
	for i, st := range steps {
		n := 0
		if i < len(s.StepsDone) {
			n = s.StepsDone[i]
		}
		bar := strings.Repeat("█", n)
		fmt.Fprintf(&b, "  step %d %-32s %3d %s\n", i+1, cut(st, 32), n, bar)
	}
	return b.String()
}

var (
	bold   = lipgloss.NewStyle().Bold(true)
	faint  = lipgloss.NewStyle().Faint(true)
	invert = lipgloss.NewStyle().Reverse(true)
	warn   = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#ff8700"))
	good   = lipgloss.NewStyle().Foreground(lipgloss.Color("#5fd75f"))
)

// View implements tea.Model.
func (m *Model) View() tea.View {
	var content string
	switch m.mode {
	case modeSpotlight:
		content = m.spotlightView()
	case modeSummary:
		title, steps := m.room.Lesson()
		content = SummaryText(title, steps, m.summary) + "\n" + faint.Render("The participants were told. Press q to close.")
	default:
		content = m.tableView()
	}
	v := tea.NewView(content)
	v.AltScreen = true
	v.WindowTitle = "podlab serve — instructor"
	return v
}

func (m *Model) tableView() string {
	now := m.opts.Now()
	title, steps := m.room.Lesson()
	online := 0
	for _, r := range m.rows {
		if r.Online {
			online++
		}
	}
	var lines []string
	lines = append(lines, faint.Render("participants type: ")+bold.Render(m.room.Connect())+faint.Render("  · podlab workshop · ")+title)
	lines = append(lines, fmt.Sprintf("%d connected, %d seats · sorted by %s (s)", online, len(m.rows), m.sortKey))
	lines = append(lines, "")
	nameW := 12
	for _, r := range m.rows {
		nameW = max(nameW, ansi.StringWidth(r.Name))
	}
	nameW = min(nameW, workshop.MaxNameLen)
	stepW := 26
	cmdW := max(m.w-(2+nameW+1+stepW+1+7+1+8+1+8)-2, 10)
	header := fmt.Sprintf("  %-*s %-*s %-7s %-8s %-8s %s", nameW, "NAME", stepW, "STEP", "CHECKS", "ON STEP", "STATUS", "LAST COMMAND")
	lines = append(lines, faint.Render(ansi.Truncate(header, m.w, "")))
	if len(m.rows) == 0 {
		lines = append(lines, "", faint.Render("  nobody yet — participants connect with: "+m.room.Connect()))
	}
	maxRows := max(m.h-len(lines)-8, 3)
	start := max(0, min(m.selIndex()-maxRows+1, len(m.rows)-maxRows))
	for i := start; i < len(m.rows) && i < start+maxRows; i++ {
		r := m.rows[i]
		st := m.opts.Markers.StatusOf(r, now)
		step := "—"
		if r.Steps > 0 {
			step = fmt.Sprintf("%d/%d %s", r.Step+1, r.Steps, r.StepTitle)
		}
		checks := "—"
		if r.Total > 0 {
			checks = fmt.Sprintf("%d/%d", r.Passed, r.Total)
		}
		mark := "  "
		if r.Name == m.sel {
			mark = "▸ "
		}
		line := fmt.Sprintf("%s%-*s %-*s %-7s %-8s %-8s %s", mark, nameW, cut(r.Name, nameW), stepW, cut(step, stepW), checks,
			dur(now.Sub(r.StepSince)), string(st), cut(r.LastCommand, cmdW))
		line = ansi.Truncate(line, m.w, "…")
		switch {
		case r.Name == m.sel:
			line = invert.Render(line)
		case st == workshop.StatusStuck:
			line = warn.Render(line)
		case st == workshop.StatusDone || r.Complete():
			line = good.Render(line)
		case st == workshop.StatusOffline || st == workshop.StatusIdle:
			line = faint.Render(line)
		}
		lines = append(lines, line)
	}
	// where the room is: participants per step
	if len(steps) > 0 && len(m.rows) > 0 {
		per := make([]int, len(steps))
		for _, r := range m.rows {
			if r.Step < len(per) {
				per[r.Step]++
			}
		}
		var parts []string
		for i, n := range per {
			parts = append(parts, fmt.Sprintf("%d:%s", i+1, strings.Repeat("▮", n)+strings.Repeat("·", max(0, 1-n))))
		}
		lines = append(lines, "", faint.Render("room by step  ")+strings.Join(parts, "  "))
	}
	// recent events
	ev := m.room.Events()
	if n := min(len(ev), 3); n > 0 {
		lines = append(lines, "")
		for _, e := range ev[len(ev)-n:] {
			first, _, _ := strings.Cut(e, "\n")
			lines = append(lines, faint.Render(ansi.Truncate(workshop.OneLine(first, 300), m.w, "…")))
		}
	}
	// the prompt or the status, then the keys
	for len(lines) < m.h-3 {
		lines = append(lines, "")
	}
	if m.mode == modePush || m.mode == modeBroadcast {
		lines = append(lines, warn.Render(m.status))
	} else {
		lines = append(lines, "")
	}
	switch m.mode {
	case modePush:
		_, steps := m.room.Lesson()
		lines = append(lines, bold.Render(fmt.Sprintf("push the room to step (1-%d): ", len(steps)))+string(m.input)+"█")
	case modeBroadcast:
		lines = append(lines, bold.Render("broadcast to everyone: ")+string(m.input)+"█")
	case modeConfirmReset:
		lines = append(lines, warn.Render("reset "+m.sel+"'s lab to the start of the lesson? y/n"))
	case modeConfirmEnd:
		lines = append(lines, warn.Render(fmt.Sprintf("end the workshop for %d connected participants? y/n", online)))
	default:
		lines = append(lines, m.status)
	}
	keys := "↑↓ select · enter spotlight · s sort · p push step · b broadcast · r reset · e end"
	if m.opts.Remote {
		keys += " · q leave"
	} else {
		keys += " · q end"
	}
	lines = append(lines, faint.Render(keys))
	for i, l := range lines {
		if ansi.StringWidth(l) > m.w {
			lines[i] = ansi.Truncate(l, m.w, "…")
		}
	}
	return strings.Join(lines, "\n")
}

// spotlightView mirrors the selected participant's last frame, cut to the
// instructor's terminal, under a one-line title.
func (m *Model) spotlightView() string {
	frame, fw, fh, ok := m.room.Frame(m.sel)
	head := invert.Render(ansi.Truncate(fmt.Sprintf(" spotlight: %s (read-only, their terminal is %dx%d) · ↑↓ next participant · esc back ", m.sel, fw, fh), m.w, "…"))
	if !ok {
		return head + "\n\n  " + m.sel + " has not drawn a screen yet."
	}
	lines := strings.Split(frame, "\n")
	if len(lines) > m.h-1 {
		lines = lines[:m.h-1]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > m.w {
			lines[i] = ansi.Truncate(l, m.w, "")
		}
	}
	return head + "\n" + strings.Join(lines, "\n")
}

func cut(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// dur is a short duration: 45s, 3m12s, 1h05m.
func dur(d time.Duration) string {
	d = d.Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}
