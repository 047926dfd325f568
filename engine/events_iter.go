package engine

// EventCount is len(Events()) without building the flat copy Events
// keeps: a consumer that polls for new events every virtual second (the
// lab's metrics) should not pay for copying the log.
func (e *Engine) EventCount() int { return e.sealedLen + len(e.events) }

// EachEventSince calls fn for the events recorded after the first n, in
// order, reading the log's chunks in place (no flat copy). fn must not
// record events.
func (e *Engine) EachEventSince(n int, fn func(ev *Event)) {
	at := 0
	for _, c := range e.sealed {
		if n < at+len(c) {
			for i := max(n-at, 0); i < len(c); i++ {
				fn(&c[i])
			}
		}
		at += len(c)
	}
	for i := max(n-at, 0); i < len(e.events); i++ {
		fn(&e.events[i])
	}
}
