package engine

// EventCount is len(Events()) without building the flat copy Events
// keeps: a consumer that polls for new events every virtual second (the
// lab's metrics) should not pay for copying the log.
func (e *Engine) EventCount() int { return e.sealedLen + len(e.events) }

// EachEventSince calls fn for the events recorded after the first n, in
// order, reading the log's chunks in place (no flat copy). fn must not
// record events, nor keep ev once it returns.
func (e *Engine) EachEventSince(n int, fn func(ev *Event)) {
	if n >= e.sealedLen {
		// only unsealed events are new (a watcher reading every second,
		// as the lab's metrics do): the sealed chunks are not walked, each
		// of which would be read for its length
		for i := n - e.sealedLen; i < len(e.events); i++ {
			fn(&e.events[i])
		}
		return
	}
	at := 0
	var ev Event // a sealed event is read back into it: fn must not keep ev
	for _, c := range e.sealed {
		for i := max(n-at, 0); i < c.len(); i++ {
			c.event(i, &ev)
			fn(&ev)
		}
		at += c.len()
	}
	for i := max(n-at, 0); i < len(e.events); i++ {
		fn(&e.events[i])
	}
}
