package real

import (
	"fmt"
	"math"
	"sort"

	v1 "k8s.io/api/core/v1"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
	"k8s.io/kubernetes/pkg/scheduler/util"
)

type preemptionOutcome struct {
	message string
	node    string
	victims []*v1.Pod
}

// preemptFor runs DefaultPreemption's logic (Evaluator.Preempt in
// pkg/scheduler/framework/preemption/preemption.go) through the real
// plugin: PodEligibleToPreemptOthers, candidates = nodes whose status is
// Unschedulable, DryRunPreemption (SelectVictimsOnNode with the PDBs) on
// all of them (offset 0 instead of a random window), then the candidate
// choice with name tie-break. The API calls (actuatePodPreemption) are not
// made; the caller removes the victims.
func (r *Runner) preemptFor(c *cycle, pod *v1.Pod) (preemptionOutcome, error) {
	pl := r.preempt
	if ok, msg := pl.PodEligibleToPreemptOthers(r.ctx, pod, c.statuses.Get(pod.Status.NominatedNodeName)); !ok {
		return preemptionOutcome{message: "preemption: " + msg}, nil
	}
	potential, err := c.statuses.NodesForStatusCode(r.snap.NodeInfos(), fwk.Unschedulable)
	if err != nil {
		return preemptionOutcome{}, fmt.Errorf("preemption candidates: %w", err)
	}
	statuses := framework.NewDefaultNodeToStatus()
	var cands []preemption.Candidate
	if len(potential) > 0 {
		cands, statuses, err = pl.Evaluator.DryRunPreemption(r.ctx, c.state, pod, potential, r.currentPDBs(), 0, int32(len(potential)))
		if err != nil && len(cands) == 0 {
			return preemptionOutcome{}, fmt.Errorf("preemption dry run: %w", err)
		}
	}
	if len(cands) == 0 {
		fe := &framework.FitError{Pod: pod, NumAllNodes: len(c.all), Diagnosis: framework.Diagnosis{NodeToStatus: statuses}}
		fe.Diagnosis.NodeToStatus.SetAbsentNodesStatus(fwk.NewStatus(fwk.UnschedulableAndUnresolvable, "Preemption is not helpful for scheduling"))
		return preemptionOutcome{message: "preemption: " + fe.Error()}, nil
	}
	best, err := r.pickCandidate(cands)
	if err != nil {
		return preemptionOutcome{}, err
	}
	return preemptionOutcome{node: best.Name(), victims: best.Victims().Pods}, nil
}

// candidateKey holds pickOneNodeForPreemption's criteria, each "larger is
// better" like its score functions.
type candidateKey [5]int64

func keyOf(c preemption.Candidate) candidateKey {
	v := c.Victims()
	var sum int64
	for _, p := range v.Pods {
		sum += int64(corev1helpers.PodPriority(p)) + int64(math.MaxInt32+1)
	}
	latest := int64(math.MinInt64)
	if t := util.GetEarliestPodStartTime(v); t != nil {
		latest = t.UnixNano()
	}
	return candidateKey{
		-v.NumPDBViolations,
		-int64(corev1helpers.PodPriority(v.Pods[0])),
		-sum,
		-int64(len(v.Pods)),
		latest,
	}
}

func better(a, b candidateKey) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return false
}

// pickCandidate applies pickOneNodeForPreemption's criteria in order
// (fewest PDB violations, lowest highest victim priority, smallest priority
// sum, fewest victims, latest start of the highest-priority victims) and
// breaks the remaining tie by smallest node name (upstream: map order). It
// cross-checks the real Evaluator.SelectCandidate: its choice must be one
// of the tied best candidates.
func (r *Runner) pickCandidate(cands []preemption.Candidate) (preemption.Candidate, error) {
	sorted := append([]preemption.Candidate(nil), cands...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name() < sorted[j].Name() })
	best := sorted[0]
	bk := keyOf(best)
	for _, c := range sorted[1:] {
		if k := keyOf(c); better(k, bk) {
			best, bk = c, k
		}
	}
	up := r.preempt.Evaluator.SelectCandidate(r.ctx, cands)
	if up == nil {
		return nil, fmt.Errorf("preemption: SelectCandidate chose nothing among %d candidates", len(cands))
	}
	if up.Name() != best.Name() && keyOf(up) != bk {
		return nil, fmt.Errorf("preemption: SelectCandidate chose %s, the harness's criteria %s", up.Name(), best.Name())
	}
	return best, nil
}
