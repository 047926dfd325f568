package scheduler

import (
	"container/heap"
	"sort"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// Queue defaults (backend/queue/scheduling_queue.go).
const (
	DefaultPodInitialBackoff     = 1 * time.Second
	DefaultPodMaxBackoff         = 10 * time.Second
	DefaultPodMaxInUnschedulable = 5 * time.Minute
	UnschedulableFlushInterval   = 30 * time.Second
	backoffOrderingWindow        = time.Second
)

// Where a pod waits in the queue.
const (
	InActive        = "active"
	InBackoff       = "backoff"
	InUnschedulable = "unschedulable"
)

// Queue is the scheduling queue (PriorityQueue of
// pkg/scheduler/backend/queue): activeQ ordered by priority (desc) then
// arrival; backoffQ for pods that failed recently, ordered by backoff
// expiry — in two heaps as upstream's backoffQueue (backoff_queue.go):
// podBackoffQ for pods some plugin rejected, podErrorBackoffQ for pods
// whose attempt failed with no rejecting plugin (an error, or no nodes);
// and the unschedulable pool, which cluster events (or the 5-minute
// flush) move back. A pod the PreEnqueue hook rejects (scheduling gates)
// waits gated in the unschedulable pool and is never popped: no event
// but its own update moves it. Times are the engine's virtual clock.
type Queue struct {
	active  podHeap
	backoff podHeap
	// errBackoff is podErrorBackoffQ: Pop never takes from it early.
	errBackoff podHeap
	unsched    map[string]*QueuedPod
	pods       map[string]*QueuedPod
	seq        int64

	InitialBackoff     time.Duration
	MaxBackoff         time.Duration
	MaxInUnschedulable time.Duration

	// preEnqueue runs the PreEnqueue plugins for a pod about to enter
	// activeQ or backoffQ (nil: every pod passes); see SetPreEnqueue.
	preEnqueue PreEnqueueFunc
}

// PreEnqueueFunc is the PreEnqueue extension point as the queue sees it:
// the rejecting plugin's status (Plugin set), or nil when the pod may be
// queued for scheduling.
type PreEnqueueFunc func(pod *api.Pod) *framework.Status

// SetPreEnqueue installs the PreEnqueue plugins (the engine passes its
// scheduler's profiles). Pods already queued keep their place; the hook
// runs the next time one of them would enter activeQ or backoffQ.
func (q *Queue) SetPreEnqueue(f PreEnqueueFunc) { q.preEnqueue = f }

// QueuedPod is a pod waiting in the queue (framework.QueuedPodInfo).
type QueuedPod struct {
	Info *framework.PodInfo
	// Timestamp is when the pod was added or last came back after a
	// failed attempt (PrioritySort orders equal priorities by it).
	Timestamp api.Time
	// UnschedulableCount / ErrorCount count failed attempts; backoff
	// grows with them.
	UnschedulableCount int
	ErrorCount         int
	// Plugins rejected the pod in its last attempt.
	Plugins []string
	// Where is InActive, InBackoff or InUnschedulable ("" while in flight).
	Where string
	// Gate is the PreEnqueue rejection that keeps the pod gated in the
	// unschedulable pool (upstream's GatingPlugin, with its message); nil
	// when the pod passed PreEnqueue.
	Gate *framework.Status

	backoffExpiry api.Time
	hasExpiry     bool
	// inErrQ: while InBackoff, the pod is in errBackoff (it had no
	// rejecting plugin when it was put there).
	inErrQ bool
	index  int
}

// NewQueue returns an empty queue with upstream's default durations.
func NewQueue() *Queue {
	q := &Queue{
		unsched:            map[string]*QueuedPod{},
		pods:               map[string]*QueuedPod{},
		InitialBackoff:     DefaultPodInitialBackoff,
		MaxBackoff:         DefaultPodMaxBackoff,
		MaxInUnschedulable: DefaultPodMaxInUnschedulable,
	}
	q.active.less = lessActive
	// Both heaps order by expiry; podBackoffQ breaks ties as activeQ
	// (lessBackoffCompletedWithPriority). podErrorBackoffQ orders by
	// expiry only upstream (lessBackoffCompleted); the same tie-break
	// keeps the engine deterministic, and all pods of one expiry move to
	// activeQ together anyway.
	q.backoff.less = lessBackoff
	q.errBackoff.less = lessBackoff
	return q
}

func lessBackoff(a, b *QueuedPod) bool {
	if a.backoffExpiry != b.backoffExpiry {
		return a.backoffExpiry < b.backoffExpiry
	}
	return lessActive(a, b)
}

// lessActive is PrioritySort's Less (plugins/queuesort/priority_sort.go):
// higher priority first, then the earlier timestamp; Info.Seq (arrival
// order) breaks ties between equal virtual times.
func lessActive(a, b *QueuedPod) bool {
	pa, pb := a.Info.Priority, b.Info.Priority
	if pa != pb {
		return pa > pb
	}
	if a.Timestamp != b.Timestamp {
		return a.Timestamp < b.Timestamp
	}
	return a.Info.Seq < b.Info.Seq
}

// Add enqueues a pending pod in activeQ (a pod already waiting in the
// queue is updated instead; one in flight is enqueued afresh).
func (q *Queue) Add(pi *framework.PodInfo, now api.Time) {
	key := pi.Pod.Key()
	if qp := q.pods[key]; qp != nil && qp.Where != "" {
		q.Update(pi, now)
		return
	}
	q.seq++
	pi.Seq = q.seq
	qp := &QueuedPod{Info: pi, Timestamp: now}
	q.pods[key] = qp
	q.moveToActive(qp)
}

// Update replaces a queued pod's object. A pod in the unschedulable pool
// is moved out (to backoffQ while backing off, else activeQ), as
// PriorityQueue.Update does for a changed pod: its change may make it
// schedulable.
func (q *Queue) Update(pi *framework.PodInfo, now api.Time) {
	qp := q.pods[pi.Pod.Key()]
	if qp == nil || qp.Where == "" {
		q.Add(pi, now)
		return
	}
	pi.Seq, pi.Attempts = qp.Info.Seq, qp.Info.Attempts
	qp.Info = pi
	switch qp.Where {
	case InActive:
		heap.Fix(&q.active, qp.index)
	case InBackoff:
		heap.Fix(q.backoffHeap(qp), qp.index)
	case InUnschedulable:
		delete(q.unsched, pi.Pod.Key())
		q.requeue(qp, now)
	}
}

// Delete removes a pod (namespace/name) from the queue.
func (q *Queue) Delete(key string) {
	qp := q.pods[key]
	if qp == nil {
		return
	}
	switch qp.Where {
	case InActive:
		heap.Remove(&q.active, qp.index)
	case InBackoff:
		heap.Remove(q.backoffHeap(qp), qp.index)
	case InUnschedulable:
		delete(q.unsched, key)
	}
	delete(q.pods, key)
}

// Pop returns the next pod to schedule, or nil. It first moves pods whose
// backoff completed to activeQ; when activeQ is empty it takes the first
// pod of podBackoffQ even if still backing off (SchedulerPopFromBackoffQ,
// beta and on by default since v1.33) — never one of podErrorBackoffQ
// (backoff_queue.go popBackoff pops podBackoffQ only): an error pod waits
// for its whole backoff. The pod is in flight until Done,
// AddUnschedulable or AddError.
func (q *Queue) Pop(now api.Time) *framework.PodInfo {
	q.FlushBackoffCompleted(now)
	var qp *QueuedPod
	switch {
	case q.active.Len() > 0:
		qp = heap.Pop(&q.active).(*QueuedPod)
	case q.backoff.Len() > 0:
		qp = heap.Pop(&q.backoff).(*QueuedPod)
	default:
		return nil
	}
	qp.Where = ""
	qp.Info.Attempts++
	return qp.Info
}

// Done forgets a pod that was scheduled (bound).
func (q *Queue) Done(key string) { delete(q.pods, key) }

// AddUnschedulable takes back a pod whose cycle found no node: it waits
// in the unschedulable pool until an event its rejecting plugins care
// about (or the 5-minute flush) moves it. plugins are Result.Plugins.
// As AddUnschedulableIfNotPresent: the timestamp is refreshed and the
// unschedulable count grows (so does the backoff). The engine's cycle is
// instantaneous, so no event can arrive while the pod is in flight.
// With no rejecting plugin (no nodes at all: schedule_one.go
// handleSchedulingFailure sets no UnschedulablePlugins for
// ErrNoNodesAvailable) upstream counts the attempt as an error, so this
// is AddError.
func (q *Queue) AddUnschedulable(pi *framework.PodInfo, plugins []string, now api.Time) {
	if len(plugins) == 0 {
		q.AddError(pi, now)
		return
	}
	qp := q.inFlight(pi)
	qp.UnschedulableCount++
	qp.ErrorCount = 0
	qp.Plugins = plugins
	q.refresh(qp, now)
	qp.Where = InUnschedulable
	q.unsched[pi.Pod.Key()] = qp
}

// AddError takes back a pod whose cycle failed with an internal error: it
// goes through backoff (determineSchedulingHintForInFlightPod: no
// rejecting plugin ⇒ queueAfterBackoff), in podErrorBackoffQ, and comes
// back only when the backoff completed (see NextBackoffExpiry).
func (q *Queue) AddError(pi *framework.PodInfo, now api.Time) {
	qp := q.inFlight(pi)
	qp.ErrorCount++
	qp.Plugins = nil
	q.refresh(qp, now)
	q.requeue(qp, now)
}

// Requeue puts a popped pod back without counting the attempt: into
// backoffQ while it is still backing off, else activeQ, with its failure
// counts and timestamp unchanged. The engine uses it when Pop hands back,
// at the same virtual instant, a pod it already tried (Pop takes from
// backoffQ when activeQ is empty), so that the pod waits for its backoff
// instead of being tried in a loop.
func (q *Queue) Requeue(pi *framework.PodInfo, now api.Time) {
	qp := q.inFlight(pi)
	if qp.Info.Attempts > 0 {
		qp.Info.Attempts--
	}
	q.requeue(qp, now)
}

func (q *Queue) inFlight(pi *framework.PodInfo) *QueuedPod {
	key := pi.Pod.Key()
	qp := q.pods[key]
	if qp == nil {
		qp = &QueuedPod{Info: pi}
		q.pods[key] = qp
	}
	if qp.Where != "" {
		// Already queued: take it out first.
		q.Delete(key)
		q.pods[key] = qp
	}
	qp.Info = pi
	return qp
}

func (q *Queue) refresh(qp *QueuedPod, now api.Time) {
	qp.Timestamp = now
	qp.hasExpiry = false
	q.seq++
	qp.Info.Seq = q.seq
}

// MoveAllToActiveOrBackoff moves every unschedulable pod the event may
// help (see worthRequeuing) to activeQ, or to backoffQ while it is still
// backing off (movePodsToActiveOrBackoffQueue /
// requeuePodWithQueueingStrategy). It returns the number of pods moved.
func (q *Queue) MoveAllToActiveOrBackoff(event ClusterEvent, now api.Time) int {
	moved := 0
	for _, key := range q.unschedulableKeys() {
		qp := q.unsched[key]
		if qp.Gate != nil || !worthRequeuing(qp.Plugins, event) {
			// a gated pod waits for its own update
			// (movePodsToActiveOrBackoffQueue skips a gated pod unless
			// the event is one its gating plugin registered: for
			// SchedulingGates only Pod/UpdatePodSchedulingGatesEliminated)
			continue
		}
		delete(q.unsched, key)
		q.requeue(qp, now)
		moved++
	}
	return moved
}

// FlushUnschedulableLeftover moves pods that waited longer than
// MaxInUnschedulable (5 min) in the unschedulable pool
// (flushUnschedulablePodsLeftover, which upstream runs every 30 s; the
// engine calls this every UnschedulableFlushInterval).
func (q *Queue) FlushUnschedulableLeftover(now api.Time) int {
	moved := 0
	for _, key := range q.unschedulableKeys() {
		qp := q.unsched[key]
		if qp.Gate == nil && now.Sub(qp.Timestamp) > q.MaxInUnschedulable {
			delete(q.unsched, key)
			q.requeue(qp, now)
			moved++
		}
	}
	return moved
}

// FlushBackoffCompleted moves pods whose backoff completed to activeQ,
// podBackoffQ's first, then podErrorBackoffQ's (flushBackoffQCompleted /
// popAllBackoffCompleted, run every second upstream; Pop calls it).
func (q *Queue) FlushBackoffCompleted(now api.Time) {
	for _, h := range []*podHeap{&q.backoff, &q.errBackoff} {
		for h.Len() > 0 {
			qp := h.items[0]
			if q.backingOff(qp, now) {
				break
			}
			heap.Pop(h)
			q.pushActive(qp)
		}
	}
}

// NextBackoffExpiry returns when the engine should next wake the
// scheduler for backoffQ: the first expiry of podBackoffQ (Pop may take
// that pod early anyway), and for podErrorBackoffQ the first instant its
// head stops backing off. That is one ordering window after its aligned
// expiry (isPodBackingoff: backing off while the expiry is not before
// the current window), which is also the flush tick that moves it to
// activeQ upstream: the flush runs on whole seconds
// (waitUntilAlignedWithOrderingWindow), as the engine's clock starts on
// one.
func (q *Queue) NextBackoffExpiry() (api.Time, bool) {
	var at api.Time
	ok := false
	if q.backoff.Len() > 0 {
		at, ok = q.backoffExpiry(q.backoff.items[0]), true
	}
	if q.errBackoff.Len() > 0 {
		t := q.backoffExpiry(q.errBackoff.items[0]).Add(backoffOrderingWindow)
		if !ok || t < at {
			at, ok = t, true
		}
	}
	return at, ok
}

// requeue puts a pod into backoffQ while it is backing off, else activeQ;
// a pod without rejecting plugins goes to podErrorBackoffQ
// (backoffQueue.add). Both run PreEnqueue first (moveToBackoffQ with
// SchedulerPopFromBackoffQ, moveToActiveQ): a gated pod goes to the
// unschedulable pool instead.
func (q *Queue) requeue(qp *QueuedPod, now api.Time) {
	if q.gated(qp) {
		return
	}
	if q.backingOff(qp, now) {
		qp.Where = InBackoff
		qp.inErrQ = len(qp.Plugins) == 0
		heap.Push(q.backoffHeap(qp), qp)
		return
	}
	q.pushActive(qp)
}

// backoffHeap is the heap a pod InBackoff is in.
func (q *Queue) backoffHeap(qp *QueuedPod) *podHeap {
	if qp.inErrQ {
		return &q.errBackoff
	}
	return &q.backoff
}

// moveToActive is moveToActiveQ: PreEnqueue, then activeQ unless gated.
func (q *Queue) moveToActive(qp *QueuedPod) {
	if !q.gated(qp) {
		q.pushActive(qp)
	}
}

// gated runs PreEnqueue on the pod (runPreEnqueuePlugins): rejected, it
// is put in the unschedulable pool with the rejection as its Gate and
// gated reports true; passing clears the Gate.
func (q *Queue) gated(qp *QueuedPod) bool {
	qp.Gate = nil
	if q.preEnqueue == nil {
		return false
	}
	st := q.preEnqueue(qp.Info.Pod)
	if st.IsSuccess() {
		return false
	}
	qp.Gate = st
	qp.Where = InUnschedulable
	q.unsched[qp.Info.Pod.Key()] = qp
	return true
}

// Gate returns the PreEnqueue rejection keeping the pod (namespace/name)
// out of activeQ, or nil when it is not gated (or not queued).
func (q *Queue) Gate(key string) *framework.Status {
	if qp := q.pods[key]; qp != nil {
		return qp.Gate
	}
	return nil
}

func (q *Queue) pushActive(qp *QueuedPod) {
	qp.Where = InActive
	heap.Push(&q.active, qp)
}

// backoffDuration is calculateBackoffDuration: initial × 2^(count−1),
// capped at the maximum.
func (q *Queue) backoffDuration(count int) time.Duration {
	if count <= 0 {
		return 0
	}
	shift := count - 1
	if shift >= 62 || q.InitialBackoff > q.MaxBackoff>>shift {
		return q.MaxBackoff
	}
	return q.InitialBackoff << shift
}

// backoffExpiry is getBackoffTime: the timestamp plus the backoff for the
// pod's failure count (errors take precedence), aligned down to the 1 s
// ordering window of SchedulerPopFromBackoffQ.
func (q *Queue) backoffExpiry(qp *QueuedPod) api.Time {
	if !qp.hasExpiry {
		count := qp.UnschedulableCount
		if qp.ErrorCount > 0 {
			count = qp.ErrorCount
		}
		qp.backoffExpiry = alignToWindow(qp.Timestamp.Add(q.backoffDuration(count)))
		qp.hasExpiry = true
	}
	return qp.backoffExpiry
}

// backingOff is isPodBackingoff: the expiry is not before the current
// window. A pod that never failed does not back off.
func (q *Queue) backingOff(qp *QueuedPod, now api.Time) bool {
	if q.MaxBackoff == 0 || (qp.UnschedulableCount == 0 && qp.ErrorCount == 0) {
		return false
	}
	return q.backoffExpiry(qp) >= alignToWindow(now)
}

func alignToWindow(t api.Time) api.Time {
	w := api.Time(backoffOrderingWindow)
	r := t % w
	if r < 0 {
		r += w
	}
	return t - r
}

func (q *Queue) unschedulableKeys() []string {
	keys := make([]string, 0, len(q.unsched))
	for k := range q.unsched {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Len returns the number of queued pods (not counting in-flight ones).
func (q *Queue) Len() int {
	return q.active.Len() + q.backoff.Len() + q.errBackoff.Len() + len(q.unsched)
}

// Pending lists the queued pods: activeQ in pop order, then backoffQ in
// expiry order, then the unschedulable pool by key.
func (q *Queue) Pending() []*QueuedPod {
	out := make([]*QueuedPod, 0, q.Len())
	a := append([]*QueuedPod(nil), q.active.items...)
	sort.Slice(a, func(i, j int) bool { return lessActive(a[i], a[j]) })
	out = append(out, a...)
	b := append(append([]*QueuedPod(nil), q.backoff.items...), q.errBackoff.items...)
	sort.Slice(b, func(i, j int) bool { return lessBackoff(b[i], b[j]) })
	out = append(out, b...)
	for _, k := range q.unschedulableKeys() {
		out = append(out, q.unsched[k])
	}
	return out
}

// podHeap is a heap of queued pods with index tracking.
type podHeap struct {
	items []*QueuedPod
	less  func(a, b *QueuedPod) bool
}

func (h *podHeap) Len() int           { return len(h.items) }
func (h *podHeap) Less(i, j int) bool { return h.less(h.items[i], h.items[j]) }
func (h *podHeap) Swap(i, j int) {
	h.items[i], h.items[j] = h.items[j], h.items[i]
	h.items[i].index, h.items[j].index = i, j
}
func (h *podHeap) Push(x any) {
	qp := x.(*QueuedPod)
	qp.index = len(h.items)
	h.items = append(h.items, qp)
}
func (h *podHeap) Pop() any {
	n := len(h.items)
	qp := h.items[n-1]
	h.items[n-1] = nil
	h.items = h.items[:n-1]
	return qp
}
