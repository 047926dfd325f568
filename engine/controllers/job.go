package controllers

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"podlab.dev/podlab/engine/api"
)

const jobSource = "job-controller"

// Job pod labels and annotations (k8s.io/api/batch/v1).
const (
	LabelJobControllerUID       = "batch.kubernetes.io/controller-uid"
	LabelJobName                = "batch.kubernetes.io/job-name"
	legacyLabelControllerUID    = "controller-uid"
	legacyLabelJobName          = "job-name"
	AnnotationJobCompletionIdx  = "batch.kubernetes.io/job-completion-index"
	indexedCompletion           = "Indexed"
	defaultJobPodFailureBackOff = 10 * time.Second
	maxJobPodFailureBackOff     = 10 * time.Minute
	maxPodCreateDeletePerSync   = 500
)

// The lab's model of what a Job pod's containers do (they run no code):
// a pod runs for lab.podlab.dev/run-for (a Go duration, default
// DefaultRunFor) after its containers started (its Ready transition), then
// exits: Succeeded, or Failed when
// lab.podlab.dev/fail is "true" (every attempt fails) or a count N (the
// Job's first N finished pods fail). restartPolicy OnFailure is modelled
// like Never: a failure ends the pod and counts towards backoffLimit.
const (
	AnnotationRunFor = "lab.podlab.dev/run-for"
	AnnotationFail   = "lab.podlab.dev/fail"
	DefaultRunFor    = 10 * time.Second
)

// Job condition types and reasons (batch/v1).
const (
	JobComplete           = "Complete"
	JobFailed             = "Failed"
	JobSuccessCriteriaMet = "SuccessCriteriaMet"
	JobFailureTarget      = "FailureTarget"
	JobSuspended          = "Suspended"
)

// AddJob adds a Job with batch/v1 defaulting: parallelism 1, completions 1
// when neither is set, backoffLimit 6, NonIndexed; unless manualSelector,
// the selector is batch.kubernetes.io/controller-uid=<uid> and the template
// gets the controller-uid and job-name labels.
func (m *Manager) AddJob(obj *api.Job) (*Job, error) {
	if _, ok := m.jobs[key(obj.Namespace, obj.Name)]; ok {
		return nil, fmt.Errorf("job %s already exists", obj.Key())
	}
	j := &Job{Job: *obj, counted: map[string]bool{}, completedIndexes: map[int]bool{}, runningSince: map[string]api.Time{}}
	m.initMeta(&j.ObjectMeta)
	sp := &j.Spec
	if sp.Completions == nil && sp.Parallelism == nil {
		sp.Completions = ptr(int32(1))
	}
	if sp.Parallelism == nil {
		sp.Parallelism = ptr(int32(1))
	}
	if sp.BackoffLimit == nil {
		sp.BackoffLimit = ptr(int32(6))
	}
	if sp.CompletionMode == "" {
		sp.CompletionMode = "NonIndexed"
	}
	// a list, not a map: with several bad fields the same one is reported
	for _, f := range []struct {
		field string
		v     *int32
	}{{"spec.parallelism", sp.Parallelism}, {"spec.completions", sp.Completions}, {"spec.backoffLimit", sp.BackoffLimit}} {
		if f.v != nil && *f.v < 0 {
			return nil, fmt.Errorf("job %s: %s: Invalid value: %d: must be greater than or equal to 0", j.Key(), f.field, *f.v)
		}
	}
	if sp.CompletionMode != indexedCompletion && sp.CompletionMode != "NonIndexed" {
		return nil, fmt.Errorf("job %s: spec.completionMode: Unsupported value: %q: supported values: \"NonIndexed\", \"Indexed\"", j.Key(), sp.CompletionMode)
	}
	if sp.CompletionMode == indexedCompletion && sp.Completions == nil {
		return nil, fmt.Errorf("job %s: spec.completions: Required value: when completion mode is Indexed", j.Key())
	}
	if rp := sp.Template.Spec.RestartPolicy; rp != "Never" && rp != "OnFailure" {
		return nil, fmt.Errorf("job %s: spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\"", j.Key())
	}
	sp.Template = copyTemplate(&sp.Template)
	if !sp.ManualSelector {
		sp.Template.Labels = cloneMap(sp.Template.Labels)
		for k, v := range map[string]string{LabelJobControllerUID: j.UID, legacyLabelControllerUID: j.UID, LabelJobName: j.Name, legacyLabelJobName: j.Name} {
			sp.Template.Labels[k] = v
		}
		sp.Selector = &api.LabelSelector{MatchLabels: map[string]string{LabelJobControllerUID: j.UID}}
	}
	sel, err := compileWorkloadSelector(sp.Selector, sp.Template.Labels)
	if err != nil {
		return nil, fmt.Errorf("job %s: %w", j.Key(), err)
	}
	j.selector = sel
	if m.started {
		j.CreationTimestamp = m.now
	}
	m.jobs[j.Key()] = j
	m.known[j.UID] = true
	m.workloadsChanged()
	return j, nil
}

