package serve

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	bm "charm.land/wish/v2/bubbletea"

	"podlab.dev/podlab/lab"
	"podlab.dev/podlab/lab/command"
	"podlab.dev/podlab/lab/workshop"
	"podlab.dev/podlab/ui"
	"podlab.dev/podlab/ui/instructor"
)

// Config configures a workshop server.
type Config struct {
	// Lesson is the scenario every participant gets a copy of.
	Lesson *lab.File
	// Listen is the address (":2222").
	Listen string
	// MaxSessions caps connected participants (0: no cap).
	MaxSessions int
	// IdleTimeout disconnects a participant who pressed nothing for this
	// long (0: never); the lab is kept for a reconnect.
	IdleTimeout time.Duration
	// HostKeyPEM is the server's private host key.
	HostKeyPEM []byte
	Auth       Auth
	Limits     workshop.Limits
	Markers    workshop.Markers
	// Theme for participants' labs ("" picks from their terminal).
	Theme string
	// Log receives server events, one line each (nil: the room keeps them
	// for the instructor only).
	Log io.Writer
	// ReapEvery is how often idle sessions are looked for (default 5s).
	ReapEvery time.Duration
	// ObserveEvery is how often a participant's checks are re-evaluated
	// while nothing they did changed (default 1s).
	ObserveEvery time.Duration
	// TickEvery is the participants' clock tick (default 1s: every tick
	// redraws the whole screen, about 1.4 ms of CPU, and the server draws
	// for everyone; keys still redraw at once).
	TickEvery time.Duration
	// FPS caps each participant's frames per second (default 60, Bubble
	// Tea's: a frame waits for the next flush, so a lower cap adds up to
	// 1/FPS to every keystroke, and typing stays under it anyway).
	FPS int
	// Record is the --record file ("": none): written every 30s and when
	// the workshop ends, before participants are disconnected.
	Record string
	// Host is the name participants use in the connect line ("" :
	// the machine's host name).
	Host string
}

// Server is a running workshop.
type Server struct {
	cfg  Config
	ssh  *ssh.Server
	room *Room

	mu       sync.Mutex
	ln       net.Listener
	handlers sync.WaitGroup
	ending   bool
	done     chan struct{}
	endOnce  sync.Once
}

// New builds a server; Serve starts it.
func New(cfg Config) (*Server, error) {
	if cfg.Lesson == nil {
		return nil, errors.New("serve: no lesson")
	}
	if cfg.ReapEvery <= 0 {
		cfg.ReapEvery = 5 * time.Second
	}
	if cfg.ObserveEvery <= 0 {
		cfg.ObserveEvery = time.Second
	}
	if cfg.TickEvery <= 0 {
		cfg.TickEvery = time.Second
	}
	if cfg.FPS <= 0 {
		cfg.FPS = 60
	}
	if cfg.Markers == (workshop.Markers{}) {
		cfg.Markers = workshop.DefaultMarkers
	}
	// the lesson must load: better to fail now than at the first connect
	if _, err := lab.NewSession(cfg.Lesson, lab.SessionOptions{}); err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	s := &Server{cfg: cfg, done: make(chan struct{})}
	s.room = newRoom(s)
	opts := []ssh.Option{
		wish.WithHostKeyPEM(cfg.HostKeyPEM),
		wish.WithVersion("podlab"),
		wish.WithMiddleware(s.middleware),
	}
	switch cfg.Auth.Mode {
	case "", "open":
	case "keys":
		if len(cfg.Auth.Keys) == 0 {
			return nil, errors.New("serve: --auth keys needs at least one key")
		}
		opts = append(opts, wish.WithPublicKeyAuth(func(_ ssh.Context, k ssh.PublicKey) bool {
			_, ok := cfg.Auth.find(k)
			return ok
		}))
	case "password":
		if cfg.Auth.Password == "" {
			return nil, errors.New("serve: --auth password needs a password")
		}
		opts = append(opts, wish.WithPasswordAuth(func(_ ssh.Context, p string) bool { return cfg.Auth.passwordOK(p) }))
	default:
		return nil, fmt.Errorf("serve: --auth %q: want open, keys FILE or password", cfg.Auth.Mode)
	}
	srv, err := wish.NewServer(opts...)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	// Nothing but the lab: no port forwarding (the callbacks stay nil,
	// which denies), no subsystems (sftp), no global requests, only
	// session channels.
	srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": ssh.DefaultSessionHandler}
	srv.SubsystemHandlers = map[string]ssh.SubsystemHandler{}
	srv.RequestHandlers = map[string]ssh.RequestHandler{}
	srv.LocalPortForwardingCallback = nil
	srv.ReversePortForwardingCallback = nil
	srv.HandshakeTimeout = 30 * time.Second
	s.ssh = srv
	return s, nil
}

// Room is the room, for the instructor's view.
func (s *Server) Room() *Room { return s.room }

// Done is closed when the workshop ended (End or Shutdown).
func (s *Server) Done() <-chan struct{} { return s.done }

