package serve

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"podlab.dev/podlab/lab"
	"podlab.dev/podlab/lab/workshop"
)

// The end-to-end tests run a real server on a loopback port and connect
// real SSH clients (golang.org/x/crypto/ssh) with a PTY: keys go over the
// wire, and screens are read both from the client's byte stream and from
// the server's mirror of each participant's frame (what the spotlight
// shows).

func hostKey(t testing.TB) []byte {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	blk, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(blk)
}

func startServer(t testing.TB, edit func(*Config)) *Server {
	t.Helper()
	f, err := lab.LoadPreset("spread-basics")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Lesson: f, HostKeyPEM: hostKey(t), Limits: workshop.DefaultLimits, Host: "localhost", ReapEvery: 50 * time.Millisecond, ObserveEvery: 100 * time.Millisecond}
	if edit != nil {
		edit(&cfg)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	waitFor(t, "the server", func() bool { return srv.Addr() != nil })
	t.Cleanup(func() { srv.Shutdown("test over") })
	return srv
}

// client is one participant's SSH connection with a PTY.
type client struct {
	t    testing.TB
	conn *gossh.Client
	sess *gossh.Session
	in   io.WriteCloser
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
	err  error
}

func (c *client) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.Write(p)
}

func dial(t testing.TB, srv *Server, user string, auth ...gossh.AuthMethod) (*client, error) {
	t.Helper()
	cfg := &gossh.ClientConfig{User: user, Auth: auth, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second}
	conn, err := gossh.Dial("tcp", srv.Addr().String(), cfg)
	if err != nil {
		return nil, err
	}
	return &client{t: t, conn: conn, done: make(chan struct{})}, nil
}

// connect dials and starts the lab in a 120x40 terminal.
func connect(t testing.TB, srv *Server, user string, env ...string) *client {
	t.Helper()
	c, err := dial(t, srv, user)
	if err != nil {
		t.Fatalf("dial as %s: %v", user, err)
	}
	c.shell(env...)
	return c
}

func (c *client) shell(env ...string) {
	t := c.t
	t.Helper()
	s, err := c.conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(env); i += 2 {
		_ = s.Setenv(env[i], env[i+1])
	}
	if err := s.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	c.in, err = s.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.Stdout, s.Stderr = c, c
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	c.sess = s
	go func() { c.err = s.Wait(); close(c.done) }()
	t.Cleanup(func() { c.close() })
}

func (c *client) close() {
	if c.sess != nil {
		_ = c.sess.Close()
	}
	_ = c.conn.Close()
}

func (c *client) send(keys string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, keys); err != nil {
		c.t.Fatalf("send %q: %v", keys, err)
	}
}

// stream is everything received, without escape sequences.
func (c *client) stream() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return ansi.Strip(c.out.String())
}

func (c *client) closed(d time.Duration) bool {
	select {
	case <-c.done:
		return true
	case <-time.After(d):
		return false
	}
}

func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

func (s *Server) seatOf(name string) *seat {
	s.room.mu.Lock()
	defer s.room.mu.Unlock()
	return s.room.seats[name]
}

