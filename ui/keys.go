package ui

import "charm.land/bubbles/v2/key"

// KeyMap is every key binding, grouped as the help shows them.
type KeyMap struct {
	Quit, Help, Palette, Back                        key.Binding
	Views                                            [5]key.Binding
	NextPanel                                        key.Binding
	Up, Down, Left, Right                            key.Binding
	PageUp, PageDown                                 key.Binding
	Home, End                                        key.Binding
	Play, Step, Faster, Slower                       key.Binding
	Undo, Redo                                       key.Binding
	AddZone, AddNode, Taint, Cordon, Drain, Pressure key.Binding
	ScaleUp, ScaleDown, Delete, Explain, Group       key.Binding
	Legend                                           key.Binding
	NextStep, PrevStep, ApplyStep, ToggleLesson      key.Binding
	Presets, Open, Save, Theme                       key.Binding
}

// DefaultKeyMap returns the bindings.
func DefaultKeyMap() KeyMap {
	b := func(help string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], help))
	}
	return KeyMap{
		Quit:    b("quit", "q", "ctrl+c"),
		Help:    b("help", "?"),
		Palette: b("command", ":"),
		Back:    b("back", "esc"),
		Views: [5]key.Binding{
			b("cluster", "1"), b("explain", "2"), b("timeline", "3"), b("eviction", "4"), b("events", "5"),
		},
		NextPanel:    b("next panel", "tab"),
		Up:           b("up", "up", "k"),
		Down:         b("down", "down", "j"),
		Left:         b("left", "left", "h"),
		Right:        b("right", "right", "l"),
		PageUp:       b("page up", "pgup"),
		PageDown:     b("page down", "pgdown"),
		Home:         b("first", "home"),
		End:          b("last", "end"),
		Play:         b("play/pause", "space"),
		Step:         b("step 1s", "."),
		Faster:       b("faster", "]"),
		Slower:       b("slower", "["),
		Undo:         b("undo", "u"),
		Redo:         b("redo", "ctrl+r"),
		AddZone:      b("add zone", "z"),
		AddNode:      b("add node", "n"),
		Taint:        b("taint", "t"),
		Cordon:       b("cordon", "c"),
		Drain:        b("drain", "d"),
		Pressure:     b("pressure", "p"),
		ScaleUp:      b("scale +", "+", "="),
		ScaleDown:    b("scale -", "-"),
		Delete:       b("delete pod", "x"),
		Explain:      b("explain", "e", "enter"),
		Group:        b("group by", "g"),
		Legend:       b("legend", "i"),
		NextStep:     b("next step", ">"),
		PrevStep:     b("prev step", "<"),
		ApplyStep:    b("apply step", "a"),
		ToggleLesson: b("lesson", "L"),
		Presets:      b("presets", "ctrl+p"),
		Open:         b("open file", "ctrl+o"),
		Save:         b("save", "ctrl+s"),
		Theme:        b("theme", "T"),
	}
}
