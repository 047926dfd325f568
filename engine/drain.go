package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"podlab.dev/podlab/engine/api"
)

// kubectl drain's filter messages (k8s.io/kubectl/pkg/drain/filters.go).
const (
	drainDaemonSetFatal   = "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)"
	drainDaemonSetWarning = "ignoring DaemonSet-managed Pods"
	drainUnmanagedFatal   = "Pods declare no controller (use --force to override)"
	drainUnmanagedWarning = "deleting Pods that declare no controller"
	// drainRetryInterval is how long kubectl waits after a 429.
	drainRetryInterval = 5 * time.Second
	// drainPollInterval is waitForDelete's poll.
	drainPollInterval = time.Second
)

// DrainOptions are kubectl drain's flags.
type DrainOptions struct {
	IgnoreDaemonSets bool
	Force            bool
	// Timeout gives up after this long (0: wait forever).
	Timeout time.Duration
	// GracePeriodSeconds overrides the pods' grace period (< 0: theirs).
	GracePeriodSeconds int64
}

// DrainLine is one line of kubectl drain's output, with its time.
type DrainLine struct {
	Time api.Time
	Text string
}

// BlockedEviction is an eviction the API refused and drain is retrying.
type BlockedEviction struct {
	Pod     string
	Since   api.Time
	Message string
	// Cause names the budget and its numbers ("The disruption budget web
	// needs 2 healthy pods and has 2 currently").
	Cause  string
	Budget string
}

// Drain is a `kubectl drain` in progress (or finished).
type Drain struct {
	ID      int
	Node    string
	Options DrainOptions
	Started api.Time
	Lines   []DrainLine
	Done    bool
	// Err is set when the drain failed (filters refused pods, an eviction
	// error, the timeout); empty when it drained the node.
	Err      string
	Finished api.Time
	pods     []*drainPod
	gen      int64
}

type drainPod struct {
	key      string
	uid      string
	evicted  bool
	evictAt  api.Time
	done     bool
	blocked  *BlockedEviction
	retryGen int64
}

// Blocked lists the evictions the drain is currently retrying, sorted.
func (d *Drain) Blocked() []BlockedEviction {
	var out []BlockedEviction
	for _, p := range d.pods {
		if p.blocked != nil && !p.done {
			out = append(out, *p.blocked)
		}
	}
	return out
}

// Waiting lists the pods evicted but not yet gone.
func (d *Drain) Waiting() []string {
	var out []string
	for _, p := range d.pods {
		if p.evicted && !p.done {
			out = append(out, p.key)
		}
	}
	return out
}

func (d *Drain) say(e *Engine, format string, args ...any) {
	d.Lines = append(d.Lines, DrainLine{Time: e.Now(), Text: fmt.Sprintf(format, args...)})
}

func (d *Drain) finish(e *Engine, errMsg string) {
	if d.Done {
		return
	}
	d.Done = true
	d.Finished = e.Now()
	d.Err = errMsg
	d.gen = e.nextGen()
}

// Drain runs `kubectl drain NODE` on the virtual clock: cordon the node,
// refuse DaemonSet-managed pods without IgnoreDaemonSets and pods without
// a controller without Force (nothing is evicted then), evict the rest
// through the Eviction API, retry refused evictions every 5 s, wait for
// evicted pods to be gone, until done or Timeout. The returned Drain is
// updated as time passes.
func (e *Engine) Drain(node string, opts DrainOptions) (*Drain, error) {
	if e.nodes[node] == nil {
		return nil, fmt.Errorf("drain: nodes %q not found", node)
	}
	d := &Drain{ID: len(e.drains) + 1, Node: node, Options: opts, Started: e.Now(), gen: e.nextGen()}
	e.drains = append(e.drains, d)
	if e.nodes[node].node.Spec.Unschedulable {
		d.say(e, "node/%s already cordoned", node)
	} else {
		_ = e.UpdateNode(node, func(n *api.Node) { n.Spec.Unschedulable = true })
		d.say(e, "node/%s cordoned", node)
	}
	fatal := map[string][]string{}
	warn := map[string][]string{}
	for _, key := range e.podKeysOnNode(node) {
		p := e.pods.Get(key).pod
		msgFatal, msgWarn, skip := drainFilter(e, p, opts)
		if msgFatal != "" {
			fatal[msgFatal] = append(fatal[msgFatal], key)
			continue
		}
		if msgWarn != "" {
			warn[msgWarn] = append(warn[msgWarn], key)
		}
		if !skip {
			d.pods = append(d.pods, &drainPod{key: key, uid: string(p.UID)})
		}
	}
	if len(fatal) > 0 {
		var errs []string
		for _, m := range sortedKeys(fatal) {
			errs = append(errs, fmt.Sprintf("cannot delete %s: %s", m, strings.Join(fatal[m], ", ")))
		}
		msg := strings.Join(errs, ", ")
		if len(errs) > 1 {
			msg = "[" + msg + "]"
		}
		d.say(e, "error: unable to drain node %q due to error: %s, continuing command...", node, msg)
		d.say(e, "There are pending nodes to be drained:")
		d.say(e, " %s", node)
		for _, m := range errs {
			d.say(e, "%s", m)
		}
		d.finish(e, msg)
		e.settle()
		return d, nil
	}
	if len(warn) > 0 {
		var ws []string
		for _, m := range sortedKeys(warn) {
			ws = append(ws, m+": "+strings.Join(warn[m], ", "))
		}
		d.say(e, "Warning: %s", strings.Join(ws, "; "))
	}
	if opts.Timeout > 0 {
		e.clock.Schedule(e.Now().Add(opts.Timeout), action{kind: actDrainAttempt, key: strconv.Itoa(d.ID), gen: d.gen})
	}
	for _, p := range d.pods {
		d.say(e, "evicting pod %s", p.key)
	}
	for _, p := range d.pods {
		e.drainEvict(d, p)
		if d.Done {
			break
		}
	}
	e.checkDrainDone(d)
	e.settle()
	return d, nil
}

