package lab

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
)

// DescribeOptions are the flags of `podlab describe`.
type DescribeOptions struct {
	Pod  string
	At   time.Duration // virtual time to run to before describing
	Seed *int64
	Do   []string
}

// Describe loads a scenario, applies the --do commands, runs to --at and
// prints `kubectl describe pod` for the pod.
func Describe(w io.Writer, f *File, opts DescribeOptions) error {
	if err := checkRunTime("--at", opts.At); err != nil {
		return err
	}
	s, err := NewSession(f, SessionOptions{Seed: opts.Seed})
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
	out, err := s.DescribePod(opts.Pod)
	if err != nil {
		return err
	}
	if _, err = io.WriteString(w, out); err != nil {
		return err
	}
	// as run: the state shown is not what the timeline meant
	return timelineFailureError(s.TimelineFailures())
}

// DescribePod is `kubectl describe pod NAME` at the current virtual time:
// status, init and regular containers (state, last state, ready, restart
// count, probes), conditions and the pod's events. Times are lab times;
// Age is how long ago. Text from the scenario is sanitised.
func (s *Session) DescribePod(name string) (string, error) {
	ns, n, err := s.resolve("pod", name)
	if err != nil {
		return "", err
	}
	p := s.eng.Pod(ns + "/" + n)
	if p == nil {
		return "", fmt.Errorf("pod %s/%s is gone", ns, n)
	}
	now := s.eng.Now()
	var b strings.Builder
	row := func(indent int, k, v string) {
		// at least two spaces after a long key, as kubectl's tabwriter
		pad := max(18-indent, len(k)+3)
		fmt.Fprintf(&b, "%s%-*s%s\n", strings.Repeat(" ", indent), pad, k+":", v)
	}
	row(0, "Name", safe(p.Name))
	row(0, "Namespace", safe(p.Namespace))
	row(0, "Priority", fmt.Sprint(p.PriorityValue()))
	if p.Spec.PriorityClassName != "" {
		row(0, "Priority Class Name", safe(p.Spec.PriorityClassName))
	}
	node := p.Spec.NodeName
	if node == "" {
		node = "<none>"
	}
	row(0, "Node", safe(node))
	if p.Status.StartTime != nil {
		row(0, "Start Time", p.Status.StartTime.String())
	}
	row(0, "Labels", labelList(p.Labels))
	status := p.Status.Phase
	if p.DeletionTimestamp != nil {
		status = "Terminating"
	}
	row(0, "Status", status)
	if p.Status.Reason != "" {
		row(0, "Reason", safe(p.Status.Reason))
	}
	if p.Status.Message != "" {
		row(0, "Message", safe(p.Status.Message))
	}
	if ref := p.ControllerRef(); ref != nil {
		row(0, "Controlled By", safe(ref.Kind+"/"+ref.Name))
	}
	if len(p.Spec.InitContainers) > 0 {
		b.WriteString("Init Containers:\n")
		describeContainers(&b, p.Spec.InitContainers, p.Status.InitContainerStatuses)
	}
	b.WriteString("Containers:\n")
	describeContainers(&b, p.Spec.Containers, p.Status.ContainerStatuses)
	b.WriteString("Conditions:\n")
	fmt.Fprintf(&b, "  %-28s %-7s %s\n", "Type", "Status", "Since")
	for _, t := range []string{api.PodReadyToStartContainers, api.PodInitialized, api.PodReady, api.ContainersReady, api.PodScheduled, api.DisruptionTarget} {
		if c := p.Condition(t); c != nil {
			fmt.Fprintf(&b, "  %-28s %-7s %s\n", c.Type, c.Status, c.LastTransitionTime)
		}
	}
	b.WriteString("Events:\n")
	evs := podEvents(s.eng.Events(), ns+"/"+n)
	if len(evs) == 0 {
		b.WriteString("  <none>\n")
		return b.String(), nil
	}
	fmt.Fprintf(&b, "  %-8s %-20s %-22s %-18s %s\n", "Type", "Reason", "Age", "From", "Message")
	fmt.Fprintf(&b, "  %-8s %-20s %-22s %-18s %s\n", "----", "------", "----", "----", "-------")
	for _, g := range aggregateEvents(evs) {
		a := age(now.Sub(g.last))
		if g.count > 1 {
			a = fmt.Sprintf("%s (x%d over %s)", a, g.count, age(now.Sub(g.first)))
		}
		fmt.Fprintf(&b, "  %-8s %-20s %-22s %-18s %s\n", g.ev.Type, g.ev.Reason, a, eventSource(g.ev.Reason), safe(g.ev.Message))
	}
	return b.String(), nil
}

// eventGroup is one line of kubectl describe's Events: the event
// recorder folds repeats of the same type, reason and message into one
// event with a count, first and last time.
type eventGroup struct {
	ev          engine.Event
	count       int
	first, last api.Time
}

// aggregateEvents folds repeated events and orders the groups by when
// they were last seen (kubectl describe sorts by lastTimestamp).
func aggregateEvents(evs []engine.Event) []eventGroup {
	var out []eventGroup
	at := map[string]int{}
	for _, ev := range evs {
		k := ev.Type + "\x00" + ev.Reason + "\x00" + ev.Message
		if i, ok := at[k]; ok {
			out[i].count++
			out[i].last = ev.Time
			continue
		}
		at[k] = len(out)
		out = append(out, eventGroup{ev: ev, count: 1, first: ev.Time, last: ev.Time})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].last < out[j].last })
	return out
}

