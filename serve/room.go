package serve

import (
	"errors"
	"fmt"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
	"podlab.dev/podlab/lab/workshop"
	"podlab.dev/podlab/ui/instructor"
)

// ErrFull is returned to a participant when --max-sessions are connected.
var ErrFull = errors.New("the workshop is full")

// Room holds the participants' seats. A seat keeps its lab after a
// disconnect, so a participant whose Wi-Fi drops gets their lab back by
// reconnecting with the same name (and, with --auth keys, the same key).
//
// Ownership: a seat's lab session and tracker belong to the seat's running
// program while it is online (only its goroutine touches them); while it
// is offline the room may touch them under the seat's lock. Progress and
// frame are copies, read by the instructor under the lock.
type Room struct {
	srv *Server

	mu    sync.Mutex
	seats map[string]*seat
	ended bool
	log   []string
}

type seat struct {
	name  string
	keyID string // the public key's fingerprint with --auth keys

	mu       sync.Mutex
	prog     *tea.Program // nil while offline
	sess     *lab.Session
	refused  *refusals
	tracker  *workshop.Tracker
	progress workshop.Progress
	frame    string
	fw, fh   int
}

var _ instructor.Room = (*Room)(nil)

const maxEvents = 200

func newRoom(srv *Server) *Room { return &Room{srv: srv, seats: map[string]*seat{}} }

// logf records a server event for the instructor (and the log writer).
func (r *Room) logf(format string, args ...any) {
	line := time.Now().Format("15:04:05") + " " + fmt.Sprintf(format, args...)
	r.mu.Lock()
	r.log = append(r.log, line)
	if len(r.log) > maxEvents {
		r.log = append([]string(nil), r.log[len(r.log)-maxEvents/2:]...)
	}
	r.mu.Unlock()
	if w := r.srv.cfg.Log; w != nil {
		fmt.Fprintln(w, line)
	}
}

// online counts connected participants.
func (r *Room) onlineLocked() int {
	n := 0
	for _, s := range r.seats {
		s.mu.Lock()
		if s.prog != nil {
			n++
		}
		s.mu.Unlock()
	}
	return n
}

// join seats a participant: their offline seat of that name (and key) if
// there is one, else a new seat; a name in use online gets a suffix
// ("ada-2"). The returned seat is owned by prog until leave.
func (r *Room) join(name, keyID string, prog *tea.Program) (*seat, bool, error) {
	// build the lab before taking the room's lock (a few ms: joins and the
	// instructor's table should not queue behind it); a reconnect drops it
	sess, ref, err := r.srv.newSession()
	if err != nil {
		return nil, false, err
	}
	now := time.Now()
	tracker := workshop.NewTracker(name, now)
	tracker.Observe(sess, now, 0)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended {
		return nil, false, errors.New("the workshop has ended")
	}
	if max := r.srv.cfg.MaxSessions; max > 0 && r.onlineLocked() >= max {
		return nil, false, ErrFull
	}
	for i := 1; ; i++ {
		n := name
		if i > 1 {
			n = fmt.Sprintf("%s-%d", name, i)
		}
		s, ok := r.seats[n]
		if !ok {
			tracker.Rename(n)
			s = &seat{name: n, keyID: keyID, sess: sess, refused: ref, tracker: tracker, prog: prog}
			s.progress = s.tracker.Progress()
			r.seats[n] = s
			return s, false, nil
		}
		s.mu.Lock()
		if s.prog == nil && s.keyID == keyID {
			s.prog = prog
			s.tracker.Online(true)
			s.progress = s.tracker.Progress()
			s.mu.Unlock()
			return s, true, nil
		}
		s.mu.Unlock()
	}
}

// leave marks a seat offline; its lab stays for a reconnect.
func (r *Room) leave(s *seat) {
	s.mu.Lock()
	s.prog = nil
	s.tracker.Online(false)
	s.progress = s.tracker.Progress()
	s.mu.Unlock()
}

// publish copies a participant's progress for the instructor.
func (s *seat) publish(p workshop.Progress) {
	s.mu.Lock()
	s.progress = p
	s.mu.Unlock()
}

