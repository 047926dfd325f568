package engine

// Watcher is told which pods and nodes changed, as an informer's event
// handlers are told of adds, updates and deletes — so that a consumer
// (the workload controllers' work queues, the lab's metrics) can keep
// its own indexes and counters up to date instead of rescanning every
// object after every change.
//
// Only the key is passed, synchronously, while the engine is in the
// middle of a change: a watcher must not call back into the engine from
// PodChanged or NodeChanged. It reads the current objects later (Pod,
// Node; nil when gone). One change may be reported more than once, and a
// pod's object may have been replaced several times between two reads.
type Watcher interface {
	// PodChanged: the pod was created, its object was replaced (pods are
	// never edited in place), its PodState changed (which may happen
	// without a new object: containers started by the runtime model, a
	// kill started) or it was removed from the store.
	PodChanged(key string)
	// NodeChanged: the node was added, updated (labels, taints, spec,
	// conditions, allocatable) or removed.
	NodeChanged(name string)
}

// Watch registers w and returns a function that unregisters it. A clone
// of the engine starts without watchers: whoever owns the clone
// registers its own (watchers hold their owner's state).
func (e *Engine) Watch(w Watcher) (cancel func()) {
	e.watchers = append(e.watchers, w)
	return func() {
		for i, x := range e.watchers {
			if x == w {
				// a new slice: a notification may be iterating the old
				// one, and the old array must not keep w reachable
				ws := make([]Watcher, 0, len(e.watchers)-1)
				ws = append(ws, e.watchers[:i]...)
				e.watchers = append(ws, e.watchers[i+1:]...)
				return
			}
		}
	}
}

func (e *Engine) podChanged(key string, id PodID) {
	for _, w := range e.watchers {
		if iw, ok := w.(PodIDWatcher); ok {
			iw.PodChangedID(key, id)
			continue
		}
		w.PodChanged(key)
	}
}

func (e *Engine) nodeChanged(name string) {
	for _, w := range e.watchers {
		w.NodeChanged(name)
	}
}
