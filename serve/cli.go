package serve

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"podlab.dev/podlab/lab"
	"podlab.dev/podlab/lab/workshop"
	"podlab.dev/podlab/presets"
	"podlab.dev/podlab/ui/instructor"
)

// Usage is the serve command's help.
const Usage = `podlab serve — run a workshop: every participant gets their own lab over SSH

Usage:
  podlab serve [-f LESSON|PRESET] [--listen :2222] [--max-sessions N] [--idle-timeout 30m]
               [--host-key FILE] [--auth open|keys FILE|password] [--record FILE]

Participants type:  ssh -p 2222 HOST   (any SSH client; the user name is their name)

Flags:
  -f LESSON|PRESET        the lesson (default: the default preset)
  --listen ADDR           address to listen on (default :2222)
  --max-sessions N        participants connected at once (default 200)
  --idle-timeout D        disconnect after D without a key (default 30m; the lab is kept)
  --host-key FILE         host key (default: <config dir>/podlab/ssh_host_ed25519_key, made once)
  --auth MODE             open (default), keys FILE (authorized_keys lines; prefix a line with
                          "instructor" for the instructor's view over SSH) or password
                          (PODLAB_PASSWORD, else one is made up and shown)
  --record FILE           write each participant's progress (.json, else CSV) every 30s and at the end
  --max-pods N, --max-nodes N, --max-keys-per-second N   per-participant limits (500, 50, 30)
  --stuck-after D         mark a participant stuck after D without progress on the step (default 5m)
  --idle-after D          mark a participant idle after D without a key (default 2m)
  --host NAME             the host name shown in the connect line (default: this machine's)
  --theme NAME            participants' theme (default: from their terminal)
  --headless              no instructor view here: log events to stderr
`