// Job returns the Job namespace/name, or nil.
func (m *Manager) Job(namespace, name string) *Job { return m.jobs[key(namespace, name)] }

// Jobs returns every Job sorted by namespace/name.
func (m *Manager) Jobs() []*Job {
	out := make([]*Job, 0, len(m.jobs))
	for _, k := range sortedKeys(m.jobs) {
		out = append(out, m.jobs[k])
	}
	return out
}

func (j *Job) finished() (string, bool) {
	for _, c := range j.Status.Conditions {
		if (c.Type == JobComplete || c.Type == JobFailed) && c.Status == api.ConditionTrue {
			return c.Type, true
		}
	}
	return "", false
}

func (m *Manager) jobEvent(j *Job, typ, reason, format string, args ...any) {
	m.record(KindJob, &j.ObjectMeta, jobSource, typ, reason, format, args...)
}

func (m *Manager) setJobCondition(j *Job, typ, reason, msg string) {
	j.Status.Conditions = setConditionIn(j.Status.Conditions, Condition{Type: typ, Status: api.ConditionTrue, Reason: reason, Message: msg, LastUpdateTime: m.now, LastTransitionTime: m.now})
	m.changed = true
}

// syncJob is job_controller.go syncJob + manageJob for the lab's Jobs
// (no pod failure policy, no backoffLimitPerIndex, podReplacementPolicy
// TerminatingOrFailed), plus the run-for model and the TTL-after-finished
// controller.
func (m *Manager) syncJob(j *Job) {
	pods := m.claimPods(KindJob, &j.ObjectMeta, j.selector, m.claimCandidates(j.Namespace, j.UID), nil)
	sort.Slice(pods, func(a, b int) bool { return pods[a].Name < pods[b].Name })
	if kind, done := j.finished(); done {
		m.jobTTL(j, kind)
		return
	}
	if j.Status.StartTime == nil && !j.Spec.Suspend {
		t := m.now
		j.Status.StartTime = &t
		m.changed = true
	}
	m.runJobPods(j, pods)
	var active, terminating []*api.Pod
	for _, p := range pods {
		switch {
		case p.IsTerminal():
			if j.counted[p.UID] {
				continue
			}
			j.counted[p.UID] = true
			m.changed = true
			if p.Status.Phase == api.PodSucceeded {
				j.Status.Succeeded++
				j.failuresAfterLastSuccess = 0
				if idx, err := strconv.Atoi(p.Annotations[AnnotationJobCompletionIdx]); err == nil {
					j.completedIndexes[idx] = true
				}
			} else {
				j.Status.Failed++
				j.failuresAfterLastSuccess++
				j.lastFailure = m.now
			}
		case p.DeletionTimestamp != nil:
			terminating = append(terminating, p)
		default:
			active = append(active, p)
		}
	}
	// A FailureTarget/SuccessCriteriaMet job waits for its pods to stop.
	if c := findCondition(j.Status.Conditions, JobFailureTarget); c != nil {
		m.deleteJobPods(j, active)
		if len(active) == 0 && len(terminating) == 0 {
			m.setJobCondition(j, JobFailed, c.Reason, c.Message)
			m.jobEvent(j, EventWarning, c.Reason, "%s", c.Message)
			m.finishJob(j)
		}
		m.jobStatusCounts(j, active, terminating)
		return
	}
	var reason, msg string
	switch {
	case j.Status.Failed > *j.Spec.BackoffLimit:
		reason, msg = "BackoffLimitExceeded", "Job has reached the specified backoff limit"
	case j.Spec.ActiveDeadlineSeconds != nil && j.Status.StartTime != nil && !j.Spec.Suspend &&
		m.now.Sub(*j.Status.StartTime) >= seconds(*j.Spec.ActiveDeadlineSeconds):
		reason, msg = "DeadlineExceeded", "Job was active longer than specified deadline"
	}
	if reason != "" {
		m.setJobCondition(j, JobFailureTarget, reason, msg)
		m.deleteJobPods(j, active)
		m.jobStatusCounts(j, nil, append(terminating, active...))
		return
	}
	if j.Spec.ActiveDeadlineSeconds != nil && j.Status.StartTime != nil {
		m.requeueAt(j.Status.StartTime.Add(seconds(*j.Spec.ActiveDeadlineSeconds)))
	}
	complete := false
	if j.Spec.Completions == nil {
		complete = j.Status.Succeeded > 0 && len(active) == 0
	} else {
		complete = j.Status.Succeeded >= *j.Spec.Completions
		if j.Spec.CompletionMode == indexedCompletion {
			complete = int32(len(j.completedIndexes)) >= *j.Spec.Completions
		}
	}
	if complete {
		m.deleteJobPods(j, active)
		m.setJobCondition(j, JobSuccessCriteriaMet, "CompletionsReached", "Reached expected number of succeeded pods")
		m.setJobCondition(j, JobComplete, "CompletionsReached", "Reached expected number of succeeded pods")
		m.jobEvent(j, EventNormal, "Completed", "Job completed")
		m.finishJob(j)
		m.jobStatusCounts(j, nil, terminating)
		return
	}
	active = m.manageJob(j, active)
	m.jobStatusCounts(j, active, terminating)
}

