package manifest

import "strings"

// schema lists the fields of one API type: those the lab decodes and those
// that are valid upstream but the lab does not model (accepted silently,
// like kubectl's strict field validation accepts them). Any other field is
// an unknown-field warning.
type schema struct {
	decoded map[string]bool
	ignored map[string]bool
}

func newSchema(decoded, ignored string) *schema {
	s := &schema{decoded: map[string]bool{}, ignored: map[string]bool{}}
	for _, f := range strings.Fields(decoded) {
		s.decoded[f] = true
	}
	for _, f := range strings.Fields(ignored) {
		s.ignored[f] = true
	}
	return s
}

// nearest suggests the known field closest to a misspelt one (edit
// distance at most 2, or a case-insensitive match).
func (s *schema) nearest(key string) string {
	best, bestDist := "", 3
	for _, set := range []map[string]bool{s.decoded, s.ignored} {
		for f := range set {
			dist := editDistance(strings.ToLower(key), strings.ToLower(f))
			if strings.EqualFold(key, f) {
				dist = 0
			} else if len(key) >= 4 && strings.HasPrefix(f, key) {
				dist = 2 // "initialDelay" for "initialDelaySeconds"
			}
			if dist < bestDist || (dist == bestDist && best != "" && f < best) {
				best, bestDist = f, dist
			}
		}
	}
	return best
}

