package lab

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/lab/textsafe"
)

// ScheduleOptions are the flags of `podlab schedule`.
type ScheduleOptions struct {
	Output    string // "json" or "text"
	Seed      int64
	TieBreak  string // "random" or "name"
	NoPreempt bool
}

// ScheduleLine is one pod's outcome, one JSON object per line.
type ScheduleLine struct {
	Pod           string         `json:"pod"`
	Node          string         `json:"node"`
	Reasons       map[string]int `json:"reasons,omitempty"`
	Message       string         `json:"message,omitempty"`
	NominatedNode string         `json:"nominatedNode,omitempty"`
	Victims       []string       `json:"victims,omitempty"`
}

// Schedule places every pending pod of a scenario in queue order
// (priority, then file order), each seeing the placements before it. It is
// the timeless, one-pass view: a preemptor's victims are removed at once
// and the preemptor is retried right after (as ../shared/oracle does); a pod
// that fits nowhere is not retried later.
func Schedule(w io.Writer, f *File, opts ScheduleOptions) error {
	lines, err := ScheduleLines(f, opts)
	if err != nil {
		return err
	}
	switch opts.Output {
	case "json":
		enc := json.NewEncoder(textsafe.NewJSONWriter(w))
		for _, l := range lines {
			if err := enc.Encode(l); err != nil {
				return err
			}
		}
		return nil
	case "", "text":
		w = textsafe.NewWriter(w)
		for _, l := range lines {
			switch {
			case l.Node != "" && l.NominatedNode != "":
				fmt.Fprintf(w, "%-30s → %s (preempted %v)\n", l.Pod, l.Node, l.Victims)
			case l.Node != "":
				fmt.Fprintf(w, "%-30s → %s\n", l.Pod, l.Node)
			case l.NominatedNode != "":
				fmt.Fprintf(w, "%-30s pending, nominated %s after preempting %v: %s\n", l.Pod, l.NominatedNode, l.Victims, l.Message)
			default:
				fmt.Fprintf(w, "%-30s pending: %s\n", l.Pod, l.Message)
			}
		}
		return nil
	}
	return fmt.Errorf("-o must be json or text, not %q", opts.Output)
}

// ScheduleLines computes what Schedule prints.
func ScheduleLines(f *File, opts ScheduleOptions) ([]ScheduleLine, error) {
	c, err := newStaticCluster(f)
	if err != nil {
		return nil, err
	}
	cfg, err := c.schedulerConfig(opts.Seed, opts.TieBreak)
	if err != nil {
		return nil, err
	}
	bound := append([]*api.Pod(nil), c.bound...)
	cfg.PDBs = func() []*api.PodDisruptionBudget { return c.pdbStatuses(bound) }
	cfg.DisablePreemption = opts.NoPreempt
	snap := c.snapshot()
	s := scheduler.New(cfg, snap)
	bind := func(p *api.Pod, node string) {
		p.Spec.NodeName = node
		p.Status.NominatedNodeName = ""
		markRunning(p)
		snap.AddPod(framework.NewPodInfo(p))
		bound = append(bound, p)
	}
	var lines []ScheduleLine
	for _, p := range queueOrder(c.pending) {
		pi := framework.NewPodInfo(p)
		if st := s.PreEnqueue(p); st != nil {
			// gated: never attempted (see engine.RemoveSchedulingGates)
			lines = append(lines, ScheduleLine{Pod: p.Key(), Message: st.Message()})
			continue
		}
		res := s.ScheduleOne(pi)
		if err := engine.BindingRefused(p); res.Node != "" && err != nil {
			// SchedulingGates disabled: the API server refuses the binding
			res = scheduler.Result{Message: err.Error()}
		}
		line := ScheduleLine{Pod: p.Key(), Node: res.Node}
		if res.Node != "" {
			bind(p, res.Node)
			lines = append(lines, line)
			continue
		}
		line.Reasons, line.Message = res.Reasons, res.Message
		if res.NominatedNode != "" {
			line.NominatedNode = res.NominatedNode
			gone := map[string]bool{}
			for _, v := range res.Victims {
				key := v.Pod.Key()
				line.Victims = append(line.Victims, key)
				gone[key] = true
				snap.RemovePod(key)
			}
			sort.Strings(line.Victims)
			kept := bound[:0]
			for _, b := range bound {
				if !gone[b.Key()] {
					kept = append(kept, b)
				}
			}
			bound = kept
			p.Status.NominatedNodeName = res.NominatedNode
			retry := s.ScheduleOne(pi)
			if retry.Node != "" {
				bind(p, retry.Node)
				line.Node = retry.Node
			}
		}
		lines = append(lines, line)
	}
	return lines, nil
}

// ScheduleNothingNote is what `podlab schedule -f ARG` says when the file
// has no bare pending pod (so it printed no line): "" otherwise. A
// workload's pods exist only once controllers run, which the timeless pass
// does not. Ask before Schedule: it binds the file's pending pods.
func ScheduleNothingNote(f *File, arg string) string {
	c, err := newStaticCluster(f)
	if err != nil || len(c.pending) > 0 {
		return ""
	}
	return fmt.Sprintf("%s has no bare pending pods (pods without spec.nodeName); workloads create their pods when the lab runs: see `podlab run -f %s` or `podlab explain -f %s`",
		safe(f.Name), safe(arg), safe(arg))
}