// describeContainers writes the Containers / Init Containers section.
func describeContainers(b *strings.Builder, specs []api.Container, statuses []api.ContainerStatus) {
	byName := map[string]api.ContainerStatus{}
	for _, cs := range statuses {
		byName[cs.Name] = cs
	}
	for i := range specs {
		c := &specs[i]
		fmt.Fprintf(b, "  %s:\n", safe(c.Name))
		row := func(k, v string) { fmt.Fprintf(b, "    %-16s%s\n", k+":", v) }
		if c.Image != "" {
			row("Image", safe(c.Image))
		}
		cs, ok := byName[c.Name]
		if !ok {
			row("State", "Waiting")
			row("Ready", "False")
			row("Restart Count", "0")
		} else {
			describeState(b, "State", cs.State)
			if cs.LastState.Terminated != nil || cs.LastState.Waiting != nil || cs.LastState.Running != nil {
				describeState(b, "Last State", cs.LastState)
			}
			row("Ready", boolWord(cs.Ready))
			row("Restart Count", fmt.Sprint(cs.RestartCount))
		}
		for _, pr := range []struct {
			name  string
			probe *api.Probe
		}{{"Liveness", c.LivenessProbe}, {"Readiness", c.ReadinessProbe}, {"Startup", c.StartupProbe}} {
			if pr.probe != nil {
				row(pr.name, probeLine(pr.probe))
			}
		}
	}
}

func describeState(b *strings.Builder, label string, st api.ContainerState) {
	row := func(indent int, k, v string) {
		fmt.Fprintf(b, "%s%-*s%s\n", strings.Repeat(" ", indent), 20-indent, k+":", v)
	}
	switch {
	case st.Running != nil:
		row(4, label, "Running")
		row(6, "Started", st.Running.StartedAt.String())
	case st.Waiting != nil:
		row(4, label, "Waiting")
		if st.Waiting.Reason != "" {
			row(6, "Reason", safe(st.Waiting.Reason))
		}
	case st.Terminated != nil:
		t := st.Terminated
		row(4, label, "Terminated")
		if t.Reason != "" {
			row(6, "Reason", safe(t.Reason))
		}
		row(6, "Exit Code", fmt.Sprint(t.ExitCode))
		row(6, "Started", t.StartedAt.String())
		row(6, "Finished", t.FinishedAt.String())
	default:
		row(4, label, "Waiting")
	}
}

// probeLine is kubectl describe's probe summary.
func probeLine(pr *api.Probe) string {
	d := pr.WithDefaults()
	kind := map[string]string{"httpGet": "http-get", "tcpSocket": "tcp-socket", "grpc": "grpc", "exec": "exec"}[d.Handler]
	if kind == "" {
		kind = "unknown"
	}
	return fmt.Sprintf("%s delay=%ds timeout=%ds period=%ds #success=%d #failure=%d", kind,
		d.InitialDelaySeconds, d.TimeoutSeconds, d.PeriodSeconds, d.SuccessThreshold, d.FailureThreshold)
}

// podEvents are the events about one pod, oldest first.
func podEvents(all []engine.Event, key string) []engine.Event {
	var out []engine.Event
	for _, ev := range all {
		if ev.Object == "pod/"+key {
			out = append(out, ev)
		}
	}
	return out
}

// eventSource is the component that records an event reason (kubectl
// describe's From column).
func eventSource(reason string) string {
	switch reason {
	case engine.ReasonScheduled, engine.ReasonFailedScheduling, engine.ReasonPreempted:
		return "default-scheduler"
	case engine.ReasonTaintManagerEviction:
		return "taint-eviction-controller"
	case engine.ReasonDeleted:
		return "podlab"
	case "SuccessfulCreate", "SuccessfulDelete":
		return "replicaset-controller"
	}
	return "kubelet"
}

// age prints a duration like kubectl's ages: 45s, 3m12s, 2h5m.
func age(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int64(d / time.Second)
	switch {
	case s < 120:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		if s%60 == 0 {
			return fmt.Sprintf("%dm", s/60)
		}
		return fmt.Sprintf("%dm%ds", s/60, s%60)
	}
	if (s/60)%60 == 0 {
		return fmt.Sprintf("%dh", s/3600)
	}
	return fmt.Sprintf("%dh%dm", s/3600, (s/60)%60)
}

func labelList(m map[string]string) string {
	if len(m) == 0 {
		return "<none>"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = safe(k + "=" + m[k])
	}
	return strings.Join(parts, "\n                  ")
}

func boolWord(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// safe strips control characters from scenario-derived text before it is
// printed (a manifest must not drive the terminal).
func safe(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return '?'
		}
		return r
	}, s)
}

// PodHealth is what the cluster view marks on a running pod: "" when it
// is ready, "not-ready", or "crash-loop" when a container waits in
// CrashLoopBackOff (regular or init).
func PodHealth(p *api.Pod) string {
	for _, list := range [][]api.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
		for _, cs := range list {
			if cs.State.Waiting != nil && cs.State.Waiting.Reason == "CrashLoopBackOff" {
				return "crash-loop"
			}
		}
	}
	if c := p.Condition(api.PodReady); c != nil && c.Status != api.ConditionTrue {
		return "not-ready"
	}
	return ""
}
