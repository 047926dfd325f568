package ui

import (
	"fmt"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"podlab.dev/podlab/lab"
)

// The recovery file (lab.RecoveryPath): while the lab has unsaved
// changes, the session is kept in it, rewritten after every command that
// changes what a save would record. The session is rendered on the UI
// goroutine (cheap: the header; the manifests are the file's, never
// modified) and written by one writer goroutine, atomically
// (lab.WriteFile); commands that come faster than the disk coalesce into
// the latest. While the clock runs with unsaved changes it is also
// refreshed every 30 s of real time, so a restore resumes near where the
// lab was. A save or a clean quit removes it; a crash, a closed
// terminal or a kill leaves it, and the next start offers to restore it.

// recovery keeps the recovery file at path.
type recovery struct {
	path string

	// UI goroutine only: what the last check saw and offered.
	seen    recoverySeen
	mark    lab.Mark
	unsaved bool
	// owned: the file is this lab's (it wrote or restored it); a lab
	// never removes a file it has not answered for (the start prompt's).
	owned bool
	// wrote and now are when the last write was offered and the virtual
	// time it held; every is how often the running clock refreshes it.
	wrote time.Time
	now   lab.Time
	every time.Duration
	// reported is the last write error shown.
	reported string

	// shared with the writer goroutine
	mu      sync.Mutex
	idle    *sync.Cond
	next    *recoveryJob
	running bool
	closed  bool
	err     error
}

// recoverySeen is what changes when the session may have: a command
// (Model.applied), another session or fork.
type recoverySeen struct {
	applied int
	sess    *lab.Session
	fork    *lab.Fork
}

// recoveryEvery is how often a running clock refreshes the file.
const recoveryEvery = 30 * time.Second

// recoveryJob writes sv (noting the file it came from), or removes the
// file when sv is nil.
type recoveryJob struct {
	from string
	sv   *lab.Saved
}

func newRecovery(path string) *recovery {
	r := &recovery{path: path, every: recoveryEvery}
	r.idle = sync.NewCond(&r.mu)
	return r
}

// offer makes job the next thing to write (replacing one not yet
// started) and starts the writer if it is not running.
func (r *recovery) offer(job recoveryJob) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.next = &job
	if !r.running {
		r.running = true
		go r.write()
	}
}

// write runs jobs until none is waiting.
func (r *recovery) write() {
	for {
		r.mu.Lock()
		job := r.next
		r.next = nil
		if job == nil {
			r.running = false
			r.idle.Broadcast()
			r.mu.Unlock()
			return
		}
		r.mu.Unlock()
		var err error
		if job.sv == nil {
			err = lab.RemoveRecovery(r.path)
		} else {
			err = lab.WriteRecovery(r.path, job.from, job.sv)
		}
		r.mu.Lock()
		if err != nil {
			r.err = err
		}
		r.mu.Unlock()
	}
}

// wait returns once the writer is idle (tests; finish).
func (r *recovery) wait() {
	r.mu.Lock()
	for r.running {
		r.idle.Wait()
	}
	r.mu.Unlock()
}

// finish stops the writer after what it is writing and, on a clean
// quit, removes the file (if it is this lab's).
func (r *recovery) finish(remove bool) error {
	remove = remove && r.owned
	r.mu.Lock()
	r.closed, r.next = true, nil
	for r.running {
		r.idle.Wait()
	}
	r.mu.Unlock()
	if remove {
		return lab.RemoveRecovery(r.path)
	}
	return nil
}

// takeErr returns the writer's last error once.
func (r *recovery) takeErr() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	err := r.err
	r.err = nil
	return err
}

// origin is where the session came from, for the recovery file's note
// and the restored session's save name.
func (m *Model) origin() string {
	if m.saveName != "" {
		return m.saveName
	}
	return m.sess.File().Name
}

