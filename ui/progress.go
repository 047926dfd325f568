package ui

import "podlab.dev/podlab/lab"

// watchProgress makes sess report its long operations to the program as
// progressMsg (send is tea.Program.Send, set by Run; nil in tests and for
// embedders that run the model themselves).
//
// The lab's progress hook (Session.SetProgress(func(lab.Progress)), from
// the checkpoint work) is not on this branch yet; once it is, the body is:
//
//	if m.send == nil {
//		return
//	}
//	send := m.send
//	sess.SetProgress(func(p lab.Progress) { send(progressMsg{what: p.What, done: p.Done, total: p.Total}) })
//
// Until then the progress line shows the operation and its elapsed time.
func (m *Model) watchProgress(sess *lab.Session) {
	_ = sess
}
