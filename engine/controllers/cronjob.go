package controllers

import (
	"fmt"
	"time"
	_ "time/tzdata" // spec.timeZone must resolve the same on every machine

	"podlab.dev/podlab/engine/api"
)

const cronJobSource = "cronjob-controller"

// AnnotationCronJobScheduledTimestamp is set on Jobs a CronJob creates.
const AnnotationCronJobScheduledTimestamp = "batch.kubernetes.io/cronjob-scheduled-timestamp"

// CronJob concurrency policies.
const (
	ConcurrencyAllow   = "Allow"
	ConcurrencyForbid  = "Forbid"
	ConcurrencyReplace = "Replace"
)

// AddCronJob adds a CronJob with batch/v1 defaulting (concurrencyPolicy
// Allow, successfulJobsHistoryLimit 3, failedJobsHistoryLimit 1); the
// schedule must parse. Schedules run on the virtual clock mapped to wall
// time by Epoch.
func (m *Manager) AddCronJob(obj *api.CronJob) (*CronJob, error) {
	if _, ok := m.cronJobs[key(obj.Namespace, obj.Name)]; ok {
		return nil, fmt.Errorf("cronjob %s already exists", obj.Key())
	}
	cj := &CronJob{CronJob: *obj}
	m.initMeta(&cj.ObjectMeta)
	if cj.Spec.ConcurrencyPolicy == "" {
		cj.Spec.ConcurrencyPolicy = ConcurrencyAllow
	}
	if cj.Spec.SuccessfulJobsHistoryLimit == nil {
		cj.Spec.SuccessfulJobsHistoryLimit = ptr(int32(3))
	}
	if cj.Spec.FailedJobsHistoryLimit == nil {
		cj.Spec.FailedJobsHistoryLimit = ptr(int32(1))
	}
	if _, err := ParseCron(cj.Spec.Schedule); err != nil {
		return nil, fmt.Errorf("cronjob %s: spec.schedule: Invalid value: %q: %w", cj.Key(), cj.Spec.Schedule, err)
	}
	if _, err := cronLocation(cj); err != nil {
		return nil, fmt.Errorf("cronjob %s: spec.timeZone: %w", cj.Key(), err)
	}
	if m.started {
		cj.CreationTimestamp = m.now
	}
	m.cronJobs[cj.Key()] = cj
	m.known[cj.UID] = true
	m.workloadsChanged()
	return cj, nil
}

// CronJob returns the CronJob namespace/name, or nil.
func (m *Manager) CronJob(namespace, name string) *CronJob { return m.cronJobs[key(namespace, name)] }

// CronJobs returns every CronJob sorted by namespace/name.
func (m *Manager) CronJobs() []*CronJob {
	out := make([]*CronJob, 0, len(m.cronJobs))
	for _, k := range sortedKeys(m.cronJobs) {
		out = append(out, m.cronJobs[k])
	}
	return out
}

func cronLocation(cj *CronJob) (*time.Location, error) {
	if cj.Spec.TimeZone == nil {
		return time.UTC, nil // the lab's controller-manager runs in UTC
	}
	return time.LoadLocation(*cj.Spec.TimeZone)
}

func (m *Manager) cronEvent(cj *CronJob, typ, reason, format string, args ...any) {
	m.record(KindCronJob, &cj.ObjectMeta, cronJobSource, typ, reason, format, args...)
}

// virtual converts a wall-clock time back to the virtual clock.
func virtual(t time.Time) api.Time { return api.Time(t.Sub(Epoch)) }

