package api

// ObjectMeta is the part of metav1.ObjectMeta the lab uses.
type ObjectMeta struct {
	Name              string
	Namespace         string
	UID               string
	Labels            map[string]string
	Annotations       map[string]string
	OwnerReferences   []OwnerReference
	CreationTimestamp Time
	// DeletionTimestamp is set when graceful deletion started.
	DeletionTimestamp          *Time
	DeletionGracePeriodSeconds *int64
	Generation                 int64
}

// OwnerReference is metav1.OwnerReference.
type OwnerReference struct {
	APIVersion         string
	Kind               string
	Name               string
	UID                string
	Controller         bool
	BlockOwnerDeletion bool
}

// ControllerRef returns the owner reference with controller=true, or nil.
func (m *ObjectMeta) ControllerRef() *OwnerReference {
	for i := range m.OwnerReferences {
		if m.OwnerReferences[i].Controller {
			return &m.OwnerReferences[i]
		}
	}
	return nil
}

// Key returns "namespace/name" (just "name" for cluster-scoped objects).
func (m *ObjectMeta) Key() string {
	if m.Namespace == "" {
		return m.Name
	}
	return m.Namespace + "/" + m.Name
}

// HasKey reports whether Key() == key without building the key: hot loops
// (a snapshot finding a pod on its node) compare keys per pod.
func (m *ObjectMeta) HasKey(key string) bool {
	if m.Namespace == "" {
		return key == m.Name
	}
	ns := len(m.Namespace)
	return len(key) == ns+1+len(m.Name) && key[ns+1:] == m.Name && key[ns] == '/' && key[:ns] == m.Namespace
}

// Taint effects.
const (
	TaintEffectNoSchedule       = "NoSchedule"
	TaintEffectPreferNoSchedule = "PreferNoSchedule"
	TaintEffectNoExecute        = "NoExecute"
)

// Toleration operators.
const (
	TolerationOpExists = "Exists"
	TolerationOpEqual  = "Equal"
)

// Well-known taint keys (k8s.io/api/core/v1 well_known_taints.go).
const (
	TaintNodeNotReady           = "node.kubernetes.io/not-ready"
	TaintNodeUnreachable        = "node.kubernetes.io/unreachable"
	TaintNodeUnschedulable      = "node.kubernetes.io/unschedulable"
	TaintNodeMemoryPressure     = "node.kubernetes.io/memory-pressure"
	TaintNodeDiskPressure       = "node.kubernetes.io/disk-pressure"
	TaintNodePIDPressure        = "node.kubernetes.io/pid-pressure"
	TaintNodeNetworkUnavailable = "node.kubernetes.io/network-unavailable"
)

// Well-known labels.
const (
	LabelHostname             = "kubernetes.io/hostname"
	LabelTopologyZone         = "topology.kubernetes.io/zone"
	LabelTopologyRegion       = "topology.kubernetes.io/region"
	LabelPodTemplateHash      = "pod-template-hash"
	LabelMetadataName         = "kubernetes.io/metadata.name"
	AnnotationPodDeletionCost = "controller.kubernetes.io/pod-deletion-cost"
)

// Taint is v1.Taint. TimeAdded is set for NoExecute taints.
type Taint struct {
	Key       string
	Value     string
	Effect    string
	TimeAdded *Time
}

// Toleration is v1.Toleration.
type Toleration struct {
	Key               string
	Operator          string
	Value             string
	Effect            string
	TolerationSeconds *int64
}

// Node condition types and statuses.
const (
	NodeReady              = "Ready"
	NodeMemoryPressure     = "MemoryPressure"
	NodeDiskPressure       = "DiskPressure"
	NodePIDPressure        = "PIDPressure"
	NodeNetworkUnavailable = "NetworkUnavailable"

	ConditionTrue    = "True"
	ConditionFalse   = "False"
	ConditionUnknown = "Unknown"
)

// Condition is a node or pod condition.
type Condition struct {
	Type               string
	Status             string
	Reason             string
	Message            string
	LastTransitionTime Time
}

// ContainerImage is an entry of node.status.images (for ImageLocality).
type ContainerImage struct {
	Names     []string
	SizeBytes int64
}

// Node is v1.Node.
type Node struct {
	ObjectMeta
	Spec   NodeSpec
	Status NodeStatus
}

// NodeSpec is v1.NodeSpec.
type NodeSpec struct {
	Taints        []Taint
	Unschedulable bool
}