// checkRecovery runs after every message: when a command changed what a
// save would record, the recovery file follows (written, or removed when
// nothing is unsaved any more).
func (m *Model) checkRecovery() {
	r := m.recov
	if r == nil || m.busy != nil {
		return
	}
	if err := r.takeErr(); err != nil && err.Error() != r.reported {
		// once per cause: a read-only home must not drown the status line
		r.reported = err.Error()
		m.setStatus(fmt.Sprintf("could not keep the recovery file %s: %v", r.path, err), true)
	}
	seen := recoverySeen{m.applied, m.sess, m.fork}
	if seen == r.seen {
		// the clock alone moved: refresh now and then (not for a large
		// import, whose every write reads the whole file again: its
		// recovery file follows the commands only)
		if r.unsaved && r.owned && m.sess.Now() != r.now && time.Since(r.wrote) >= r.every && !m.sess.File().ReadAgain() {
			m.writeRecovery()
		}
		return
	}
	r.seen = seen
	mk, unsaved := m.mark(), m.unsaved()
	if mk == r.mark && unsaved == r.unsaved {
		return
	}
	r.mark, r.unsaved = mk, unsaved
	if !unsaved {
		if r.owned {
			r.offer(recoveryJob{})
		}
		return
	}
	m.writeRecovery()
}

// writeRecovery renders the session and hands it to the writer.
func (m *Model) writeRecovery() {
	r := m.recov
	sv, err := m.saver()
	if err != nil {
		m.setStatus("could not keep the recovery file: "+err.Error(), true)
		return
	}
	r.owned, r.wrote, r.now = true, time.Now(), m.sess.Now()
	r.offer(recoveryJob{from: m.origin(), sv: sv})
}

// recoverySaved: the session is on disk, the recovery file goes —
// unless commands ran while the save was writing: they are not in the
// saved file, and the recovery file (written after them) keeps them.
func (m *Model) recoverySaved() {
	if r := m.recov; r != nil && r.owned && !m.unsaved() {
		r.mark, r.unsaved = m.mark(), false
		r.offer(recoveryJob{})
	}
}

// startRecovery keeps the recovery file at path and, when one is there
// from a lab that was not saved, asks whether to restore it.
func (m *Model) startRecovery(path string) {
	r := newRecovery(path)
	r.seen, r.mark = recoverySeen{m.applied, m.sess, m.fork}, m.mark()
	m.recov = r
	rec, err := lab.FindRecovery(path)
	if err != nil {
		m.setStatus(err.Error(), true)
		return
	}
	if rec == nil {
		return
	}
	if rec.LivePID != 0 {
		// another lab is running and keeps it: its work is not lost, and
		// restoring or setting it aside here would be wrong
		m.setStatus(fmt.Sprintf("another podlab (pid %d) is running with unsaved commands; its recovery file %s is not offered here (one per user: the last lab to change wins)",
			rec.LivePID, path), false)
		return
	}
	// the clock waits for the answer: n starts the scenario from 0:00
	was := m.paused
	m.paused = true
	from := ""
	if rec.From != "" {
		from = " of " + rec.From
	}
	m.ask(&confirmOverlay{
		title: "recover",
		question: fmt.Sprintf("podlab found a lab%s that was not saved (last changed %s). Restore it?",
			from, rec.Written.Format("Mon 2 Jan 15:04")),
		keys: confirmKeys{
			Yes:   bind("y", "restore it", "y"),
			No:    bind("n", "start fresh (it is kept as recovery-discarded.yaml)", "n"),
			Other: bind("ctrl+c", "quit (ask again next time)", "ctrl+c"),
		},
		yes: func() tea.Cmd {
			m.restoring = rec
			return m.openFileCmd(rec.Path)
		},
		no: func() tea.Cmd {
			m.paused = was
			if err := rec.Discard(); err != nil {
				m.setStatus("could not set the recovery file aside: "+err.Error(), true)
			} else {
				m.setStatus("started fresh — the unsaved lab is kept as recovery-discarded.yaml next to "+rec.Path, false)
			}
			return nil
		},
		other: func() tea.Cmd { return tea.Quit },
	})
}

// finishRestore runs after a restore's file opened (ok) or failed.
func (m *Model) finishRestore(ok bool) {
	rec := m.restoring
	m.restoring = nil
	if rec == nil || !ok {
		return
	}
	m.restored = true
	m.saveName = rec.From
	if sc := m.sess.File().Scenario; m.saveName == "" && sc != nil {
		m.saveName = sc.Name // not the recovery file's own name
	}
	if m.recov != nil {
		m.recov.owned = true
	}
	m.setStatus("restored the lab that was not saved — ctrl+s saves it", false)
}
