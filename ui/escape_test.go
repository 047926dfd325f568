package ui

import (
	"io"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Can a split escape sequence reach the key handler as q? Bubble Tea v2
// (v2.0.10, its input reader from charmbracelet/ultraviolet) decodes
// ESC q read together as alt+q, but waits only 50 ms (EscTimeout) for
// the rest of a sequence: ESC, a pause, then q arrive as esc and q, and
// the unterminated start of a sequence ("\x1b[1;", an OSC reply cut
// short) as an unknown event followed by its tail as plain keys. Over a
// slow SSH link a sequence can be split that way, so yes: a q can come
// from a split sequence. The quit question makes it harmless (and the
// recovery file keeps the work either way).

// keyLog records the keys a program decodes.
type keyLog struct{ keys []string }

func (k *keyLog) Init() tea.Cmd { return nil }
func (k *keyLog) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if p, ok := msg.(tea.KeyPressMsg); ok {
		k.keys = append(k.keys, p.String())
	}
	return k, nil
}
func (k *keyLog) View() tea.View { return tea.NewView("") }

// feed runs model as a program reading chunks from its input, with a
// pause after each; it reports whether the program ended by itself.
func feed(model tea.Model, pause time.Duration, chunks ...string) (quit bool) {
	pr, pw := io.Pipe()
	prog := tea.NewProgram(model, tea.WithInput(pr), tea.WithOutput(io.Discard), tea.WithoutSignalHandler(), tea.WithWindowSize(100, 30))
	done := make(chan struct{})
	go func() { prog.Run(); close(done) }()
	time.Sleep(pause)
	for _, c := range chunks {
		pw.Write([]byte(c))
		time.Sleep(pause)
	}
	select {
	case <-done:
		quit = true
	default:
		prog.Quit()
		<-done
	}
	pw.Close()
	return quit
}

func TestSplitEscapeSequenceReachesTheKeysAsQ(t *testing.T) {
	const pause = 300 * time.Millisecond // far past the reader's 50 ms
	for _, c := range []struct {
		chunks []string
		want   []string
	}{
		{[]string{"\x1bq"}, []string{"alt+q"}},
		{[]string{"\x1b", "q"}, []string{"esc", "q"}},
		{[]string{"\x1b[1;", "q"}, []string{"q"}}, // the start is an unknown event
	} {
		k := &keyLog{}
		feed(k, pause, c.chunks...)
		if !slices.Equal(k.keys, c.want) {
			t.Errorf("%q decodes as %q, want %q", c.chunks, k.keys, c.want)
		}
	}
	// the lab with an unsaved command: the stray q asks, it does not quit
	m := newTestModel(t, "spread-basics", 100, 30)
	typeCommand(m, "cordon node1")
	if feed(m, pause, "\x1b", "q") {
		t.Fatal("a split escape sequence quit the lab with unsaved changes")
	}
	if _, ok := m.top.(*confirmOverlay); !ok {
		t.Fatal("the q from the split sequence asks before quitting")
	}
}