// Serve accepts connections on l until Shutdown.
func (s *Server) Serve(l net.Listener) error {
	s.mu.Lock()
	s.ln = l
	s.mu.Unlock()
	go s.reap()
	s.room.logf("serving %q on %s (%s)", s.room.lessonTitle(), l.Addr(), s.authLine())
	if s.cfg.Record != "" {
		go s.recordEvery(s.cfg.Record, 30*time.Second, s.done)
	}
	err := s.ssh.Serve(l)
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// Addr is the listening address (after Serve started).
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln == nil {
		return nil
	}
	return s.ln.Addr()
}

func (s *Server) authLine() string {
	switch s.cfg.Auth.Mode {
	case "keys":
		n := 0
		for _, k := range s.cfg.Auth.Keys {
			if k.Instructor {
				n++
			}
		}
		return fmt.Sprintf("auth: %d keys, %d instructor", len(s.cfg.Auth.Keys), n)
	case "password":
		return "auth: password"
	}
	return "auth: open"
}

// connectLine is what participants type.
func (s *Server) connectLine() string {
	host := s.cfg.Host
	if host == "" {
		host, _ = os.Hostname()
		if host == "" {
			host = "localhost"
		}
	}
	port := "22"
	if a := s.Addr(); a != nil {
		if _, p, err := net.SplitHostPort(a.String()); err == nil {
			port = p
		}
	}
	if port == "22" {
		return "ssh " + host
	}
	return "ssh -p " + port + " " + host
}

// connectLineFor is the connect line with a participant's name as the
// user, so a reconnect finds their lab.
func (s *Server) connectLineFor(name string) string {
	line := s.connectLine()
	if strings.ContainsAny(name, " ") || workshop.IsGeneric(name) {
		return line
	}
	i := strings.LastIndexByte(line, ' ')
	return line[:i+1] + name + "@" + line[i+1:]
}

// newSession is a fresh participant lab on the lesson, under the limits,
// with no host file access; refusals counts the commands the limits
// refused (the participant's goroutine reads it after each update).
func (s *Server) newSession() (*lab.Session, *refusals, error) {
	ref := &refusals{}
	sess, err := lab.NewSession(s.cfg.Lesson, lab.SessionOptions{Guard: countingGuard{s.cfg.Limits.Guard(), ref}, NoFiles: true})
	if err != nil {
		return nil, nil, err
	}
	if sc := s.cfg.Lesson.Scenario; sc != nil && sc.Clock.ResumeAt > 0 {
		if err := sess.Advance(sc.Clock.ResumeAt); err != nil {
			return nil, nil, err
		}
	}
	return sess, ref, nil
}

// refusals is how many commands a session's limits refused, and the
// last message. Only the session's goroutine touches it.
type refusals struct {
	n    int
	last string
}

// countingGuard counts what the limits refuse, so the participant sees
// a banner and the instructor a note.
type countingGuard struct {
	g   lab.Guard
	ref *refusals
}

func (c countingGuard) Before(s *lab.Session, cmd command.Command) error {
	return c.count(c.g.Before(s, cmd))
}

func (c countingGuard) After(s *lab.Session) error { return c.count(c.g.After(s)) }

func (c countingGuard) count(err error) error {
	if err != nil {
		c.ref.n++
		c.ref.last = err.Error()
	}
	return err
}

// middleware is the whole SSH application: every session ends here.
func (s *Server) middleware(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		defer func() {
			if r := recover(); r != nil {
				s.room.logf("panic in the session of %s: %v\n%s", workshop.CleanName(sess.User()), r, debug.Stack())
				_ = sess.Exit(1)
			}
		}()
		s.handle(sess)
		next(sess)
	}
}

func (s *Server) handle(sess ssh.Session) {
	if cmd := sess.Command(); len(cmd) > 0 || sess.Subsystem() != "" {
		fmt.Fprintf(sess.Stderr(), "podlab serves an interactive lab only (no commands): %s\r\n", s.connectLine())
		_ = sess.Exit(1)
		return
	}
	pty, winch, ok := sess.Pty()
	if !ok {
		fmt.Fprintf(sess.Stderr(), "podlab needs a terminal: ssh -t ...\r\n")
		_ = sess.Exit(1)
		return
	}
	s.mu.Lock()
	ending := s.ending
	s.mu.Unlock()
	if ending {
		fmt.Fprintf(sess, "The workshop has ended.\r\n")
		return
	}
	keyID := ""
	if s.cfg.Auth.Mode == "keys" {
		k, _ := s.cfg.Auth.find(sess.PublicKey())
		keyID = fingerprint(sess.PublicKey())
		if k.Instructor {
			s.runInstructor(sess, winch)
			return
		}
	}
	s.handlers.Add(1)
	defer s.handlers.Done()
	noColor := false
	for _, e := range sess.Environ() {
		if v, ok := strings.CutPrefix(e, "NO_COLOR="); ok && v != "" {
			noColor = true
		}
	}
	p := &participant{srv: s, keyID: keyID, uiOpts: ui.Options{Theme: s.cfg.Theme, NoColor: noColor, NoFiles: true, TickEvery: s.cfg.TickEvery},
		w: pty.Window.Width, h: pty.Window.Height, bucket: newBucket(s.cfg.Limits.CommandsPerSecond, time.Now())}
	opts := append(bm.MakeOptions(sess), tea.WithoutSignalHandler(), tea.WithFPS(s.cfg.FPS))
	prog := tea.NewProgram(p, opts...)
	p.prog = prog
	name := workshop.CleanName(sess.User())
	if workshop.IsGeneric(sess.User()) {
		p.asking = true
	} else if err := p.join(name); err != nil {
		fmt.Fprintf(sess, "%s. Ask the instructor.\r\n", sentence(err))
		return
	}
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	go func() {
		for {
			select {
			case <-ctx.Done():
				prog.Quit()
				return
			case w, ok := <-winch:
				if !ok {
					// the session's requests ended: the client left
					prog.Quit()
					return
				}
				p.size.Store(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
				prog.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
			}
		}
	}()
	_, err := prog.Run()
	prog.Kill()
	if p.seat != nil {
		s.room.leave(p.seat)
		s.room.logf("%s left%s", p.seat.name, suffix(p.endReason))
	}
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		s.room.logf("session error: %v", err)
	}
	if p.endReason == "" && p.seat != nil {
		p.endReason = fmt.Sprintf("Bye %s — your lab is kept: %s to continue where you left off.", p.seat.name, s.connectLineFor(p.seat.name))
	}
	if p.endReason != "" {
		fmt.Fprintf(sess, "%s\r\n", p.endReason)
	}
}