// syncCronJob is cronjob_controllerv2.go syncCronJob: track its Jobs,
// start the most recent missed run (within startingDeadlineSeconds),
// honour concurrencyPolicy, trim history, and wake at the next run.
func (m *Manager) syncCronJob(cj *CronJob) {
	sched, err := ParseCron(cj.Spec.Schedule)
	loc, lerr := cronLocation(cj)
	if err != nil || lerr != nil {
		return
	}
	// Active and finished Jobs it owns.
	var active []string
	var finished []*Job
	for _, j := range m.Jobs() {
		if j.Namespace != cj.Namespace || !isControlledBy(&j.ObjectMeta, cj.UID) {
			continue
		}
		if kind, done := j.finished(); done {
			finished = append(finished, j)
			if containsString(cj.Status.Active, j.Name) {
				m.cronEvent(cj, EventNormal, "SawCompletedJob", "Saw completed job: %s, condition: %s", j.Name, kind)
				if kind == JobComplete && j.Status.CompletionTime != nil &&
					(cj.Status.LastSuccessfulTime == nil || *cj.Status.LastSuccessfulTime < *j.Status.CompletionTime) {
					t := *j.Status.CompletionTime
					cj.Status.LastSuccessfulTime = &t
				}
			}
		} else if j.DeletionTimestamp == nil {
			active = append(active, j.Name)
		}
	}
	if !equalStringSlices(active, cj.Status.Active) {
		cj.Status.Active = active
		m.changed = true
	}
	m.cleanupFinishedJobs(cj, finished)
	if cj.DeletionTimestamp != nil || cj.Spec.Suspend {
		return
	}
	now := WallClock(m.now).In(loc)
	earliest := WallClock(cj.CreationTimestamp).In(loc)
	if cj.Status.LastScheduleTime != nil {
		earliest = WallClock(*cj.Status.LastScheduleTime).In(loc)
	}
	if d := cj.Spec.StartingDeadlineSeconds; d != nil {
		if dl := now.Add(-api.SecondsDuration(*d)); dl.After(earliest) {
			earliest = dl
		}
	}
	var scheduled time.Time
	missed := 0
	for t := sched.Next(earliest); !t.IsZero() && !t.After(now) && missed < 1_000_000; t = sched.Next(t) {
		// mostRecentScheduleTime jumps ahead arithmetically; walking
		// forward gives the same most recent time and count.
		scheduled = t
		missed++
	}
	next := sched.Next(now)
	if !next.IsZero() {
		m.requeueAt(virtual(next))
	}
	if scheduled.IsZero() {
		return
	}
	vt := virtual(scheduled)
	if cj.skipped != nil && *cj.skipped == vt {
		return
	}
	if missed > 100 {
		m.cronEvent(cj, EventWarning, "TooManyMissedTimes", "too many missed start times: %d. Set or decrease .spec.startingDeadlineSeconds or check clock skew", missed)
	}
	if d := cj.Spec.StartingDeadlineSeconds; d != nil && scheduled.Add(time.Duration(*d)*time.Second).Before(now) {
		m.cronEvent(cj, EventWarning, "MissSchedule", "Missed scheduled time to start a job: %s", scheduled.UTC().Format(time.RFC1123Z))
		cj.skipped = &vt
		return
	}
	name := fmt.Sprintf("%s-%d", cj.Name, scheduled.Unix()/60)
	if m.Job(cj.Namespace, name) != nil {
		return // already started for this schedule time
	}
	if cj.Spec.ConcurrencyPolicy == ConcurrencyForbid && len(active) > 0 {
		m.cronEvent(cj, EventNormal, "JobAlreadyActive", "Not starting job because prior execution is running and concurrency policy is Forbid")
		cj.skipped = &vt
		return
	}
	if cj.Spec.ConcurrencyPolicy == ConcurrencyReplace {
		for _, n := range active {
			if err := m.Delete(KindJob, cj.Namespace, n, PropagationBackground); err == nil {
				m.cronEvent(cj, EventNormal, "SuccessfulDelete", "Deleted job %s", n)
			}
		}
	}
	jt := cj.Spec.JobTemplate
	job := &api.Job{ObjectMeta: api.ObjectMeta{Name: name, Namespace: cj.Namespace, Labels: cloneMap(jt.Labels),
		Annotations:     cloneMap(jt.Annotations),
		OwnerReferences: []api.OwnerReference{controllerRef(KindCronJob, &cj.ObjectMeta)}}, Spec: jt.Spec}
	job.Spec.Template = copyTemplate(&jt.Spec.Template)
	job.Annotations[AnnotationCronJobScheduledTimestamp] = scheduled.Format(time.RFC3339)
	if _, err := m.AddJob(job); err != nil {
		m.cronEvent(cj, EventWarning, "FailedCreate", "Error creating job: %v", err)
		return
	}
	m.cronEvent(cj, EventNormal, "SuccessfulCreate", "Created job %s", name)
	cj.Status.LastScheduleTime = &vt
	cj.Status.Active = append(cj.Status.Active, name)
	m.changed = true
}

// cleanupFinishedJobs keeps successfulJobsHistoryLimit complete and
// failedJobsHistoryLimit failed Jobs, deleting the oldest first.
func (m *Manager) cleanupFinishedJobs(cj *CronJob, finished []*Job) {
	var ok, failed []*Job
	for _, j := range finished {
		if kind, _ := j.finished(); kind == JobComplete {
			ok = append(ok, j)
		} else {
			failed = append(failed, j)
		}
	}
	for _, set := range []struct {
		jobs  []*Job
		limit int32
	}{{ok, *cj.Spec.SuccessfulJobsHistoryLimit}, {failed, *cj.Spec.FailedJobsHistoryLimit}} {
		jobs := set.jobs
		// oldest first: by start time, then name (byJobStartTime)
		sortJobsByStart(jobs)
		for i := 0; i < len(jobs)-int(set.limit); i++ {
			if err := m.Delete(KindJob, jobs[i].Namespace, jobs[i].Name, PropagationBackground); err == nil {
				m.cronEvent(cj, EventNormal, "SuccessfulDelete", "Deleted job %s", jobs[i].Name)
			}
		}
	}
}

func sortJobsByStart(jobs []*Job) {
	less := func(a, b *Job) bool {
		if a.Status.StartTime == nil || b.Status.StartTime == nil || *a.Status.StartTime == *b.Status.StartTime {
			return a.Name < b.Name
		}
		return *a.Status.StartTime < *b.Status.StartTime
	}
	for i := 1; i < len(jobs); i++ {
		for k := i; k > 0 && less(jobs[k], jobs[k-1]); k-- {
			jobs[k], jobs[k-1] = jobs[k-1], jobs[k]
		}
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func equalStringSlices(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
