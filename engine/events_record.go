package engine

// RecordEvent records an event on behalf of a component outside the
// engine — the lab, which must not be imported here, reports a timeline
// command that failed this way — stamped with the current virtual time,
// so it sits in the one event log with the cluster's own events (the
// events view, `podlab run`, watches). typ is EventNormal or
// EventWarning; object names what the event is about ("pod/NS/NAME",
// "node/NAME", or a lab object such as "timeline/…").
func (e *Engine) RecordEvent(typ, reason, object, message string) {
	if typ != EventNormal {
		typ = EventWarning // an unknown type is shown, not hidden as normal
	}
	e.record(typ, reason, object, message)
}