// NodeStatus is v1.NodeStatus.
type NodeStatus struct {
	Capacity    ResourceList
	Allocatable ResourceList
	Conditions  []Condition
	Images      []ContainerImage
}

// Condition returns the node condition of the given type, or nil.
func (n *Node) Condition(t string) *Condition {
	for i := range n.Status.Conditions {
		if n.Status.Conditions[i].Type == t {
			return &n.Status.Conditions[i]
		}
	}
	return nil
}

// Namespace is v1.Namespace (its labels feed namespaceSelector).
type Namespace struct {
	ObjectMeta
}

// Pod phases.
const (
	PodPending   = "Pending"
	PodRunning   = "Running"
	PodSucceeded = "Succeeded"
	PodFailed    = "Failed"
	PodUnknown   = "Unknown"
)

// Pod condition types.
const (
	PodScheduled   = "PodScheduled"
	PodReady       = "Ready"
	PodInitialized = "Initialized"
	// PodReadyToStartContainers: the sandbox is up (kubelet, GA since 1.29).
	PodReadyToStartContainers = "PodReadyToStartContainers"
	ContainersReady           = "ContainersReady"
	DisruptionTarget          = "DisruptionTarget"
)

// PodScheduled=False reasons the scheduler sets (k8s.io/api/core/v1
// PodReasonUnschedulable, PodReasonSchedulerError).
const (
	PodReasonUnschedulable  = "Unschedulable"
	PodReasonSchedulerError = "SchedulerError"
)

// Preemption policies.
const (
	PreemptLowerPriority = "PreemptLowerPriority"
	PreemptNever         = "Never"
)

// QoS classes.
const (
	QOSGuaranteed = "Guaranteed"
	QOSBurstable  = "Burstable"
	QOSBestEffort = "BestEffort"
)

// Pod is v1.Pod.
type Pod struct {
	ObjectMeta
	Spec   PodSpec
	Status PodStatus
}

// PodSpec is v1.PodSpec (the scheduling- and lifecycle-relevant fields).
type PodSpec struct {
	NodeName                      string
	NodeSelector                  map[string]string
	Affinity                      *Affinity
	Tolerations                   []Toleration
	TopologySpreadConstraints     []TopologySpreadConstraint
	PriorityClassName             string
	Priority                      *int32
	PreemptionPolicy              *string
	TerminationGracePeriodSeconds *int64
	ActiveDeadlineSeconds         *int64
	Containers                    []Container
	InitContainers                []Container
	Overhead                      ResourceList
	// Resources is pod-level spec.resources (PodLevelResources, on by default since 1.34).
	Resources       *ResourceRequirements
	SchedulerName   string
	HostNetwork     bool
	SchedulingGates []string
	RestartPolicy   string
	ServiceAccount  string
}

// ResourceRequirements is v1.ResourceRequirements.
type ResourceRequirements struct {
	Requests ResourceList
	Limits   ResourceList
}

// ContainerPort is v1.ContainerPort (hostPort matters to NodePorts).
type ContainerPort struct {
	Name          string
	ContainerPort int32
	HostPort      int32
	HostIP        string
	Protocol      string
}

// Container is v1.Container.
type Container struct {
	Name      string
	Image     string
	Command   []string
	Args      []string
	Ports     []ContainerPort
	Resources ResourceRequirements
	// RestartPolicy "Always" on an init container makes it a sidecar.
	RestartPolicy string
	Lifecycle     *Lifecycle
	// ProbeTerminationGracePeriodSeconds is the liveness probe's
	// terminationGracePeriodSeconds, used when a probe kills the container.
	ProbeTerminationGracePeriodSeconds *int64
	// StartupProbe, ReadinessProbe and LivenessProbe are v1.Probe (nil:
	// none). omitempty keeps the template hash (pod-template-hash) of
	// probe-less templates what it was before probes were modelled.
	StartupProbe   *Probe `json:",omitempty"`
	ReadinessProbe *Probe `json:",omitempty"`
	LivenessProbe  *Probe `json:",omitempty"`
}

// Probe is v1.Probe: its handler kind and timing. Zero timing fields are
// unset; ProbeDefaults gives v1's defaults.
type Probe struct {
	// Handler is "exec", "httpGet", "tcpSocket" or "grpc".
	Handler                       string
	InitialDelaySeconds           int32
	TimeoutSeconds                int32
	PeriodSeconds                 int32
	SuccessThreshold              int32
	FailureThreshold              int32
	TerminationGracePeriodSeconds *int64
}

