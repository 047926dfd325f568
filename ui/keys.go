package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
)

// Keys have one source: every component owns a key map of key.Bindings,
// the footer and the ? overlay draw those bindings (bubbles/help), and
// the component's Update matches the same bindings. A binding that does
// nothing in the current state is disabled (SetEnabled), so it is neither
// shown nor matched: a key that is shown works and a key that works is
// shown (TestKeysAndHelpAgree).

// bind builds a binding; the first key is the one the help shows unless
// label is given.
func bind(label, help string, keys ...string) key.Binding {
	if label == "" {
		label = keys[0]
	}
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(label, help))
}

// keyGroup is a named group of bindings, a block of the ? overlay.
type keyGroup struct {
	name string
	keys []*key.Binding
}

// bindings returns the group's bindings (copies, as help takes them).
func (g keyGroup) bindings() []key.Binding {
	out := make([]key.Binding, len(g.keys))
	for i, b := range g.keys {
		out[i] = *b
	}
	return out
}

// fullHelp is FullHelp for components that declare named groups.
func fullHelp(groups []keyGroup) [][]key.Binding {
	out := make([][]key.Binding, len(groups))
	for i, g := range groups {
		out[i] = g.bindings()
	}
	return out
}

// globalKeys are the keys every view shares: views, time, history,
// lesson, files, look. Overlays take the keys before them.
type globalKeys struct {
	Quit, Help, Palette, Back  key.Binding
	Views                      []key.Binding
	Play, Step, Faster, Slower key.Binding
	Rewind, Forward, Resume    key.Binding
	Undo, Redo                 key.Binding
	NextStep, PrevStep, Apply  key.Binding
	ToggleLesson               key.Binding
	Presets, Open, Save, Theme key.Binding
	Fork, Lane                 key.Binding
}

func newGlobalKeys(viewNames []string) *globalKeys {
	k := &globalKeys{
		Quit:         bind("q", "quit", "q", "ctrl+c"),
		Help:         bind("", "help", "?"),
		Palette:      bind("", "command", ":"),
		Back:         bind("", "back", "esc"),
		Play:         bind("␣", "play/pause", "space"),
		Step:         bind("", "step 1s", "."),
		Faster:       bind("", "faster", "]"),
		Slower:       bind("", "slower", "["),
		Rewind:       bind("ctrl+←", "rewind", "ctrl+left"),
		Forward:      bind("ctrl+→", "forward (rewound)", "ctrl+right"),
		Resume:       bind("", "back to the present", "R"),
		Undo:         bind("", "undo", "u"),
		Redo:         bind("", "redo", "ctrl+r"),
		NextStep:     bind("", "next step", ">"),
		PrevStep:     bind("", "previous step", "<"),
		Apply:        bind("", "apply the step's commands", "a"),
		ToggleLesson: bind("", "show/hide lesson", "L"),
		Presets:      bind("", "presets", "ctrl+p"),
		Open:         bind("", "open file", "ctrl+o"),
		Save:         bind("", "save the session", "ctrl+s"),
		Theme:        bind("", "next theme", "T"),
		Fork:         bind("", "fork lanes a|b / close", "F"),
		Lane:         bind("", "show the other lane", "B"),
	}
	for i, n := range viewNames {
		d := fmt.Sprint(i + 1)
		k.Views = append(k.Views, bind("", n, d))
	}
	return k
}

func (k *globalKeys) groups() []keyGroup {
	views := make([]*key.Binding, 0, len(k.Views)+1)
	for i := range k.Views {
		views = append(views, &k.Views[i])
	}
	views = append(views, &k.Back)
	return []keyGroup{
		{"Views", views},
		{"Time", []*key.Binding{&k.Play, &k.Step, &k.Faster, &k.Slower, &k.Rewind, &k.Forward, &k.Resume}},
		{"Lab", []*key.Binding{&k.Palette, &k.Undo, &k.Redo, &k.Fork, &k.Lane, &k.Help, &k.Quit}},
		{"Lesson", []*key.Binding{&k.NextStep, &k.PrevStep, &k.Apply, &k.ToggleLesson}},
		{"Files", []*key.Binding{&k.Presets, &k.Open, &k.Save, &k.Theme}},
	}
}

// ShortHelp is the footer's tail, after the view's own keys.
func (k *globalKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Play, k.Palette, k.Help, k.Quit}
}

// FullHelp implements help.KeyMap.
func (k *globalKeys) FullHelp() [][]key.Binding { return fullHelp(k.groups()) }

// quitKey quits from an overlay too (the overlays take every other key).
var quitKey = bind("", "quit", "ctrl+c")

// scrollKeys scroll a view line by line, by pages and to its ends.
type scrollKeys struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding
}

func newScrollKeys() scrollKeys {
	return scrollKeys{
		Up:       bind("↑/k", "scroll up", "up", "k"),
		Down:     bind("↓/j", "scroll down", "down", "j"),
		PageUp:   bind("pgup", "page up", "pgup"),
		PageDown: bind("pgdn", "page down", "pgdown"),
		Home:     bind("home", "top", "home"),
		End:      bind("end", "bottom", "end"),
	}
}

func (k *scrollKeys) all() []*key.Binding {
	return []*key.Binding{&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.Home, &k.End}
}

// setEnabled enables the keys that move from line off of a view that
// scrolls to limit: not up from the top, not down from the bottom.
func (k *scrollKeys) setEnabled(off, limit int) {
	for _, b := range []*key.Binding{&k.Up, &k.PageUp, &k.Home} {
		b.SetEnabled(off > 0)
	}
	for _, b := range []*key.Binding{&k.Down, &k.PageDown, &k.End} {
		b.SetEnabled(off < limit)
	}
}

// delta is how far a scroll key moves (page: a screen; home/end: all).
func (k *scrollKeys) delta(msg fmt.Stringer, page int) (int, bool) {
	switch {
	case key.Matches(msg, k.Up):
		return -1, true
	case key.Matches(msg, k.Down):
		return 1, true
	case key.Matches(msg, k.PageUp):
		return -max(page, 1), true
	case key.Matches(msg, k.PageDown):
		return max(page, 1), true
	case key.Matches(msg, k.Home):
		return -1 << 30, true
	case key.Matches(msg, k.End):
		return 1 << 30, true
	}
	return 0, false
}
