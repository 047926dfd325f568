package ui

// memo keeps one rendered block and the key it was rendered for: panels
// whose inputs did not change since the last frame are not drawn again.
// Keys are comparable structs of everything the block shows.
type memo struct {
	key   any
	lines []string
}

// get returns the cached lines when key matches, else renders and keeps them.
func (c *memo) get(key any, render func() []string) []string {
	if c.lines != nil && c.key == key {
		return c.lines
	}
	c.key, c.lines = key, render()
	return c.lines
}

// memos are the rendered blocks the views reuse between frames.
type memos struct {
	footer, spread, spreadTall, recent, lesson, lessonSide, lower, pending, columns memo
}

// panelKey identifies what a panel shows: the cluster's state, the
// selection and focus, the size and the styles.
type panelKey struct {
	stamp            stamp
	wl, pend, node   int
	pod              int
	focus            focusID
	view             int
	w, h, w2, h2, h3 int
	st               *Styles
	wlGen, layoutGen int
	step             int
}