func (m *Manager) finishJob(j *Job) {
	t := m.now
	if _, ok := j.finished(); ok && j.Status.CompletionTime == nil && findCondition(j.Status.Conditions, JobComplete) != nil {
		j.Status.CompletionTime = &t
	}
	m.changed = true
}

func (m *Manager) jobStatusCounts(j *Job, active, terminating []*api.Pod) {
	var ready int32
	for _, p := range active {
		if isPodReady(p) {
			ready++
		}
	}
	if j.Status.Active != int32(len(active)) || j.Status.Terminating != int32(len(terminating)) || j.Status.Ready != ready {
		j.Status.Active, j.Status.Terminating, j.Status.Ready = int32(len(active)), int32(len(terminating)), ready
		m.changed = true
	}
}

func (m *Manager) deleteJobPods(j *Job, pods []*api.Pod) {
	for _, p := range pods {
		if p.DeletionTimestamp == nil {
			m.deletePod(p, KindJob, &j.ObjectMeta, jobSource)
		}
	}
}

// manageJob is Controller.manageJob: delete surplus active pods (newest
// first, as activePodsForRemoval), or create missing ones after the
// failure backoff (10s doubling per consecutive failure, at most 10m).
func (m *Manager) manageJob(j *Job, active []*api.Pod) []*api.Pod {
	if j.Spec.Suspend {
		m.deleteJobPods(j, active)
		return nil
	}
	parallelism := *j.Spec.Parallelism
	var want int32
	if j.Spec.Completions == nil {
		want = parallelism
		if j.Status.Succeeded > 0 {
			want = int32(len(active))
		}
	} else {
		done := j.Status.Succeeded
		if j.Spec.CompletionMode == indexedCompletion {
			done = int32(len(j.completedIndexes))
		}
		want = max(min(*j.Spec.Completions-done, parallelism), 0)
	}
	if surplus := int32(len(active)) - want; surplus > 0 {
		ranked := RankForScaleDown(active, active, m.now)
		for i := int32(0); i < surplus && i < maxPodCreateDeletePerSync; i++ {
			m.deletePod(ranked[i].Pod, KindJob, &j.ObjectMeta, jobSource)
		}
		return active[:want]
	}
	diff := want - int32(len(active))
	if diff <= 0 {
		return active
	}
	if remaining := j.backoffRemaining(m.now); remaining > 0 {
		m.requeueAt(m.now.Add(remaining))
		return active
	}
	// at most the pods this sync may create: a Job of 1e9 completions
	// must not list 1e9 indexes
	indexes := m.pendingIndexes(j, active, int(min(diff, maxPodCreateDeletePerSync)))
	for i := int32(0); i < diff && i < maxPodCreateDeletePerSync; i++ {
		idx := -1
		if j.Spec.CompletionMode == indexedCompletion {
			if int(i) >= len(indexes) {
				break
			}
			idx = indexes[i]
		}
		p, err := m.createPodFromTemplate(&j.Spec.Template, KindJob, &j.ObjectMeta, jobSource, "", func(p *api.Pod) {
			if idx >= 0 {
				if p.Annotations == nil {
					p.Annotations = map[string]string{}
				}
				p.Annotations[AnnotationJobCompletionIdx] = strconv.Itoa(idx)
				p.Labels[AnnotationJobCompletionIdx] = strconv.Itoa(idx)
			}
		})
		if err != nil {
			break
		}
		active = append(active, p)
	}
	return active
}