func progressOf(srv *Server, name string) (workshop.Progress, bool) {
	st := srv.seatOf(name)
	if st == nil {
		return workshop.Progress{}, false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.progress, true
}

// screen is a participant's last frame as the server drew it, plain.
func screen(srv *Server, name string) string {
	f, _, _, _ := srv.room.Frame(name)
	return ansi.Strip(f)
}

// offlineSession is a disconnected participant's lab (the room owns it
// then, so the test may read it).
func offlineSession(t testing.TB, srv *Server, name string) *lab.Session {
	t.Helper()
	st := srv.seatOf(name)
	waitFor(t, name+" offline", func() bool {
		st.mu.Lock()
		defer st.mu.Unlock()
		return st.prog == nil
	})
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.sess
}

func TestE2EParticipantsGetIsolatedLabs(t *testing.T) {
	srv := startServer(t, nil)
	ada := connect(t, srv, "ada")
	bob := connect(t, srv, "bob")
	waitFor(t, "both first frames", func() bool {
		return strings.Contains(screen(srv, "ada"), "Spread basics") && strings.Contains(screen(srv, "bob"), "Spread basics")
	})
	waitFor(t, "ada's terminal shows the lab", func() bool { return strings.Contains(ada.stream(), "zoneA") })
	ada.send(":drain node1 --force\r")
	waitFor(t, "ada's drain recorded", func() bool {
		p, _ := progressOf(srv, "ada")
		return strings.HasPrefix(p.LastCommand, "drain node1")
	})
	bob.send("+")
	waitFor(t, "bob's scale recorded", func() bool {
		p, _ := progressOf(srv, "bob")
		return strings.HasPrefix(p.LastCommand, "scale deployment/web")
	})
	ada.close()
	bob.close()
	as, bs := offlineSession(t, srv, "ada"), offlineSession(t, srv, "bob")
	if n := as.Engine().Node("node1"); n == nil || !n.Spec.Unschedulable {
		t.Errorf("ada's node1 is not drained (cordoned) in her own lab")
	}
	if n := bs.Engine().Node("node1"); n == nil || n.Spec.Unschedulable {
		t.Errorf("ada's drain leaked into bob's lab")
	}
	if h := as.History(); len(h) != 1 || !strings.HasPrefix(h[0].Line, "drain node1") {
		t.Errorf("ada's history %v", h)
	}
	if h := bs.History(); len(h) != 1 || !strings.HasPrefix(h[0].Line, "scale") {
		t.Errorf("bob's history %v", h)
	}
}

func TestE2EGenericUserIsAskedForAName(t *testing.T) {
	srv := startServer(t, nil)
	c := connect(t, srv, "root")
	waitFor(t, "the name prompt", func() bool { return strings.Contains(c.stream(), "Your name") })
	if srv.seatOf("root") != nil {
		t.Fatal("root got a seat before giving a name")
	}
	c.send("Grace H\r")
	waitFor(t, "Grace's lab", func() bool { return strings.Contains(screen(srv, "Grace H"), "Spread basics") })
}

func TestE2EReconnectGetsTheLabBackAndNamesStayUnique(t *testing.T) {
	srv := startServer(t, nil)
	a := connect(t, srv, "ada")
	a.send(":cordon node2\r")
	waitFor(t, "cordon", func() bool { p, _ := progressOf(srv, "ada"); return p.LastCommand == "cordon node2" })
	// a second "ada" while the first is online is ada-2
	a2 := connect(t, srv, "ada")
	waitFor(t, "ada-2", func() bool { return strings.Contains(screen(srv, "ada-2"), "you are \"ada-2\"") })
	a2.close()
	a.close()
	waitFor(t, "ada offline", func() bool { p, _ := progressOf(srv, "ada"); return !p.Online })
	a = connect(t, srv, "ada")
	waitFor(t, "ada back online", func() bool { p, _ := progressOf(srv, "ada"); return p.Online })
	a.send(":uncordon node2\r")
	waitFor(t, "uncordon", func() bool { p, _ := progressOf(srv, "ada"); return p.LastCommand == "uncordon node2" })
	a.close()
	if h := offlineSession(t, srv, "ada").History(); len(h) != 2 || h[0].Line != "cordon node2" {
		t.Errorf("the reconnected lab is not the same lab: history %v", h)
	}
	ev := strings.Join(srv.room.Events(), "\n")
	if !strings.Contains(ev, "ada reconnected") {
		t.Errorf("events do not show the reconnect:\n%s", ev)
	}
}

func TestE2EMaxSessions(t *testing.T) {
	srv := startServer(t, func(c *Config) { c.MaxSessions = 1 })
	connect(t, srv, "ada")
	waitFor(t, "ada", func() bool { return srv.seatOf("ada") != nil })
	bob := connect(t, srv, "bob")
	if !bob.closed(5 * time.Second) {
		t.Fatal("bob was let in past --max-sessions 1")
	}
	if !strings.Contains(bob.stream(), "The workshop is full") {
		t.Errorf("bob was not told why: %q", bob.stream())
	}
}

func TestE2ELimitsRefuseWithAMessageAndSpareOthers(t *testing.T) {
	srv := startServer(t, func(c *Config) { c.Limits.Pods = 12 })
	ada := connect(t, srv, "ada")
	bob := connect(t, srv, "bob")
	waitFor(t, "labs", func() bool { return screen(srv, "ada") != "" && screen(srv, "bob") != "" })
	ada.send(":scale deployment/web --replicas=100\r")
	waitFor(t, "the limit message on ada's screen", func() bool {
		return strings.Contains(screen(srv, "ada"), "workshop limit: at most 12 pods")
	})
	p, _ := progressOf(srv, "ada")
	if !strings.Contains(p.Note, "workshop limit") {
		t.Errorf("the instructor does not see the limit: note %q", p.Note)
	}
	bob.send(":scale deployment/web --replicas=6\r")
	waitFor(t, "bob's scale", func() bool {
		p, _ := progressOf(srv, "bob")
		return p.LastCommand == "scale deployment/web --replicas=6"
	})
	if strings.Contains(screen(srv, "bob"), "workshop limit") {
		t.Error("bob sees ada's limit")
	}
	ada.close()
	if h := offlineSession(t, srv, "ada").History(); len(h) != 0 {
		t.Errorf("the refused command is in ada's history: %v", h)
	}
}

func TestE2EInputRateLimit(t *testing.T) {
	srv := startServer(t, func(c *Config) { c.Limits.CommandsPerSecond = 2 })
	ada := connect(t, srv, "ada")
	waitFor(t, "lab", func() bool { return screen(srv, "ada") != "" })
	ada.send(strings.Repeat("j", 30))
	waitFor(t, "slow down", func() bool { return strings.Contains(screen(srv, "ada"), "slow down") })
}

func TestE2EFilesCannotBeOpenedOrRead(t *testing.T) {
	srv := startServer(t, nil)
	ada := connect(t, srv, "ada")
	waitFor(t, "lab", func() bool { return screen(srv, "ada") != "" })
	ada.send("\x0f") // ctrl+o: open a host file
	waitFor(t, "open refused", func() bool { return strings.Contains(screen(srv, "ada"), "cannot open or save files") })
	ada.send(":apply -f /etc/hostname\r")
	waitFor(t, "apply -f refused", func() bool { return strings.Contains(screen(srv, "ada"), "cannot read files") })
}

func TestE2EResize(t *testing.T) {
	srv := startServer(t, nil)
	ada := connect(t, srv, "ada")
	waitFor(t, "120x40", func() bool { _, w, h, _ := srv.room.Frame("ada"); return w == 120 && h == 40 })
	if err := ada.sess.WindowChange(30, 90); err != nil {
		t.Fatal(err)
	}
	ok := false
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && !ok; time.Sleep(20 * time.Millisecond) {
		f, w, h, _ := srv.room.Frame("ada")
		lines := strings.Split(ansi.Strip(f), "\n")
		ok = w == 90 && h == 30 && len(lines) <= 30 && ansi.StringWidth(lines[0]) <= 90
	}
	if !ok {
		f, w, h, _ := srv.room.Frame("ada")
		t.Fatalf("after resizing to 90x30: frame %dx%d:\n%s", w, h, ansi.Strip(f))
	}
}

func TestE2EIdleTimeoutAndShutdownTellParticipants(t *testing.T) {
	srv := startServer(t, func(c *Config) { c.IdleTimeout = 300 * time.Millisecond })
	ada := connect(t, srv, "ada")
	if !ada.closed(5 * time.Second) {
		t.Fatal("an idle participant stayed connected")
	}
	if !strings.Contains(ada.stream(), "You were idle") {
		t.Errorf("ada was not told: %q", ada.stream())
	}

	rec := filepath.Join(t.TempDir(), "notes.json")
	srv2 := startServer(t, func(c *Config) { c.Record = rec })
	bob := connect(t, srv2, "bob")
	waitFor(t, "bob", func() bool { return screen(srv2, "bob") != "" })
	srv2.Shutdown("The workshop server is shutting down")
	if !bob.closed(5 * time.Second) {
		t.Fatal("bob stayed connected after shutdown")
	}
	if !strings.Contains(bob.stream(), "The workshop server is shutting down") {
		t.Errorf("bob was not told: %q", bob.stream())
	}
	// the record is written while participants are still connected
	data, err := os.ReadFile(rec)
	if err != nil || !strings.Contains(string(data), `"name": "bob"`) || strings.Contains(string(data), "offline") {
		t.Errorf("record at the end: %v\n%s", err, data)
	}
}

func TestE2EPanicEndsOneSessionOnly(t *testing.T) {
	srv := startServer(t, nil)
	ada := connect(t, srv, "ada")
	bob := connect(t, srv, "bob")
	waitFor(t, "labs", func() bool { return screen(srv, "ada") != "" && screen(srv, "bob") != "" })
	srv.seatOf("ada").send(crashMsg{})
	if !ada.closed(5 * time.Second) {
		t.Fatal("the panicking session did not end")
	}
	if !strings.Contains(ada.stream(), "internal error") {
		t.Errorf("ada was not told: %q", ada.stream())
	}
	if !strings.Contains(strings.Join(srv.room.Events(), "\n"), "panic in ada's session") {
		t.Error("the panic was not logged")
	}
	bob.send(":cordon node3\r")
	waitFor(t, "bob still works", func() bool { p, _ := progressOf(srv, "bob"); return p.LastCommand == "cordon node3" })
	// and ada can come back
	connect(t, srv, "ada")
	waitFor(t, "ada back", func() bool { p, _ := progressOf(srv, "ada"); return p.Online })
}

func TestE2ENoExecSubsystemsOrForwarding(t *testing.T) {
	srv := startServer(t, nil)
	c, err := dial(t, srv, "mallory")
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	s, _ := c.conn.NewSession()
	out, err := s.CombinedOutput("cat /etc/passwd")
	var exit *gossh.ExitError
	if !errors.As(err, &exit) || exit.ExitStatus() != 1 || !strings.Contains(string(out), "interactive lab only") || strings.Contains(string(out), "root:") {
		t.Errorf("exec: err %v, output %q", err, out)
	}
	s2, _ := c.conn.NewSession()
	if err := s2.RequestSubsystem("sftp"); err == nil {
		t.Error("the sftp subsystem was accepted")
	}
	if _, err := c.conn.Dial("tcp", srv.Addr().String()); err == nil {
		t.Error("local port forwarding (direct-tcpip) was accepted")
	}
	if _, err := c.conn.Listen("tcp", "127.0.0.1:0"); err == nil {
		t.Error("remote port forwarding (tcpip-forward) was accepted")
	}
	if srv.seatOf("mallory") != nil {
		t.Error("mallory got a lab without a terminal session")
	}
}

func TestE2EAuthModes(t *testing.T) {
	signer := func() gossh.Signer {
		_, priv, _ := ed25519.GenerateKey(rand.Reader)
		s, _ := gossh.NewSignerFromKey(priv)
		return s
	}
	participantKey, instructorKey, strangerKey := signer(), signer(), signer()
	line := func(s gossh.Signer) string {
		return strings.TrimSpace(string(gossh.MarshalAuthorizedKey(s.PublicKey())))
	}
	keys, err := ParseKeys([]byte(fmt.Sprintf("# the room\n%s ada@laptop\ninstructor %s teacher\n", line(participantKey), line(instructorKey))))
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0].Instructor || !keys[1].Instructor {
		t.Fatalf("keys %+v", keys)
	}
	srv := startServer(t, func(c *Config) { c.Auth = Auth{Mode: "keys", Keys: keys} })
	if _, err := dial(t, srv, "eve", gossh.PublicKeys(strangerKey)); err == nil {
		t.Error("an unknown key got in")
	}
	if _, err := dial(t, srv, "eve"); err == nil {
		t.Error("no key got in")
	}
	c, err := dial(t, srv, "ada", gossh.PublicKeys(participantKey))
	if err != nil {
		t.Fatalf("a listed key was refused: %v", err)
	}
	c.shell()
	waitFor(t, "ada's lab", func() bool { return strings.Contains(screen(srv, "ada"), "Spread basics") })
	ic, err := dial(t, srv, "teacher", gossh.PublicKeys(instructorKey))
	if err != nil {
		t.Fatal(err)
	}
	ic.shell()
	waitFor(t, "the instructor's table over SSH", func() bool {
		s := ic.stream()
		return strings.Contains(s, "podlab workshop") && strings.Contains(s, "ada")
	})
	if srv.seatOf("teacher") != nil {
		t.Error("the instructor got a participant seat")
	}

	psrv := startServer(t, func(c *Config) { c.Auth = Auth{Mode: "password", Password: "open-sesame"} })
	if _, err := dial(t, psrv, "ada", gossh.Password("wrong")); err == nil {
		t.Error("a wrong password got in")
	}
	pc, err := dial(t, psrv, "ada", gossh.Password("open-sesame"))
	if err != nil {
		t.Fatalf("the right password was refused: %v", err)
	}
	pc.shell()
	waitFor(t, "ada's lab", func() bool { return screen(psrv, "ada") != "" })
}

