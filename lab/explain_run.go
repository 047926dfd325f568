package lab

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab/command"
	"podlab.dev/podlab/lab/textsafe"
)

// explainLive reports whether `podlab explain` must run the scenario
// rather than take its timeless pass: --at or --do ask for a running lab,
// and a file whose bare pods give nothing to explain (no pending one, or
// --pod names none of them) has its pending pods, if any, created by
// controllers. Bare-pod explains without those flags stay timeless (the
// oracle's contract).
func explainLive(c *staticCluster, opts ExplainOptions) bool {
	if opts.At > 0 || len(opts.Do) > 0 {
		return true
	}
	if opts.Pod == "" {
		return len(c.pending) == 0
	}
	for _, list := range [][]*api.Pod{c.pending, c.bound} {
		for _, p := range list {
			if p.Key() == opts.Pod || p.Name == opts.Pod {
				return false
			}
		}
	}
	return true
}

// explainRunning is `podlab explain` on the running lab, as `describe`
// runs it: the controllers' first pass has created the workloads' pods,
// the --do commands are applied at t=0 and the clock runs to --at. The
// explanation is the explain view's (Session.Explain).
func explainRunning(w io.Writer, f *File, opts ExplainOptions) error {
	if opts.Output != "" && opts.Output != "text" && opts.Output != "json" {
		return fmt.Errorf("-o must be json or text, not %q", opts.Output)
	}
	if err := checkRunTime("--at", opts.At); err != nil {
		return err
	}
	var seed *int64
	if opts.SeedSet {
		seed = &opts.Seed
	}
	s, err := NewSession(f, SessionOptions{Seed: seed, TieBreak: opts.TieBreak, NoCheckpoints: true})
	if err != nil {
		return err
	}
	if err := s.applyAll(opts.Do); err != nil {
		return err
	}
	if api.Time(opts.At) > s.Now() {
		if err := s.advanceTo(api.Time(opts.At)); err != nil {
			return err
		}
	}
	pod, why, err := s.pickPending(opts.Pod)
	if err != nil {
		return err
	}
	ex, err := s.Explain(pod.Key())
	if err != nil {
		return err
	}
	at := age(time.Duration(s.Now()))
	switch opts.Output {
	case "json":
		err = writeExplainJSONAt(textsafe.NewJSONWriter(w), ex, at, why.workload)
	default:
		tw := textsafe.NewWriter(w)
		fmt.Fprintf(tw, "running lab at %s: %s\n", at, why.text)
		err = writeExplainText(tw, ex.Explanation, ex.Priority, ex.BindingRefused)
	}
	if err != nil {
		return err
	}
	return timelineFailureError(s.TimelineFailures()) // explained, but not what the timeline meant
}

// pendingPick says which pod explain picked and why.
type pendingPick struct {
	text     string // "default/web-1, the first of deployment/web's 3 pending pods"
	workload string // "deployment/web" when --pod named a workload
}

// pickPending resolves --pod in the running lab: "" is the first pending
// pod by namespace/name; KIND/NAME (deployment/web, sts/db, KIND/NS/NAME)
// is that workload's first pending pod; otherwise NAME or NAMESPACE/NAME
// of a pod, which must be pending.
func (s *Session) pickPending(ref string) (*api.Pod, pendingPick, error) {
	at := age(time.Duration(s.Now()))
	pending := func(pods []*api.Pod) []*api.Pod {
		var out []*api.Pod
		for _, p := range pods {
			if st, _ := s.eng.PodState(p.Key()); st == engine.StatePending && p.DeletionTimestamp == nil {
				out = append(out, p)
			}
		}
		return out
	}
	all := pending(s.eng.Pods()) // sorted by namespace/name
	keys := make([]string, len(all))
	for i, p := range all {
		keys[i] = p.Key()
	}
	if ref == "" {
		if len(all) == 0 {
			return nil, pendingPick{}, fmt.Errorf("no pod is pending at %s; try a later instant with --at (e.g. --at 1m) or change the cluster with --do", at)
		}
		return all[0], pendingPick{text: firstOf(all[0].Key(), "", len(all))}, nil
	}
	if k, rest, ok := strings.Cut(ref, "/"); ok && command.CanonicalKind(k) == "pod" && !s.hasPod(ref) {
		ref = rest // pod/NAME
	}
	if kind, name, ok := workloadRef(ref); ok && !s.hasPod(ref) {
		ns, n, err := s.resolve(kind, name)
		if err != nil {
			return nil, pendingPick{}, errors.New(safe(err.Error()))
		}
		wl := kind + "/" + n
		mine := pending(s.workloadPods(kind, ns, n))
		if len(mine) == 0 {
			return nil, pendingPick{}, fmt.Errorf("%s has no pending pod at %s; try --at; pending pods are %s", safe(wl), at, safe(joinMax(keys, 8)))
		}
		return mine[0], pendingPick{workload: wl, text: firstOf(mine[0].Key(), wl, len(mine))}, nil
	}
	ns, n, err := s.resolve("pod", ref)
	if err != nil {
		return nil, pendingPick{}, unknownPodError{safe(err.Error())}
	}
	p := s.eng.Pod(ns + "/" + n)
	for _, q := range all {
		if q == p {
			return p, pendingPick{text: p.Key()}, nil
		}
	}
	where := "is not pending"
	if p != nil && p.Spec.NodeName != "" {
		where = "is bound to " + p.Spec.NodeName
	}
	return nil, pendingPick{}, fmt.Errorf("pod %s %s at %s; explain shows pending pods (%s)", safe(ns+"/"+n), safe(where), at, safe(joinMax(keys, 8)))
}

// hasPod is whether a pod goes by ref (so "job/x" may still name a pod x
// in namespace "job").
func (s *Session) hasPod(ref string) bool {
	_, _, _, ok := s.lookup("pod", ref)
	return ok
}

// workloadRef splits "deployment/web" (any kind alias: deploy, sts, …)
// into a workload kind and the name, which may be NAMESPACE/NAME.
func workloadRef(ref string) (kind, name string, ok bool) {
	k, rest, found := strings.Cut(ref, "/")
	if !found || rest == "" {
		return "", "", false
	}
	switch kind = command.CanonicalKind(k); kind {
	case "deployment", "replicaset", "replicationcontroller", "statefulset", "daemonset", "job", "cronjob":
		return kind, rest, true
	}
	return "", "", false
}

// firstOf names the picked pod: "default/web-1, the first of
// deployment/web's 3 pending pods" ("the only pending pod" when alone).
func firstOf(key, workload string, n int) string {
	whose := "the "
	if workload != "" {
		whose = workload + "'s "
	}
	if n == 1 {
		return fmt.Sprintf("%s, %sonly pending pod", key, whose)
	}
	return fmt.Sprintf("%s, the first of %s%d pending pods", key, strings.TrimPrefix(whose, "the "), n)
}

// unknownPodError is a --pod NAME the running lab does not have either:
// for a file with bare pending pods and no --at/--do, Explain reports it
// as the timeless pass always has (the bare pending pods it could name).
type unknownPodError struct{ msg string }

func (e unknownPodError) Error() string { return e.msg }
