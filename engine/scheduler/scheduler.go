package scheduler

import (
	"math/rand/v2"
	"sort"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/preemption"
)

// TieBreak chooses among feasible nodes with the same highest total score.
type TieBreak int

const (
	// TieBreakRandom picks uniformly among the best nodes by reservoir
	// sampling in node-name order, as selectHost did upstream, with a
	// generator seeded from Config.Seed (reproducible runs).
	TieBreakRandom TieBreak = iota
	// TieBreakByName picks the smallest node name (what the oracle does).
	TieBreakByName
)

// Config configures a Scheduler.
type Config struct {
	// Seed seeds the tie-break generator (TieBreakRandom).
	Seed     int64
	TieBreak TieBreak
	// DefaultConstraints / DefaultingType are PodTopologySpread's args
	// (DefaultingType "System", the default, or "List").
	DefaultConstraints []api.TopologySpreadConstraint
	DefaultingType     string
	// SpreadSelectors is PodTopologySpread's Selectors hook: the selector
	// of the workload that owns a pod, for default constraints (nil: no
	// default constraints apply).
	SpreadSelectors func(pod *api.Pod) api.Selector
	// PDBs returns the disruption budgets in force, for preemption; nil ⇒ none.
	PDBs func() []*api.PodDisruptionBudget
	// DisablePreemption turns DefaultPreemption (the PostFilter) off.
	DisablePreemption bool
	// PreemptionWindow is preemption.AllCandidates (the zero value: every
	// candidate node is dry-run, as the oracle and `podlab schedule` do) or
	// preemption.UpstreamWindow (a running kube-scheduler's window of
	// max(100, 10 %) candidates from a seeded offset; identical up to 100
	// potential nodes).
	PreemptionWindow preemption.Window
	// Parallelism is the number of goroutines Filter and Score use
	// (default 2). Results do not depend on it: every node's verdict and
	// score is computed independently and written to its own slot.
	Parallelism int
	// PercentageOfNodesToScore is KubeSchedulerConfiguration's
	// percentageOfNodesToScore. nil (the lab's default): every node is
	// filtered and scored, so a decision is the best over the whole
	// cluster and explanations are complete. 0: upstream's adaptive
	// default (50 − nodes/125 %, at least 5 %); 1..100: that percentage.
	// In both, at least 100 feasible nodes are looked for, from a start
	// index that rotates from cycle to cycle (see filterSome). Explain
	// always evaluates every node.
	PercentageOfNodesToScore *int32
	// Profiles are the KubeSchedulerConfiguration's profiles; empty ⇒ the
	// default profile (with DefaultConstraints / DefaultingType as
	// PodTopologySpread's args). A pod runs in the profile its
	// spec.schedulerName names; a pod naming none is not scheduled.
	Profiles []ProfileConfig
}

// Scheduler runs scheduling cycles for one profile against a Snapshot. It
// is not safe for concurrent use: the engine calls it from its single
// loop (it parallelises inside a cycle by itself).
type Scheduler struct {
	cfg  Config
	snap *framework.Snapshot
	prof *profile
	// profiles are the profiles by scheduler name; prof is the one of the
	// current cycle.
	profiles  map[string]*profile
	nominator *Nominator
	// pcg is the tie-break generator's state; Explain copies it so a
	// preview does not change what the next ScheduleOne picks.
	pcg *rand.PCG
	rng *rand.Rand
	buf cycleBuffers
	// nextStartNodeIndex is where the next cycle starts looking for
	// feasible nodes with a PercentageOfNodesToScore.
	nextStartNodeIndex int
	// referencePaths makes the cycle ignore the plugins' batch fast paths
	// and call the per-node Filter/Score (the reference); equivalence
	// tests compare the two.
	referencePaths bool
	// skipSets interns the sets of skipped plugins (skipsets.go).
	skipSets map[skipKey]map[string]bool
}

// postFilterFunc is the PostFilter extension point: it gets the per-node
// statuses of a failed cycle and returns the preemption outcome.
// rng is the tie-break generator of the cycle.
type postFilterFunc func(state *framework.CycleState, pi *framework.PodInfo, statuses framework.NodeToStatus, rng *rand.Rand) postFilterResult

type postFilterResult struct {
	nominatedNode string
	victims       []*framework.PodInfo
	message       string
	full          *preemption.Result
}

// newScheduler builds a scheduler around an explicit plugin list (New
// passes the default profile; tests pass fakes).
func newScheduler(cfg Config, snap *framework.Snapshot, plugins []framework.Plugin, weights map[string]int64, scoreOrder []string) *Scheduler {
	if cfg.Parallelism <= 0 {
		cfg.Parallelism = 2
	}
	seed := uint64(cfg.Seed)
	pcg := rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)
	s := &Scheduler{
		cfg:       cfg,
		snap:      snap,
		prof:      newProfile(plugins, weights, scoreOrder),
		nominator: NewNominator(),
		pcg:       pcg,
		rng:       rand.New(pcg),
	}
	s.prof.percentage = cfg.PercentageOfNodesToScore
	s.prof.name = api.DefaultSchedulerName
	s.profiles = map[string]*profile{s.prof.name: s.prof}
	return s
}

// use makes prof the profile of the cycle that follows.
func (s *Scheduler) use(prof *profile) { s.prof = prof }

// profileFor returns the profile the pod's spec.schedulerName selects
// ("" is default-scheduler), nil when no profile has that name.
func (s *Scheduler) profileFor(pod *api.Pod) *profile {
	name := pod.Spec.SchedulerName
	if name == "" {
		name = api.DefaultSchedulerName
	}
	return s.profiles[name]
}

// Handles reports whether a profile has the scheduler name ("" is
// default-scheduler), as profile.Map.HandlesSchedulerName: a pod naming
// another scheduler is left to it, so here it stays Pending unscheduled.
func (s *Scheduler) Handles(schedulerName string) bool {
	if schedulerName == "" {
		schedulerName = api.DefaultSchedulerName
	}
	_, ok := s.profiles[schedulerName]
	return ok
}

// ProfileNames lists the profiles' scheduler names, sorted.
func (s *Scheduler) ProfileNames() []string {
	out := make([]string, 0, len(s.profiles))
	for n := range s.profiles {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Snapshot returns the cluster state the scheduler reads.
func (s *Scheduler) Snapshot() *framework.Snapshot { return s.snap }

// Nominator returns the nominated-pods registry the cycle consults (the
// engine records preemptors' nominations here and deletes them when the
// pod is bound or deleted).
func (s *Scheduler) Nominator() *Nominator { return s.nominator }

// Weights returns every score plugin of the profile with its weight.
func (s *Scheduler) Weights() map[string]int64 {
	out := make(map[string]int64, len(s.prof.weights))
	for k, v := range s.prof.weights {
		out[k] = v
	}
	return out
}