func TestE2EInstructorActionsReachParticipants(t *testing.T) {
	srv := startServer(t, nil)
	ada := connect(t, srv, "ada")
	bob := connect(t, srv, "bob")
	waitFor(t, "labs", func() bool { return screen(srv, "ada") != "" && screen(srv, "bob") != "" })
	room := srv.Room()
	room.PushStep(2)
	waitFor(t, "everyone on step 3", func() bool {
		a, _ := progressOf(srv, "ada")
		b, _ := progressOf(srv, "bob")
		return a.Step == 2 && b.Step == 2 && strings.Contains(screen(srv, "ada"), "step 3/4")
	})
	room.Broadcast("look at the \x1b[31mspread\x1b[0m panel\nnow")
	waitFor(t, "the broadcast on bob's screen", func() bool {
		return strings.Contains(screen(srv, "bob"), "instructor: look at the [31mspread[0m panel now")
	})
	ada.send(":cordon node1\r")
	waitFor(t, "ada's cordon", func() bool { p, _ := progressOf(srv, "ada"); return p.LastCommand == "cordon node1" })
	if err := room.Reset("ada"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "ada's fresh lab", func() bool {
		p, _ := progressOf(srv, "ada")
		return p.LastCommand == "" && p.Step == 0 && strings.Contains(screen(srv, "ada"), "fresh lab")
	})
	rows := room.Snapshot()
	if len(rows) != 2 {
		t.Fatalf("snapshot %+v", rows)
	}
	rec := filepath.Join(t.TempDir(), "notes.csv")
	if err := srv.WriteRecord(rec); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(rec)
	if lines := strings.Split(strings.TrimSpace(string(data)), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[1], "ada,1,") || !strings.HasPrefix(lines[2], "bob,3,") {
		t.Errorf("record:\n%s", data)
	}
	room.End()
	if !ada.closed(5*time.Second) || !bob.closed(5*time.Second) {
		t.Fatal("End did not disconnect everyone")
	}
	if !strings.Contains(bob.stream(), "The workshop has ended") {
		t.Errorf("bob was not told: %q", bob.stream())
	}
	select {
	case <-srv.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not stop")
	}
}