// Command runs `podlab serve`; it returns the exit code.
func Command(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("podlab serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, Usage) }
	file := fs.String("f", presets.Default, "lesson file or preset")
	listen := fs.String("listen", ":2222", "address")
	maxSessions := fs.Int("max-sessions", 200, "participants at once")
	idle := fs.Duration("idle-timeout", 30*time.Minute, "idle timeout")
	hostKey := fs.String("host-key", "", "host key file")
	auth := fs.String("auth", "open", "open, keys FILE or password")
	record := fs.String("record", "", "progress record file")
	limits := workshop.DefaultLimits
	fs.IntVar(&limits.Pods, "max-pods", limits.Pods, "pods per lab")
	fs.IntVar(&limits.Nodes, "max-nodes", limits.Nodes, "nodes per lab")
	fs.IntVar(&limits.CommandsPerSecond, "max-keys-per-second", limits.CommandsPerSecond, "input events per second")
	host := fs.String("host", "", "host name for the connect line")
	theme := fs.String("theme", "", "participants' theme")
	headless := fs.Bool("headless", false, "no instructor view")
	markers := workshop.DefaultMarkers
	fs.DurationVar(&markers.StuckAfter, "stuck-after", markers.StuckAfter, "no progress for this long marks a participant stuck")
	fs.DurationVar(&markers.IdleAfter, "idle-after", markers.IdleAfter, "no key for this long marks a participant idle")
	keysFile := ""
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		// --auth keys FILE: the file is the next word
		if *auth == "keys" && keysFile == "" {
			keysFile, rest = fs.Arg(0), fs.Args()[1:]
			continue
		}
		fmt.Fprintf(stderr, "podlab serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if m, f, ok := cut2(*auth); ok && m == "keys" { // --auth keys=FILE
		*auth, keysFile = m, f
	}
	cfg := Config{Record: *record, Listen: *listen, MaxSessions: *maxSessions, IdleTimeout: *idle, Limits: limits, Theme: *theme, Host: *host, Markers: markers}
	f, err := lab.OpenOrPreset(*file, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 2
	}
	cfg.Lesson = f
	cfg.Auth.Mode = *auth
	switch *auth {
	case "open":
	case "keys":
		if keysFile == "" {
			fmt.Fprintf(stderr, "podlab serve: --auth keys needs a file: --auth keys FILE\n")
			return 2
		}
		if cfg.Auth.Keys, err = LoadKeys(keysFile); err != nil {
			fmt.Fprintf(stderr, "podlab serve: %v\n", err)
			return 2
		}
	case "password":
		cfg.Auth.Password = os.Getenv("PODLAB_PASSWORD")
		if cfg.Auth.Password == "" {
			if cfg.Auth.Password, err = NewPassword(); err != nil {
				fmt.Fprintf(stderr, "podlab serve: %v\n", err)
				return 1
			}
		}
	default:
		fmt.Fprintf(stderr, "podlab serve: --auth %q: want open, keys FILE or password\n", *auth)
		return 2
	}
	path := *hostKey
	if path == "" {
		if path, err = DefaultHostKeyPath(); err != nil {
			fmt.Fprintf(stderr, "podlab serve: %v\n", err)
			return 2
		}
	}
	pem, created, err := LoadOrCreateHostKey(path)
	if err != nil {
		fmt.Fprintf(stderr, "podlab serve: %v\n", err)
		return 2
	}
	cfg.HostKeyPEM = pem
	tui := !*headless && isTerminal(stdin) && isTerminal(stdout)
	logw := stderr
	if tui {
		// the instructor's view owns the terminal; details go to a file
		logw = io.Discard
		if dir, err := os.UserConfigDir(); err == nil {
			_ = os.MkdirAll(filepath.Join(dir, "podlab"), 0o700)
			if lf, err := os.OpenFile(filepath.Join(dir, "podlab", "serve.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err == nil {
				defer lf.Close()
				logw = lf
				// Bubble Tea prints a recovered panic's stack to os.Stderr,
				// which is the instructor's terminal: send it to the log
				saved := os.Stderr
				os.Stderr = lf
				defer func() { os.Stderr = saved }()
			}
		}
	}
	cfg.Log = logw
	slog.SetDefault(slog.New(slog.NewTextHandler(logw, nil)))
	srv, err := New(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "podlab serve: %v\n", err)
		return 2
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		fmt.Fprintf(stderr, "podlab serve: %v\n", err)
		return 2
	}
	if created {
		srv.room.logf("made a host key: %s (kept for the next workshop)", path)
	}
	if cfg.Auth.Mode == "password" {
		fmt.Fprintf(stderr, "participants' password: %s\n", cfg.Auth.Password)
		srv.room.logf("participants' password: %s", cfg.Auth.Password)
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sig)
	go func() {
		select {
		case <-sig:
			srv.Shutdown("The workshop server is shutting down — thank you for taking part!")
		case <-srv.Done():
		}
	}()
	if tui {
		m := instructor.New(srv.room, instructor.Options{Markers: cfg.Markers})
		prog := tea.NewProgram(m, tea.WithInput(stdin), tea.WithOutput(stdout), tea.WithoutSignalHandler())
		go func() { <-srv.Done(); prog.Send(instructor.EndedMsg{}) }()
		if _, err := prog.Run(); err != nil {
			fmt.Fprintf(stderr, "podlab serve: %v\n", err)
		}
		srv.Shutdown("The workshop has ended — thank you for taking part!")
	} else {
		fmt.Fprintf(stderr, "podlab serve: participants type: %s\n", srv.connectLine())
		<-srv.Done()
	}
	if err := <-serveErr; err != nil {
		fmt.Fprintf(stderr, "podlab serve: %v\n", err)
	}
	if *record != "" {
		fmt.Fprintf(stdout, "progress written to %s\n", *record)
	}
	title, steps := srv.room.Lesson()
	fmt.Fprint(stdout, instructor.SummaryText(title, steps, workshop.Summarize(srv.room.Snapshot())))
	return 0
}

func cut2(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '=' || s[i] == ':' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func isTerminal(f any) bool {
	if fd, ok := f.(interface{ Fd() uintptr }); ok {
		return term.IsTerminal(fd.Fd())
	}
	return false
}

// WriteRecord writes every participant's progress to path (atomically,
// lab.WriteFile: a reader never sees half a file, and a failed write
// leaves the last record whole).
func (s *Server) WriteRecord(path string) error {
	rows := s.room.Snapshot()
	workshop.Sort(rows, workshop.ByName, time.Now())
	err := lab.WriteFile(path, func(w io.Writer) error {
		return workshop.WriteRecord(w, workshop.RecordFormat(path), workshop.RecordRows(rows, s.cfg.Markers, time.Now()))
	})
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return nil
}

func (s *Server) recordEvery(path string, every time.Duration, stop <-chan struct{}) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if err := s.WriteRecord(path); err != nil {
				s.room.logf("%v", err)
			}
		}
	}
}
