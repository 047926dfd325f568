package ui

import "podlab.dev/podlab/lab"

// watchProgress makes sess report its long operations to the program as
// progressMsg (send is tea.Program.Send, set by Run; nil in tests and for
// embedders that run the model themselves). The session calls the hook
// on the goroutine running the operation: it only forwards the value.
func (m *Model) watchProgress(sess *lab.Session) {
	if m.send == nil {
		return
	}
	send := m.send
	sess.SetProgress(func(p lab.Progress) { send(progressMsg{what: p.What, done: p.Done, total: p.Total}) })
}
