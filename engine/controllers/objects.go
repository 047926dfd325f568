package controllers

import (
	"time"

	"podlab.dev/podlab/engine/api"
)

// Kinds of the workloads the controllers manage (ownerReferences' kind).
const (
	KindDeployment  = "Deployment"
	KindReplicaSet  = "ReplicaSet"
	KindStatefulSet = "StatefulSet"
	KindDaemonSet   = "DaemonSet"
	KindJob         = "Job"
	KindCronJob     = "CronJob"
)

// Condition is a workload condition (apps/v1 DeploymentCondition and the
// batch/v1 JobCondition share this shape).
type Condition struct {
	Type               string
	Status             string
	Reason             string
	Message            string
	LastUpdateTime     api.Time
	LastTransitionTime api.Time
}

// ReplicaSet is a ReplicaSet with its status.
type ReplicaSet struct {
	api.ReplicaSet
	Status   ReplicaSetStatus
	selector api.Selector
	// kind is "" for a ReplicaSet, KindReplicationController for an RC.
	kind string
	// memo is the last sync that changed nothing (sync_memo.go); in the
	// work-queue mode queuedKey is what it read (the memo's key is nil).
	// memoSpace holds that memo (no allocation per sync).
	memo      *syncMemo
	queuedKey queuedRSKey
	memoSpace syncMemo
	// queue is the ReplicaSet's place in the work queue (queue.go).
	queue queueState
	// tmplMatch caches templatesEqual with its Deployment's template.
	tmplMatch templateMatch
	// factsCache keeps what syncs read from each pod (replicaset_facts.go).
	factsCache podFactsCache
}

// ReplicaSetStatus is apps/v1 ReplicaSetStatus.
type ReplicaSetStatus struct {
	Replicas             int32
	FullyLabeledReplicas int32
	ReadyReplicas        int32
	AvailableReplicas    int32
	TerminatingReplicas  int32
	ObservedGeneration   int64
}

// Deployment is a Deployment with its status.
type Deployment struct {
	api.Deployment
	Status   DeploymentStatus
	selector api.Selector
	// memo is the last sync that changed nothing (deployment_queue.go)
	// and queuedKey what it read (the memo's key is nil).
	// memoSpace holds that memo (no allocation per sync).
	memo      *syncMemo
	queuedKey deploymentQueueKey
	memoSpace syncMemo
	// queue is the Deployment's place in the work queue (queue.go).
	queue queueState
}

// DeploymentStatus is apps/v1 DeploymentStatus.
type DeploymentStatus struct {
	ObservedGeneration  int64
	Replicas            int32
	UpdatedReplicas     int32
	ReadyReplicas       int32
	AvailableReplicas   int32
	UnavailableReplicas int32
	TerminatingReplicas int32
	Conditions          []Condition
	CollisionCount      *int32
}

// StatefulSet is a StatefulSet with its status.
type StatefulSet struct {
	api.StatefulSet
	Status   StatefulSetStatus
	selector api.Selector
	// revisions stands for the set's ControllerRevisions, oldest first.
	revisions []ControllerRevision
	// memo and queue: the work queue (queue.go).
	memo  *syncMemo
	queue queueState
}

// ControllerRevision is a StatefulSet template revision
// (apps/v1 ControllerRevision: name "<set>-<hash>", a revision number).
type ControllerRevision struct {
	Name     string
	Revision int64
	Template api.PodTemplateSpec
}

// StatefulSetStatus is apps/v1 StatefulSetStatus.
type StatefulSetStatus struct {
	ObservedGeneration int64
	Replicas           int32
	ReadyReplicas      int32
	CurrentReplicas    int32
	UpdatedReplicas    int32
	AvailableReplicas  int32
	CurrentRevision    string
	UpdateRevision     string
}

// DaemonSet is a DaemonSet with its status.
type DaemonSet struct {
	api.DaemonSet
	Status   DaemonSetStatus
	selector api.Selector
	// failedBackoff is the controller's failedPodsBackoff per node.
	failedBackoff map[string]*backoffEntry
	// memo and queue: the work queue (queue.go).
	memo  *syncMemo
	queue queueState
}

// backoffEntry is a flowcontrol.Backoff item (no jitter).
type backoffEntry struct {
	delay      time.Duration
	lastUpdate api.Time
}

// DaemonSetStatus is apps/v1 DaemonSetStatus.
type DaemonSetStatus struct {
	CurrentNumberScheduled int32
	NumberMisscheduled     int32
	DesiredNumberScheduled int32
	NumberReady            int32
	UpdatedNumberScheduled int32
	NumberAvailable        int32
	NumberUnavailable      int32
	ObservedGeneration     int64
}

// Job is a Job with its status.
type Job struct {
	api.Job
	Status   JobStatus
	selector api.Selector
	// counted holds the UIDs of finished pods already in Succeeded/Failed
	// (upstream tracks them with finalizers and uncountedTerminatedPods).
	counted map[string]bool
	// completedIndexes of an Indexed Job.
	completedIndexes map[int]bool
	// failuresAfterLastSuccess and lastFailure drive the pod backoff.
	failuresAfterLastSuccess int32
	lastFailure              api.Time
	// runningSince records when the controller first saw a pod running
	// without a startTime (the run-for model's fallback).
	runningSince map[string]api.Time
	// memo and queue: the work queue (queue.go).
	memo  *syncMemo
	queue queueState
}

// JobStatus is batch/v1 JobStatus.
type JobStatus struct {
	Conditions     []Condition
	StartTime      *api.Time
	CompletionTime *api.Time
	Active         int32
	Succeeded      int32
	Failed         int32
	Terminating    int32
	Ready          int32
}

// CronJob is a CronJob with its status.
type CronJob struct {
	api.CronJob
	Status CronJobStatus
	// skipped is the schedule time last reported as missed or forbidden:
	// the lab's controllers run on every cluster change, so each skip is
	// reported once (upstream syncs on its own requeue times).
	skipped *api.Time
	// memo and queue: the work queue (queue.go).
	memo  *syncMemo
	queue queueState
}

// CronJobStatus is batch/v1 CronJobStatus.
type CronJobStatus struct {
	Active             []string // names of running Jobs
	LastScheduleTime   *api.Time
	LastSuccessfulTime *api.Time
}

// controllerRef is metav1.NewControllerRef for one of our workloads.
func controllerRef(kind string, m *api.ObjectMeta) api.OwnerReference {
	apiVersion := "apps/v1"
	if kind == KindJob || kind == KindCronJob {
		apiVersion = "batch/v1"
	}
	return api.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: m.Name, UID: m.UID, Controller: true, BlockOwnerDeletion: true}
}

// isControlledBy is metav1.IsControlledBy.
func isControlledBy(m *api.ObjectMeta, uid string) bool {
	ref := m.ControllerRef()
	return ref != nil && ref.UID == uid
}