func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 99
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Schemas of the types the loader walks (k8s.io/api v0.36 field names).
var (
	schemaTop = newSchema("apiVersion kind metadata spec status", "")
	// value, globalDefault … are top-level fields of a PriorityClass.
	schemaPriorityClassTop = newSchema("apiVersion kind metadata value globalDefault preemptionPolicy description", "")
	schemaListTop          = newSchema("apiVersion kind metadata items", "")
	schemaListMeta         = newSchema("", "resourceVersion selfLink continue remainingItemCount")

	schemaObjectMeta = newSchema(
		"name generateName namespace uid labels annotations ownerReferences creationTimestamp deletionTimestamp deletionGracePeriodSeconds generation managedFields",
		"resourceVersion selfLink finalizers")
	schemaOwnerReference = newSchema("apiVersion kind name uid controller blockOwnerDeletion", "")

	schemaNodeSpec       = newSchema("taints unschedulable", "podCIDR podCIDRs providerID externalID configSource")
	schemaTaint          = newSchema("key value effect timeAdded", "")
	schemaNodeStatus     = newSchema("capacity allocatable conditions images", "phase addresses daemonEndpoints nodeInfo volumesInUse volumesAttached config runtimeHandlers features declaredFeatures")
	schemaNodeCondition  = newSchema("type status reason message lastTransitionTime", "lastHeartbeatTime")
	schemaContainerImage = newSchema("names sizeBytes", "")

	schemaPodSpec = newSchema(
		"nodeName nodeSelector affinity tolerations topologySpreadConstraints priorityClassName priority preemptionPolicy terminationGracePeriodSeconds activeDeadlineSeconds containers initContainers overhead resources schedulerName hostNetwork schedulingGates restartPolicy serviceAccountName serviceAccount",
		"volumes ephemeralContainers dnsPolicy dnsConfig automountServiceAccountToken hostPID hostIPC shareProcessNamespace securityContext imagePullSecrets hostname hostnameOverride subdomain setHostnameAsFQDN hostAliases readinessGates runtimeClassName enableServiceLinks os hostUsers resourceClaims schedulingGroup")
	schemaContainer = newSchema(
		"name image command args ports resources restartPolicy lifecycle livenessProbe readinessProbe startupProbe",
		"workingDir env envFrom volumeMounts volumeDevices imagePullPolicy securityContext stdin stdinOnce tty terminationMessagePath terminationMessagePolicy resizePolicy restartPolicyRules")
	schemaContainerPort  = newSchema("name containerPort hostPort hostIP protocol", "")
	schemaResources      = newSchema("requests limits", "claims")
	schemaLifecycle      = newSchema("preStop postStart", "stopSignal")
	schemaHandler        = newSchema("exec httpGet sleep", "tcpSocket")
	schemaExec           = newSchema("command", "")
	schemaHTTPGet        = newSchema("path", "port host scheme httpHeaders")
	schemaSleep          = newSchema("seconds", "")
	schemaProbe          = newSchema("terminationGracePeriodSeconds initialDelaySeconds timeoutSeconds periodSeconds successThreshold failureThreshold exec httpGet tcpSocket grpc", "")
	schemaSchedulingGate = newSchema("name", "")

	schemaAffinity         = newSchema("nodeAffinity podAffinity podAntiAffinity", "")
	schemaNodeAffinity     = newSchema("requiredDuringSchedulingIgnoredDuringExecution preferredDuringSchedulingIgnoredDuringExecution", "")
	schemaNodeSelector     = newSchema("nodeSelectorTerms", "")
	schemaNodeSelectorTerm = newSchema("matchExpressions matchFields", "")
	schemaRequirement      = newSchema("key operator values", "")
	schemaPreferredTerm    = newSchema("weight preference", "")
	schemaPodAffinity      = newSchema("requiredDuringSchedulingIgnoredDuringExecution preferredDuringSchedulingIgnoredDuringExecution", "")
	schemaPodAffinityTerm  = newSchema("labelSelector namespaces topologyKey namespaceSelector matchLabelKeys mismatchLabelKeys", "")
	schemaWeightedTerm     = newSchema("weight podAffinityTerm", "")
	schemaLabelSelector    = newSchema("matchLabels matchExpressions", "")
	schemaToleration       = newSchema("key operator value effect tolerationSeconds", "")
	schemaSpreadConstraint = newSchema("maxSkew topologyKey whenUnsatisfiable labelSelector minDomains nodeAffinityPolicy nodeTaintsPolicy matchLabelKeys", "")

	schemaPodStatus = newSchema("phase conditions reason message nominatedNodeName startTime qosClass containerStatuses initContainerStatuses",
		"hostIP hostIPs podIP podIPs ephemeralContainerStatuses resize resourceClaimStatuses observedGeneration allocatedResources resources extendedResourceClaimStatus nodeAllocatableResourceClaimStatuses")
	schemaPodCondition    = newSchema("type status reason message lastTransitionTime", "lastProbeTime observedGeneration")
	schemaContainerStatus = newSchema("name ready restartCount state lastState started", "image imageID containerID allocatedResources resources volumeMounts user allocatedResourcesStatus stopSignal")
	schemaContainerState  = newSchema("waiting running terminated", "")
	schemaStateWaiting    = newSchema("reason message", "")
	schemaStateRunning    = newSchema("startedAt", "")
	schemaStateTerminated = newSchema("exitCode signal reason message startedAt finishedAt", "containerID")
	schemaNamespaceSpec   = newSchema("", "finalizers")
	schemaPDBSpec         = newSchema("minAvailable maxUnavailable selector unhealthyPodEvictionPolicy", "")
	schemaPDBStatus       = newSchema("disruptionsAllowed currentHealthy desiredHealthy expectedPods disruptedPods", "observedGeneration conditions")
	schemaTemplate        = newSchema("metadata spec", "")

	schemaDeploymentSpec  = newSchema("replicas selector template strategy minReadySeconds revisionHistoryLimit paused progressDeadlineSeconds", "")
	schemaDeployStrategy  = newSchema("type rollingUpdate", "")
	schemaRollingUpdate   = newSchema("maxUnavailable maxSurge", "")
	schemaReplicaSetSpec  = newSchema("replicas selector template minReadySeconds", "")
	schemaStatefulSetSpec = newSchema("replicas selector template serviceName podManagementPolicy updateStrategy minReadySeconds revisionHistoryLimit ordinals",
		"volumeClaimTemplates persistentVolumeClaimRetentionPolicy")
	schemaSTSStrategy      = newSchema("type rollingUpdate", "")
	schemaSTSRollingUpdate = newSchema("partition maxUnavailable", "")
	schemaOrdinals         = newSchema("start", "")
	schemaDaemonSetSpec    = newSchema("selector template updateStrategy minReadySeconds", "revisionHistoryLimit")
	schemaJobSpec          = newSchema("parallelism completions backoffLimit activeDeadlineSeconds ttlSecondsAfterFinished completionMode suspend selector manualSelector template",
		"podFailurePolicy backoffLimitPerIndex maxFailedIndexes podReplacementPolicy successPolicy managedBy")
	schemaCronJobSpec = newSchema("schedule timeZone startingDeadlineSeconds concurrencyPolicy suspend jobTemplate successfulJobsHistoryLimit failedJobsHistoryLimit", "")
)