// drainFilter applies kubectl's pod filters in order (daemonSet, mirror,
// unreplicated): a fatal message, a warning, or skip.
func drainFilter(e *Engine, p *api.Pod, opts DrainOptions) (fatal, warning string, skip bool) {
	if p.IsTerminal() {
		return "", "", false
	}
	ref := p.ControllerRef()
	if ref != nil && ref.Kind == "DaemonSet" {
		if !opts.IgnoreDaemonSets {
			return drainDaemonSetFatal, "", true
		}
		return "", drainDaemonSetWarning, true
	}
	if _, mirror := p.Annotations["kubernetes.io/config.mirror"]; mirror {
		return "", "", true
	}
	if ref == nil {
		if !opts.Force {
			return drainUnmanagedFatal, "", true
		}
		return "", drainUnmanagedWarning, false
	}
	return "", "", false
}

func sortedKeys(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (e *Engine) drainEvict(d *Drain, p *drainPod) {
	if d.Done || p.done {
		return
	}
	ps := e.pods.Get(p.key)
	if ps == nil || string(ps.pod.UID) != p.uid {
		p.done = true
		return
	}
	var opts DeleteOptions
	if d.Options.GracePeriodSeconds >= 0 {
		g := d.Options.GracePeriodSeconds
		opts.GracePeriodSeconds = &g
	}
	dec, err := e.evict(p.key, opts)
	ns, name := splitKey(p.key)
	switch {
	case err != nil:
		p.done = true
	case dec.Allowed:
		p.evicted = true
		p.evictAt = e.Now()
		p.blocked = nil
		if e.pods.Get(p.key) == nil {
			e.drainSawGone(d, p)
		}
	case dec.Code == 429:
		d.say(e, "error when evicting pods/%q -n %q (will retry after 5s): %s", name, ns, dec.Message)
		since := e.Now()
		if p.blocked != nil {
			since = p.blocked.Since
		}
		p.blocked = &BlockedEviction{Pod: p.key, Since: since, Message: dec.Message, Cause: dec.Cause, Budget: dec.Budget}
		p.retryGen = e.nextGen()
		e.clock.Schedule(e.Now().Add(drainRetryInterval), action{kind: actDrainAttempt, key: strconv.Itoa(d.ID) + "|" + p.key, gen: p.retryGen})
	default:
		d.say(e, "error when evicting pods/%q -n %q: %s", name, ns, dec.Message)
		d.say(e, "error: unable to drain node %q due to error: %s, continuing command...", d.Node, dec.Message)
		d.finish(e, dec.Message)
	}
}

func splitKey(key string) (ns, name string) {
	if i := strings.IndexByte(key, '/'); i >= 0 {
		return key[:i], key[i+1:]
	}
	return "", key
}

// drainAttempt: a retry of a refused eviction, or the drain's timeout.
func (e *Engine) drainAttempt(key string, gen int64) {
	id, podKey, _ := strings.Cut(key, "|")
	n, err := strconv.Atoi(id)
	if err != nil || n < 1 || n > len(e.drains) {
		return
	}
	d := e.drains[n-1]
	if d.Done {
		return
	}
	if podKey == "" {
		if gen == d.gen {
			d.say(e, "error: drain did not complete within %s", d.Options.Timeout)
			d.finish(e, fmt.Sprintf("drain did not complete within %s", d.Options.Timeout))
		}
		return
	}
	for _, p := range d.pods {
		if p.key == podKey && p.retryGen == gen {
			e.drainEvict(d, p)
		}
	}
	e.checkDrainDone(d)
}

// podRemovedForDrains: drains waiting for this pod see it gone at their
// next delete-wait poll (every second since the eviction).
func (e *Engine) podRemovedForDrains(key string) {
	for _, d := range e.drains {
		if d.Done {
			continue
		}
		for _, p := range d.pods {
			if p.key == key && p.evicted && !p.done {
				e.drainSawGone(d, p)
			}
		}
	}
}

func (e *Engine) drainSawGone(d *Drain, p *drainPod) {
	now := e.Now()
	waited := now.Sub(p.evictAt)
	polls := (waited + drainPollInterval - 1) / drainPollInterval
	at := p.evictAt.Add(polls * drainPollInterval)
	e.clock.Schedule(at, action{kind: actDrainObserve, key: strconv.Itoa(d.ID) + "|" + p.key, gen: d.gen})
}

func (e *Engine) drainObserve(key string, gen int64) {
	id, podKey, _ := strings.Cut(key, "|")
	n, err := strconv.Atoi(id)
	if err != nil || n < 1 || n > len(e.drains) {
		return
	}
	d := e.drains[n-1]
	if d.Done || d.gen != gen {
		return
	}
	for _, p := range d.pods {
		if p.key == podKey && !p.done {
			p.done = true
			_, name := splitKey(p.key)
			d.say(e, "pod/%s evicted", name)
		}
	}
	e.checkDrainDone(d)
}

func (e *Engine) checkDrainDone(d *Drain) {
	if d.Done {
		return
	}
	for _, p := range d.pods {
		if !p.done {
			return
		}
	}
	d.say(e, "node/%s drained", d.Node)
	d.finish(e, "")
}

// Drains returns every drain started, oldest first.
func (e *Engine) Drains() []*Drain { return e.drains }
