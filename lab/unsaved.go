package lab

import (
	"encoding/binary"
	"hash/fnv"
	"io"
)

// A Mark identifies what a save would record of what the user did: the
// commands of the history (each with its instant) and, for a fork, where
// it split and what each lane ran. Two marks differ exactly when a save
// would write different timelines, so a user interface that keeps the
// mark of its last save knows whether the session has unsaved changes:
// undoing back to the saved history counts as unchanged, undoing and
// running a different command does not. The clock running by itself is
// not a change (a reload replays to where it was saved; nothing the user
// did is lost without it).
type Mark uint64

// Mark is the session's mark (see Mark).
func (s *Session) Mark() Mark {
	h := fnv.New64a()
	writeEntries(h, s.history)
	return Mark(h.Sum64())
}

// Mark is the fork's mark: its history before the split, the split and
// every command since, with their lanes.
func (f *Fork) Mark() Mark {
	h := fnv.New64a()
	writeEntries(h, f.lanes[0].history[:f.shared])
	io.WriteString(h, "\x00fork\x00")
	writeInt(h, int64(f.at))
	for _, e := range f.history {
		writeInt(h, int64(e.At))
		io.WriteString(h, e.Lane)
		io.WriteString(h, "\x00")
		io.WriteString(h, e.Line)
		io.WriteString(h, "\x00")
	}
	return Mark(h.Sum64())
}

// Commands is how many commands a save would add to the scenario (the
// number a "quit without saving?" question quotes).
func (s *Session) Commands() int { return len(s.history) }

// Commands is Session.Commands for a fork: before and since the split.
func (f *Fork) Commands() int { return f.shared + len(f.history) }

func writeEntries(w io.Writer, es []Entry) {
	for _, e := range es {
		writeInt(w, int64(e.At))
		io.WriteString(w, e.Line)
		io.WriteString(w, "\x00")
	}
}

func writeInt(w io.Writer, v int64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(v))
	w.Write(b[:])
}
