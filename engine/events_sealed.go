package engine

import (
	"strings"

	"podlab.dev/podlab/engine/api"
)

// Sealed event chunks are stored without pointers the garbage collector
// has to follow: the strings of a chunk's events are copied into one
// text (a reason or a type once per chunk), and each event becomes a
// record of offsets into it. A day of a busy cluster records about half a
// million events, which as Event values were the larger half of the live
// heap — two string objects each, scanned and marked on every GC cycle;
// a sealed chunk is two objects, neither scanned. Reading an event back
// slices the text (no copy, no allocation), so Events and EachEventSince
// give the same values as before.
type sealedChunk struct {
	text string
	recs []eventRec
}

// eventRec is one event of a sealed chunk: its time and where its four
// strings lie in the chunk's text.
type eventRec struct {
	time                     api.Time
	typ, reason, object, msg textSpan
}

// textSpan is a substring of a chunk's text.
type textSpan struct{ off, n uint32 }

func (s textSpan) of(text string) string { return text[s.off : s.off+s.n] }

// sealChunk packs evs. A chunk's text stays far below 4 GiB (eventChunk
// events of a few hundred bytes each), so 32-bit offsets suffice.
func sealChunk(evs []Event) *sealedChunk {
	size := 0
	for i := range evs {
		size += len(evs[i].Object) + len(evs[i].Message)
	}
	var b strings.Builder
	b.Grow(size + 256)
	shared := map[string]textSpan{} // types and reasons: a few per chunk
	put := func(s string) textSpan {
		sp := textSpan{uint32(b.Len()), uint32(len(s))}
		b.WriteString(s)
		return sp
	}
	putShared := func(s string) textSpan {
		if sp, ok := shared[s]; ok {
			return sp
		}
		sp := put(s)
		shared[s] = sp
		return sp
	}
	recs := make([]eventRec, len(evs))
	for i := range evs {
		ev := &evs[i]
		recs[i] = eventRec{time: ev.Time, typ: putShared(ev.Type), reason: putShared(ev.Reason),
			object: put(ev.Object), msg: put(ev.Message)}
	}
	return &sealedChunk{text: b.String(), recs: recs}
}

func (c *sealedChunk) len() int { return len(c.recs) }

// event reads the i-th event back into ev.
func (c *sealedChunk) event(i int, ev *Event) {
	r := &c.recs[i]
	*ev = Event{Time: r.time, Type: r.typ.of(c.text), Reason: r.reason.of(c.text),
		Object: r.object.of(c.text), Message: r.msg.of(c.text)}
}