// WithDefaults returns the probe with SetDefaults_Probe applied
// (pkg/apis/core/v1/defaults.go): timeoutSeconds 1, periodSeconds 10,
// successThreshold 1, failureThreshold 3.
func (p Probe) WithDefaults() Probe {
	if p.TimeoutSeconds == 0 {
		p.TimeoutSeconds = 1
	}
	if p.PeriodSeconds == 0 {
		p.PeriodSeconds = 10
	}
	if p.SuccessThreshold == 0 {
		p.SuccessThreshold = 1
	}
	if p.FailureThreshold == 0 {
		p.FailureThreshold = 3
	}
	return p
}

// IsSidecar reports whether an init container is a restartable (sidecar) one.
func (c *Container) IsSidecar() bool { return c.RestartPolicy == "Always" }

// Lifecycle is v1.Lifecycle; only preStop matters to termination.
type Lifecycle struct {
	PreStop *LifecycleHandler
}

// LifecycleHandler is v1.LifecycleHandler.
type LifecycleHandler struct {
	// SleepSeconds is preStop.sleep.seconds.
	SleepSeconds *int64
	// ExecCommand is preStop.exec.command.
	ExecCommand []string
	// HTTPGet is set when the hook is an httpGet (path only; the lab
	// models it as instantaneous unless an annotation says otherwise).
	HTTPGetPath string
}

// PodStatus is v1.PodStatus.
type PodStatus struct {
	Phase             string
	Conditions        []Condition
	Reason            string
	Message           string
	NominatedNodeName string
	StartTime         *Time
	QOSClass          string
	ContainerStatuses []ContainerStatus
	// InitContainerStatuses are the init containers' (sidecars included).
	InitContainerStatuses []ContainerStatus
}

// ContainerStatus is the part of v1.ContainerStatus the lab uses.
type ContainerStatus struct {
	Name         string
	Ready        bool
	RestartCount int32
	// Started is the startup probe's verdict (nil when not reported).
	Started   *bool
	State     ContainerState
	LastState ContainerState
}

// ContainerState is v1.ContainerState: at most one member is set.
type ContainerState struct {
	Waiting    *ContainerStateWaiting
	Running    *ContainerStateRunning
	Terminated *ContainerStateTerminated
}

// ContainerStateWaiting is v1.ContainerStateWaiting (e.g. reason
// CrashLoopBackOff, ContainerCreating, PodInitializing).
type ContainerStateWaiting struct {
	Reason  string
	Message string
}

// ContainerStateRunning is v1.ContainerStateRunning.
type ContainerStateRunning struct {
	StartedAt Time
}

// ContainerStateTerminated is v1.ContainerStateTerminated.
type ContainerStateTerminated struct {
	ExitCode   int32
	Signal     int32
	Reason     string
	Message    string
	StartedAt  Time
	FinishedAt Time
}

// Condition returns the pod condition of the given type, or nil.
func (p *Pod) Condition(t string) *Condition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == t {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// IsTerminal reports a pod in phase Succeeded or Failed.
func (p *Pod) IsTerminal() bool {
	return p.Status.Phase == PodSucceeded || p.Status.Phase == PodFailed
}

// IsTerminating reports a pod with a deletion timestamp.
func (p *Pod) IsTerminating() bool { return p.DeletionTimestamp != nil }

// PriorityValue returns spec.priority, 0 when unset.
func (p *Pod) PriorityValue() int32 {
	if p.Spec.Priority == nil {
		return 0
	}
	return *p.Spec.Priority
}

// Affinity is v1.Affinity.
type Affinity struct {
	NodeAffinity    *NodeAffinity
	PodAffinity     *PodAffinity
	PodAntiAffinity *PodAntiAffinity
}

// NodeAffinity is v1.NodeAffinity.
type NodeAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  *NodeSelector
	PreferredDuringSchedulingIgnoredDuringExecution []PreferredSchedulingTerm
}

// NodeSelector is v1.NodeSelector: terms are ORed.
type NodeSelector struct {
	NodeSelectorTerms []NodeSelectorTerm
}

// NodeSelectorTerm is v1.NodeSelectorTerm: requirements are ANDed.
type NodeSelectorTerm struct {
	MatchExpressions []NodeSelectorRequirement
	MatchFields      []NodeSelectorRequirement
}

