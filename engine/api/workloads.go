package api

// Deployment strategy types.
const (
	RollingUpdateDeploymentStrategyType = "RollingUpdate"
	RecreateDeploymentStrategyType      = "Recreate"
)

// Deployment is apps/v1 Deployment.
type Deployment struct {
	ObjectMeta
	Spec DeploymentSpec
}

// DeploymentSpec is apps/v1 DeploymentSpec.
type DeploymentSpec struct {
	Replicas                *int32
	Selector                *LabelSelector
	Template                PodTemplateSpec
	Strategy                DeploymentStrategy
	MinReadySeconds         int32
	RevisionHistoryLimit    *int32
	Paused                  bool
	ProgressDeadlineSeconds *int32
}

// DeploymentStrategy is apps/v1 DeploymentStrategy.
type DeploymentStrategy struct {
	Type          string
	RollingUpdate *RollingUpdateDeployment
}

// RollingUpdateDeployment is apps/v1 RollingUpdateDeployment.
type RollingUpdateDeployment struct {
	MaxUnavailable *IntOrString
	MaxSurge       *IntOrString
}

// ReplicaSet is apps/v1 ReplicaSet.
type ReplicaSet struct {
	ObjectMeta
	Spec ReplicaSetSpec
}

// ReplicaSetSpec is apps/v1 ReplicaSetSpec.
type ReplicaSetSpec struct {
	Replicas        *int32
	Selector        *LabelSelector
	Template        PodTemplateSpec
	MinReadySeconds int32
}

// StatefulSet pod management policies and update strategies.
const (
	OrderedReadyPodManagement = "OrderedReady"
	ParallelPodManagement     = "Parallel"
	OnDeleteStrategyType      = "OnDelete"
)

// StatefulSet is apps/v1 StatefulSet.
type StatefulSet struct {
	ObjectMeta
	Spec StatefulSetSpec
}

// StatefulSetSpec is apps/v1 StatefulSetSpec.
type StatefulSetSpec struct {
	Replicas             *int32
	Selector             *LabelSelector
	Template             PodTemplateSpec
	ServiceName          string
	PodManagementPolicy  string
	UpdateStrategy       StatefulSetUpdateStrategy
	MinReadySeconds      int32
	RevisionHistoryLimit *int32
	// OrdinalsStart is spec.ordinals.start.
	OrdinalsStart int32
}

// StatefulSetUpdateStrategy is apps/v1 StatefulSetUpdateStrategy.
type StatefulSetUpdateStrategy struct {
	Type          string
	RollingUpdate *RollingUpdateStatefulSetStrategy
}

// RollingUpdateStatefulSetStrategy is apps/v1 RollingUpdateStatefulSetStrategy.
type RollingUpdateStatefulSetStrategy struct {
	Partition      *int32
	MaxUnavailable *IntOrString
}

// DaemonSet is apps/v1 DaemonSet.
type DaemonSet struct {
	ObjectMeta
	Spec DaemonSetSpec
}

// DaemonSetSpec is apps/v1 DaemonSetSpec.
type DaemonSetSpec struct {
	Selector        *LabelSelector
	Template        PodTemplateSpec
	UpdateStrategy  DaemonSetUpdateStrategy
	MinReadySeconds int32
}

// DaemonSetUpdateStrategy is apps/v1 DaemonSetUpdateStrategy.
type DaemonSetUpdateStrategy struct {
	Type          string
	RollingUpdate *RollingUpdateDaemonSet
}

// RollingUpdateDaemonSet is apps/v1 RollingUpdateDaemonSet.
type RollingUpdateDaemonSet struct {
	MaxUnavailable *IntOrString
	MaxSurge       *IntOrString
}

// Job is batch/v1 Job.
type Job struct {
	ObjectMeta
	Spec JobSpec
}

// JobSpec is batch/v1 JobSpec.
type JobSpec struct {
	Parallelism             *int32
	Completions             *int32
	BackoffLimit            *int32
	ActiveDeadlineSeconds   *int64
	TTLSecondsAfterFinished *int32
	CompletionMode          string
	Suspend                 bool
	Selector                *LabelSelector
	ManualSelector          bool
	Template                PodTemplateSpec
}

// CronJob is batch/v1 CronJob.
type CronJob struct {
	ObjectMeta
	Spec CronJobSpec
}

// CronJobSpec is batch/v1 CronJobSpec.
type CronJobSpec struct {
	Schedule                   string
	TimeZone                   *string
	StartingDeadlineSeconds    *int64
	ConcurrencyPolicy          string
	Suspend                    bool
	JobTemplate                JobTemplateSpec
	SuccessfulJobsHistoryLimit *int32
	FailedJobsHistoryLimit     *int32
}

// JobTemplateSpec is batch/v1 JobTemplateSpec.
type JobTemplateSpec struct {
	ObjectMeta
	Spec JobSpec
}

// ReplicationController is v1.ReplicationController, the ReplicaSet's
// predecessor: its selector is a plain label map (equality only) and its
// template a pointer. The lab's controllers run it as a ReplicaSet, as
// upstream's replication controller does (pkg/controller/replication
// wraps the ReplicaSet controller through conversion.go).
type ReplicationController struct {
	ObjectMeta
	Spec ReplicationControllerSpec
}

// ReplicationControllerSpec is v1.ReplicationControllerSpec.
type ReplicationControllerSpec struct {
	Replicas        *int32
	Selector        map[string]string
	Template        *PodTemplateSpec
	MinReadySeconds int32
}

// DefaultReplicationController is SetDefaults_ReplicationController
// (pkg/apis/core/v1/defaults.go): an empty selector and empty labels are
// taken from the template's labels; replicas defaults to 1.
func DefaultReplicationController(rc *ReplicationController) {
	if t := rc.Spec.Template; t != nil {
		if len(rc.Spec.Selector) == 0 && len(t.Labels) > 0 {
			rc.Spec.Selector = make(map[string]string, len(t.Labels))
			for k, v := range t.Labels {
				rc.Spec.Selector[k] = v
			}
		}
		if len(rc.Labels) == 0 && len(t.Labels) > 0 {
			rc.Labels = make(map[string]string, len(t.Labels))
			for k, v := range t.Labels {
				rc.Labels[k] = v
			}
		}
	}
	if rc.Spec.Replicas == nil {
		one := int32(1)
		rc.Spec.Replicas = &one
	}
}
