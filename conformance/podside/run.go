package podside

import (
	"sort"
	"time"

	"podlab.dev/podlab/conformance/result"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// Options tune the runner.
type Options struct {
	DisablePreemption bool
	Parallelism       int
	// SpreadSelectors is passed to scheduler.Config (default topology
	// spread constraints); nil ⇒ none apply.
	SpreadSelectors func(pod *api.Pod) api.Selector
	// Profiles are the scenario's KubeSchedulerConfiguration profiles
	// (lab.SchedulerProfiles); nil ⇒ the default profile.
	Profiles []scheduler.ProfileConfig
}

// Runner is podlab's scheduler over one scenario's cluster.
type Runner struct {
	sched *scheduler.Scheduler
	snap  *framework.Snapshot
	pdbs  []*api.PodDisruptionBudget
	bound map[string]*api.Pod
	seq   int
}

// New builds the snapshot (nodes, namespaces, bound pods) and a scheduler
// with the default profile and name tie-break.
func New(s *Scenario, opts Options) *Runner {
	r := &Runner{snap: framework.NewSnapshot(), pdbs: s.PDBs, bound: map[string]*api.Pod{}}
	for _, ns := range s.Namespaces {
		r.snap.SetNamespace(ns.Name, ns.Labels)
	}
	for _, n := range s.Nodes {
		r.snap.AddNode(n)
	}
	for _, p := range s.Bound {
		r.add(p)
	}
	r.sched = scheduler.New(scheduler.Config{
		TieBreak:          scheduler.TieBreakByName,
		PDBs:              r.currentPDBs,
		DisablePreemption: opts.DisablePreemption,
		Parallelism:       opts.Parallelism,
		SpreadSelectors:   opts.SpreadSelectors,
		Profiles:          opts.Profiles,
	}, r.snap)
	return r
}

// Scheduler returns the underlying scheduler.
func (r *Runner) Scheduler() *scheduler.Scheduler { return r.sched }

func (r *Runner) add(p *api.Pod) {
	r.snap.AddPod(framework.NewPodInfo(p))
	r.bound[p.Key()] = p
}

func (r *Runner) currentPDBs() []*api.PodDisruptionBudget {
	keys := make([]string, 0, len(r.bound))
	for k := range r.bound {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	bound := make([]*api.Pod, len(keys))
	for i, k := range keys {
		bound[i] = r.bound[k]
	}
	out := make([]*api.PodDisruptionBudget, 0, len(r.pdbs))
	for _, p := range r.pdbs {
		c := *p
		if !p.Status.StatusGiven {
			c.Status = pdbStatus(p, bound)
		}
		out = append(out, &c)
	}
	return out
}

// Explain runs one cycle for the pod against the bound pods.
func (r *Runner) Explain(pod *api.Pod) *result.Explain {
	ex := r.sched.Explain(framework.NewPodInfo(pod))
	out := &result.Explain{Pod: pod.Key(), Weights: ex.Weights}
	for _, nv := range ex.Nodes {
		v := result.NodeVerdict{Node: nv.Node, Feasible: nv.Feasible, Total: nv.Total}
		if nv.Feasible {
			out.Scored = true
			v.Scores = map[string]int64{}
			for name := range ex.Weights {
				v.Scores[name] = nv.Scores[name]
			}
		} else {
			v.Reasons = sortedUnique(nv.Reasons)
		}
		out.Nodes = append(out.Nodes, v)
	}
	sort.Slice(out.Nodes, func(i, j int) bool { return out.Nodes[i].Node < out.Nodes[j].Node })
	return out
}

// Schedule schedules the pending pods in queue order (priority desc, then
// file order) exactly as real.Runner.Schedule: bind each placed pod;
// on preemption remove the victims, nominate, retry once at once.
func (r *Runner) Schedule(pending []*api.Pod) *result.Schedule {
	out := &result.Schedule{}
	for _, p := range queueOrder(pending) {
		pod := *p
		pl := result.Placement{Pod: pod.Key()}
		res := r.sched.ScheduleOne(framework.NewPodInfo(&pod))
		if res.Node == "" && res.NominatedNode != "" {
			pl.NominatedNode = res.NominatedNode
			for _, v := range res.Victims {
				key := v.Pod.Key()
				pl.Victims = append(pl.Victims, key)
				r.snap.RemovePod(key)
				delete(r.bound, key)
			}
			sort.Strings(pl.Victims)
			pod.Status.NominatedNodeName = res.NominatedNode
			res = r.sched.ScheduleOne(framework.NewPodInfo(&pod))
		}
		pl.Node = res.Node
		if res.Node == "" {
			pl.Message = res.Message
		} else {
			r.bind(&pod, res.Node)
		}
		out.Placements = append(out.Placements, pl)
	}
	return out
}

func (r *Runner) bind(pod *api.Pod, node string) {
	r.seq++
	b := *pod
	b.Spec.NodeName = node
	b.Status.NominatedNodeName = ""
	t := api.Time(BindEpoch.Sub(Epoch) + time.Duration(r.seq)*time.Second)
	b.Status.StartTime = &t
	r.add(&b)
}

func queueOrder(pending []*api.Pod) []*api.Pod {
	out := append([]*api.Pod(nil), pending...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].PriorityValue() > out[j].PriorityValue() })
	return out
}

func sortedUnique(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}
