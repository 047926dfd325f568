package scheduler

import "podlab.dev/podlab/engine/scheduler/framework"

// Clone returns an independent copy of the queue (the engine's undo):
// the same pods in the same places, backoffs and counters. infoOf maps a
// pod key to the clone's PodInfo (nil keeps the original's).
func (q *Queue) Clone(infoOf func(key string) *framework.PodInfo) *Queue {
	c := NewQueue()
	c.seq = q.seq
	c.InitialBackoff, c.MaxBackoff, c.MaxInUnschedulable = q.InitialBackoff, q.MaxBackoff, q.MaxInUnschedulable
	// the hook is the original's; an owner whose clone has its own
	// plugins (the engine's clone has its own scheduler) installs them
	c.preEnqueue = q.preEnqueue
	copied := make(map[*QueuedPod]*QueuedPod, len(q.pods))
	cp := func(qp *QueuedPod) *QueuedPod {
		if x, ok := copied[qp]; ok {
			return x
		}
		n := *qp
		n.Plugins = append([]string(nil), qp.Plugins...)
		if infoOf != nil {
			if pi := infoOf(qp.Info.Pod.Key()); pi != nil {
				n.Info = pi
			}
		}
		copied[qp] = &n
		return &n
	}
	for _, qp := range q.active.items {
		c.active.items = append(c.active.items, cp(qp))
	}
	for _, qp := range q.backoff.items {
		c.backoff.items = append(c.backoff.items, cp(qp))
	}
	for _, qp := range q.errBackoff.items {
		c.errBackoff.items = append(c.errBackoff.items, cp(qp))
	}
	for k, qp := range q.unsched {
		c.unsched[k] = cp(qp)
	}
	for k, qp := range q.pods {
		c.pods[k] = cp(qp)
	}
	return c
}