func (s *Server) runInstructor(sess ssh.Session, winch <-chan ssh.Window) {
	m := &latestSize{Model: instructor.New(s.room, instructor.Options{Remote: true, Markers: s.cfg.Markers})}
	prog := tea.NewProgram(m, append(bm.MakeOptions(sess), tea.WithoutSignalHandler())...)
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	go func() {
		for {
			select {
			case <-ctx.Done():
				prog.Quit()
				return
			case <-s.done:
				prog.Quit()
				return
			case w, ok := <-winch:
				if !ok {
					prog.Quit()
					return
				}
				m.size.Store(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
				prog.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
			}
		}
	}()
	s.room.logf("instructor %s connected over SSH", workshop.CleanName(sess.User()))
	_, _ = prog.Run()
	prog.Kill()
}

func suffix(reason string) string {
	if reason == "" {
		return ""
	}
	return " (" + firstSentence(reason) + ")"
}

func firstSentence(s string) string {
	if i := strings.IndexAny(s, ".—"); i > 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}

func sentence(err error) string {
	m := err.Error()
	if m == "" {
		return m
	}
	return strings.ToUpper(m[:1]) + m[1:]
}

func fingerprint(k ssh.PublicKey) string {
	if k == nil {
		return ""
	}
	sum := sha256.Sum256(k.Marshal())
	return base64.RawStdEncoding.EncodeToString(sum[:])
}

// reap ends sessions idle for longer than the idle timeout.
func (s *Server) reap() {
	if s.cfg.IdleTimeout <= 0 {
		return
	}
	t := time.NewTicker(s.cfg.ReapEvery)
	defer t.Stop()
	for {
		select {
		case <-s.done:
			return
		case now := <-t.C:
			for _, st := range s.room.seatList() {
				st.mu.Lock()
				idle := st.prog != nil && now.Sub(st.progress.LastInput) > s.cfg.IdleTimeout
				st.mu.Unlock()
				if idle {
					st.send(endMsg{fmt.Sprintf("You were idle for %s, so the lab disconnected you. Your lab is kept: reconnect with %s (same name) to continue.", s.cfg.IdleTimeout, s.connectLine())})
				}
			}
		}
	}
}

// end tells every participant the workshop ended, waits (up to a few
// seconds) for their sessions to close, then stops the server.
func (s *Server) end(reason string) {
	s.endOnce.Do(func() {
		s.mu.Lock()
		s.ending = true
		s.mu.Unlock()
		if s.cfg.Record != "" {
			// while everyone is still connected: the record shows where
			// they were, not "offline"
			if err := s.WriteRecord(s.cfg.Record); err != nil {
				s.room.logf("%v", err)
			}
		}
		for _, st := range s.room.seatList() {
			st.send(endMsg{reason})
		}
		wait := make(chan struct{})
		go func() { s.handlers.Wait(); close(wait) }()
		select {
		case <-wait:
		case <-time.After(3 * time.Second):
		}
		_ = s.ssh.Close()
		close(s.done)
	})
}

// Shutdown ends the workshop with a message to everyone (SIGINT, SIGTERM
// or the instructor's end) and returns when the server stopped.
func (s *Server) Shutdown(reason string) {
	s.room.mu.Lock()
	s.room.ended = true
	s.room.mu.Unlock()
	s.end(reason)
}

// latestSize passes a model the client's latest window size only (see
// participant.size): a stale size is replaced by the latest.
type latestSize struct {
	tea.Model
	size atomic.Value // tea.WindowSizeMsg
}

func (l *latestSize) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		if latest, ok := l.size.Load().(tea.WindowSizeMsg); ok && latest != ws {
			return l, func() tea.Msg { return latest }
		}
	}
	_, cmd := l.Model.Update(msg)
	return l, cmd
}