func (s *seat) setFrame(f string, w, h int) {
	s.mu.Lock()
	s.frame, s.fw, s.fh = f, w, h
	s.mu.Unlock()
}

func (r *Room) seatList() []*seat {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*seat, 0, len(r.seats))
	for _, s := range r.seats {
		out = append(out, s)
	}
	return out
}

// Snapshot implements instructor.Room.
func (r *Room) Snapshot() []workshop.Progress {
	seats := r.seatList()
	out := make([]workshop.Progress, 0, len(seats))
	for _, s := range seats {
		s.mu.Lock()
		out = append(out, s.progress)
		s.mu.Unlock()
	}
	return out
}

// Frame implements instructor.Room.
func (r *Room) Frame(name string) (string, int, int, bool) {
	r.mu.Lock()
	s, ok := r.seats[name]
	r.mu.Unlock()
	if !ok {
		return "", 0, 0, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.frame, s.fw, s.fh, s.frame != ""
}

// send delivers msg to an online seat without blocking the caller (a
// participant's program may be busy); offline seats get nothing.
func (s *seat) send(msg tea.Msg) bool {
	s.mu.Lock()
	p := s.prog
	s.mu.Unlock()
	if p == nil {
		return false
	}
	go p.Send(msg)
	return true
}

// PushStep implements instructor.Room. Offline seats move too, so a
// participant who reconnects is where the room is.
func (r *Room) PushStep(step int) {
	for _, s := range r.seatList() {
		if s.send(stepMsg{step}) {
			continue
		}
		s.mu.Lock()
		if s.prog == nil {
			s.sess.SetStep(step)
			s.tracker.Observe(s.sess, time.Now(), 0)
			s.progress = s.tracker.Progress()
		}
		s.mu.Unlock()
	}
	r.logf("pushed the room to step %d", step+1)
}

// Broadcast implements instructor.Room.
func (r *Room) Broadcast(msg string) {
	msg = sanitizeLine(msg)
	for _, s := range r.seatList() {
		s.send(broadcastMsg{msg})
	}
	r.logf("broadcast: %s", msg)
}

// Reset implements instructor.Room.
func (r *Room) Reset(name string) error {
	r.mu.Lock()
	s, ok := r.seats[name]
	r.mu.Unlock()
	if !ok {
		return fmt.Errorf("no participant %q", name)
	}
	if !s.send(resetMsg{}) {
		sess, ref, err := r.srv.newSession()
		if err != nil {
			return err
		}
		s.mu.Lock()
		if s.prog == nil {
			s.sess, s.refused = sess, ref
			s.tracker.Reset(sess, time.Now())
			s.progress = s.tracker.Progress()
		}
		s.mu.Unlock()
	}
	r.logf("reset %s's lab", name)
	return nil
}

// End implements instructor.Room.
func (r *Room) End() {
	r.mu.Lock()
	already := r.ended
	r.ended = true
	r.mu.Unlock()
	if !already {
		r.logf("the workshop ended")
		go r.srv.end("The workshop has ended — thank you for taking part!")
	}
}

func (r *Room) lessonTitle() string {
	t, _ := r.Lesson()
	return t
}

// Lesson implements instructor.Room.
func (r *Room) Lesson() (string, []string) {
	f := r.srv.cfg.Lesson
	title := f.Name
	var steps []string
	if sc := f.Scenario; sc != nil {
		if sc.Title != "" {
			title = sc.Title
		}
		if sc.Lesson != nil {
			for _, st := range sc.Lesson.Steps {
				steps = append(steps, st.Title)
			}
		}
	}
	return title, steps
}

// Events implements instructor.Room.
func (r *Room) Events() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.log...)
}

// Connect implements instructor.Room.
func (r *Room) Connect() string { return r.srv.connectLine() }

// sanitizeLine keeps a message to one printable line (it is drawn on
// participants' terminals: no escape sequences).
func sanitizeLine(s string) string { return workshop.OneLine(s, 200) }