func TestE2ENoColor(t *testing.T) {
	srv := startServer(t, nil)
	c := connect(t, srv, "ada", "NO_COLOR", "1")
	waitFor(t, "lab", func() bool { return strings.Contains(c.stream(), "zoneA") })
	time.Sleep(200 * time.Millisecond)
	c.mu.Lock()
	raw := c.out.String()
	c.mu.Unlock()
	if strings.Contains(raw, "\x1b[38;") || strings.Contains(raw, "\x1b[48;") {
		t.Error("NO_COLOR session received colours")
	}
}

func TestE2EInstructorOverSSHSpotsAStuckParticipant(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	teacher, _ := gossh.NewSignerFromKey(priv)
	_, priv2, _ := ed25519.GenerateKey(rand.Reader)
	student, _ := gossh.NewSignerFromKey(priv2)
	keys := []AllowedKey{{Key: teacher.PublicKey(), Instructor: true}, {Key: student.PublicKey()}}
	srv := startServer(t, func(c *Config) {
		c.Auth = Auth{Mode: "keys", Keys: keys}
		c.Markers = workshop.Markers{StuckAfter: 400 * time.Millisecond, IdleAfter: time.Hour}
	})
	ada, err := dial(t, srv, "ada", gossh.PublicKeys(student))
	if err != nil {
		t.Fatal(err)
	}
	ada.shell()
	waitFor(t, "ada's lab", func() bool { return screen(srv, "ada") != "" })
	ada.send(">") // step 2 wants 6 running pods; cordoning does not help
	ada.send(":cordon node1\r")
	ic, err := dial(t, srv, "teacher", gossh.PublicKeys(teacher))
	if err != nil {
		t.Fatal(err)
	}
	ic.shell()
	for i := 0; i < 10; i++ { // ada keeps typing: stuck, not idle
		time.Sleep(100 * time.Millisecond)
		ada.send("j")
	}
	waitFor(t, "ada marked stuck on the instructor's table", func() bool {
		s := ic.stream()
		return strings.Contains(s, "cordon node1") && strings.Contains(s, "stuck")
	})
	// and ada leaves: she is told how to get her lab back
	ada.send("q")
	if !ada.closed(5 * time.Second) {
		t.Fatal("q did not end ada's session")
	}
	if !strings.Contains(ada.stream(), "your lab is kept") || !strings.Contains(ada.stream(), "ada@localhost") {
		t.Errorf("leaving: %q", ada.stream())
	}
}