// backoffRemaining is getRemainingTimeForFailuresCount.
func (j *Job) backoffRemaining(now api.Time) time.Duration {
	if j.failuresAfterLastSuccess == 0 {
		return 0
	}
	d := defaultJobPodFailureBackOff
	for i := 1; i < int(j.failuresAfterLastSuccess); i++ {
		d *= 2
		if d >= maxJobPodFailureBackOff {
			d = maxJobPodFailureBackOff
			break
		}
	}
	elapsed := now.Sub(j.lastFailure)
	if d < elapsed {
		return 0
	}
	return d - elapsed
}

// pendingIndexes is firstPendingIndexes: the lowest indexes neither
// completed nor held by an active pod.
func (m *Manager) pendingIndexes(j *Job, active []*api.Pod, n int) []int {
	if j.Spec.CompletionMode != indexedCompletion {
		return nil
	}
	held := map[int]bool{}
	for _, p := range active {
		if idx, err := strconv.Atoi(p.Annotations[AnnotationJobCompletionIdx]); err == nil {
			held[idx] = true
		}
	}
	var out []int
	for i := 0; i < int(*j.Spec.Completions) && len(out) < n; i++ {
		if !held[i] && !j.completedIndexes[i] {
			out = append(out, i)
		}
	}
	return out
}

// runJobPods applies the run-for model: a running pod whose run time is
// over exits (see AnnotationRunFor); otherwise the controller asks to be
// woken when it will be.
func (m *Manager) runJobPods(j *Job, pods []*api.Pod) {
	for _, p := range pods {
		if p.Status.Phase != api.PodRunning || p.DeletionTimestamp != nil || kubeletRunsExit(p) {
			continue
		}
		runFor := DefaultRunFor
		if s, ok := p.Annotations[AnnotationRunFor]; ok {
			if d, err := time.ParseDuration(s); err == nil && d >= 0 {
				runFor = d
			}
		}
		// The run starts when the containers do: the pod's Ready transition
		// (no readiness probes in the lab), else when first seen running.
		started, ok := podReadyTime(p)
		if !ok {
			if t, seen := j.runningSince[p.UID]; seen {
				started = t
			} else {
				j.runningSince[p.UID] = m.now
				started = m.now
			}
		}
		end := started.Add(runFor)
		if m.now < end {
			m.requeueAt(end)
			continue
		}
		phase, reason := api.PodSucceeded, "Completed"
		if failsNow(j, p) {
			phase, reason = api.PodFailed, "Error"
		}
		if m.cluster.FinishPod(p.Namespace, p.Name, phase, reason) == nil {
			m.acted()
		}
	}
}

// failsNow applies lab.podlab.dev/fail.
func failsNow(j *Job, p *api.Pod) bool {
	s, ok := p.Annotations[AnnotationFail]
	if !ok {
		return false
	}
	if s == "true" {
		return true
	}
	n, err := strconv.Atoi(s)
	return err == nil && j.Status.Failed < int32(n)
}

// jobTTL is the TTL-after-finished controller: a finished Job with
// ttlSecondsAfterFinished is deleted (foreground propagation, as upstream)
// that long after it finished.
func (m *Manager) jobTTL(j *Job, kind string) {
	if j.Spec.TTLSecondsAfterFinished == nil || j.DeletionTimestamp != nil {
		return
	}
	c := findCondition(j.Status.Conditions, kind)
	expire := c.LastTransitionTime.Add(seconds(*j.Spec.TTLSecondsAfterFinished))
	if m.now < expire {
		m.requeueAt(expire)
		return
	}
	_ = m.Delete(KindJob, j.Namespace, j.Name, PropagationForeground)
}

// kubeletRunsExit reports a pod whose exits the kubelet model runs
// (engine/kubelet AnnotationExit, "lab.podlab.dev/exit[.NAME]": containers
// exit with a code, restart per restartPolicy, the pod ends Succeeded or
// Failed); the run-for model then stays out of its way.
func kubeletRunsExit(p *api.Pod) bool {
	for k := range p.Annotations {
		if k == "lab.podlab.dev/exit" || strings.HasPrefix(k, "lab.podlab.dev/exit.") {
			return true
		}
	}
	return false
}