// Node selector operators.
const (
	NodeSelectorOpIn           = "In"
	NodeSelectorOpNotIn        = "NotIn"
	NodeSelectorOpExists       = "Exists"
	NodeSelectorOpDoesNotExist = "DoesNotExist"
	NodeSelectorOpGt           = "Gt"
	NodeSelectorOpLt           = "Lt"
)

// NodeSelectorRequirement is v1.NodeSelectorRequirement.
type NodeSelectorRequirement struct {
	Key      string
	Operator string
	Values   []string
}

// PreferredSchedulingTerm is v1.PreferredSchedulingTerm.
type PreferredSchedulingTerm struct {
	Weight     int32
	Preference NodeSelectorTerm
}

// PodAffinity is v1.PodAffinity.
type PodAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  []PodAffinityTerm
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm
}

// PodAntiAffinity is v1.PodAntiAffinity.
type PodAntiAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  []PodAffinityTerm
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm
}

// PodAffinityTerm is v1.PodAffinityTerm.
type PodAffinityTerm struct {
	LabelSelector     *LabelSelector
	Namespaces        []string
	TopologyKey       string
	NamespaceSelector *LabelSelector
	MatchLabelKeys    []string
	MismatchLabelKeys []string
}

// WeightedPodAffinityTerm is v1.WeightedPodAffinityTerm.
type WeightedPodAffinityTerm struct {
	Weight          int32
	PodAffinityTerm PodAffinityTerm
}

// whenUnsatisfiable values and policies of topology spread constraints.
const (
	DoNotSchedule  = "DoNotSchedule"
	ScheduleAnyway = "ScheduleAnyway"
	PolicyHonor    = "Honor"
	PolicyIgnore   = "Ignore"
)

// TopologySpreadConstraint is v1.TopologySpreadConstraint.
type TopologySpreadConstraint struct {
	MaxSkew            int32
	TopologyKey        string
	WhenUnsatisfiable  string
	LabelSelector      *LabelSelector
	MinDomains         *int32
	NodeAffinityPolicy *string
	NodeTaintsPolicy   *string
	MatchLabelKeys     []string
}

// Label selector operators.
const (
	LabelSelectorOpIn           = "In"
	LabelSelectorOpNotIn        = "NotIn"
	LabelSelectorOpExists       = "Exists"
	LabelSelectorOpDoesNotExist = "DoesNotExist"
)

// LabelSelector is metav1.LabelSelector.
type LabelSelector struct {
	MatchLabels      map[string]string
	MatchExpressions []LabelSelectorRequirement
}

// LabelSelectorRequirement is metav1.LabelSelectorRequirement.
type LabelSelectorRequirement struct {
	Key      string
	Operator string
	Values   []string
}

// PriorityClass is scheduling.k8s.io/v1 PriorityClass.
type PriorityClass struct {
	ObjectMeta
	Value            int32
	GlobalDefault    bool
	PreemptionPolicy *string
	Description      string
}

// Built-in priority classes (pkg/apis/scheduling).
const (
	SystemClusterCritical        = "system-cluster-critical"
	SystemNodeCritical           = "system-node-critical"
	SystemCriticalPriority int32 = 2000000000
)

// IntOrString is intstr.IntOrString.
type IntOrString struct {
	IsString bool
	IntVal   int32
	StrVal   string
}

// PodDisruptionBudget is policy/v1 PodDisruptionBudget.
type PodDisruptionBudget struct {
	ObjectMeta
	Spec   PDBSpec
	Status PDBStatus
}

// PDBSpec is policy/v1 PodDisruptionBudgetSpec.
type PDBSpec struct {
	MinAvailable               *IntOrString
	MaxUnavailable             *IntOrString
	Selector                   *LabelSelector
	UnhealthyPodEvictionPolicy *string
}

// PDBStatus is policy/v1 PodDisruptionBudgetStatus.
type PDBStatus struct {
	// StatusGiven is true when the manifest carried a status (used as given
	// by the timeless commands, like the oracle does).
	StatusGiven        bool
	DisruptionsAllowed int32
	CurrentHealthy     int32
	DesiredHealthy     int32
	ExpectedPods       int32
	DisruptedPods      map[string]Time
}

// PodTemplateSpec is v1.PodTemplateSpec.
type PodTemplateSpec struct {
	ObjectMeta
	Spec PodSpec
}
