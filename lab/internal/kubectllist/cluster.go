package kubectllist

import (
	"fmt"
	"io"
	"time"
)

// Spec sizes a generated cluster.
type Spec struct {
	Nodes int
	// Pods is the total: DaemonSet pods (two per node) and Deployment pods
	// (ten per Deployment, the rest).
	Pods int
}

// Write writes the cluster as `kubectl get
// namespaces,nodes,deployments,replicasets,daemonsets,pods -A -o yaml`
// (asJSON: -o json) prints it.
func Write(w io.Writer, s Spec, asJSON bool) error {
	return write(w, Items(s), asJSON)
}

var epoch = time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)

func ts(sec int) string { return epoch.Add(time.Duration(sec) * time.Second).Format(time.RFC3339) }

func uid(kind, i int) string {
	return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", i, kind, i%4096, kind, i)
}

const (
	replicasPerDeployment = 10
	namespaces            = 20
)

// Items returns the List's items in kubectl's order (by resource type, then
// namespace and name).
func Items(s Spec) []any {
	var items []any
	items = append(items, namespace("default", 0), namespace("kube-system", 1))
	for i := range namespaces {
		items = append(items, namespace(nsName(i), i+2))
	}
	for i := range s.Nodes {
		items = append(items, node(i))
	}
	dsPods := 0
	if s.Nodes > 0 && s.Pods >= 2*s.Nodes {
		dsPods = 2 * s.Nodes
	}
	deployments := (s.Pods - dsPods + replicasPerDeployment - 1) / replicasPerDeployment
	for i := range deployments {
		items = append(items, deployment(i))
	}
	for i := range deployments {
		items = append(items, replicaSet(i))
	}
	if dsPods > 0 {
		items = append(items, daemonSet(0, "kube-proxy"), daemonSet(1, "node-exporter"))
	}
	left := s.Pods - dsPods
	for i := 0; i < deployments; i++ {
		for r := 0; r < replicasPerDeployment && left > 0; r++ {
			left--
			n := i*replicasPerDeployment + r
			items = append(items, deploymentPod(i, r, n%max(s.Nodes, 1)))
		}
	}
	for d := 0; d < 2 && dsPods > 0; d++ {
		for n := range s.Nodes {
			items = append(items, daemonPod(d, n))
		}
	}
	return items
}

func nsName(i int) string { return fmt.Sprintf("team-%02d", i%namespaces) }

func managed(manager, op, t string, fields obj, subresource string) obj {
	m := obj{}.set("apiVersion", "v1").set("fieldsType", "FieldsV1").set("fieldsV1", fields).
		set("manager", manager).set("operation", op)
	if subresource != "" {
		m = m.set("subresource", subresource)
	}
	return m.set("time", t)
}

func empty() obj { return obj{} }

func keys(ks ...string) obj {
	o := obj{}.set(".", empty())
	for _, k := range ks {
		o = o.set("f:"+k, empty())
	}
	return o
}

func namespace(name string, i int) obj {
	return obj{}.set("apiVersion", "v1").set("kind", "Namespace").set("metadata", obj{}.
		set("creationTimestamp", ts(0)).
		set("labels", obj{}.set("kubernetes.io/metadata.name", name)).
		set("managedFields", list{managed("kubectl-create", "Update", ts(0), obj{}.set("f:metadata", obj{}.set("f:labels", keys("kubernetes.io/metadata.name"))), "")}).
		set("name", name).set("resourceVersion", fmt.Sprint(100+i)).set("uid", uid(1, i))).
		set("spec", obj{}.set("finalizers", list{"kubernetes"})).
		set("status", obj{}.set("phase", "Active"))
}

func nodeName(i int) string {
	return fmt.Sprintf("ip-10-%d-%d-%d.eu-west-1.compute.internal", i/65536%256, i/256%256, i%256)
}

func zone(i int) string { return "eu-west-1" + string(rune('a'+i%3)) }

func node(i int) obj {
	name := nodeName(i)
	labels := obj{}.set("beta.kubernetes.io/arch", "amd64").set("beta.kubernetes.io/instance-type", "m6i.4xlarge").
		set("beta.kubernetes.io/os", "linux").set("failure-domain.beta.kubernetes.io/region", "eu-west-1").
		set("failure-domain.beta.kubernetes.io/zone", zone(i)).set("kubernetes.io/arch", "amd64").
		set("kubernetes.io/hostname", name).set("kubernetes.io/os", "linux").
		set("node.kubernetes.io/instance-type", "m6i.4xlarge").set("topology.kubernetes.io/region", "eu-west-1").
		set("topology.kubernetes.io/zone", zone(i))
	cond := func(typ, status, reason, msg string) obj {
		return obj{}.set("lastHeartbeatTime", ts(86000)).set("lastTransitionTime", ts(60)).set("message", msg).
			set("reason", reason).set("status", status).set("type", typ)
	}
	var images list
	for k := range 25 {
		images = append(images, obj{}.set("names", list{
			fmt.Sprintf("registry.example.com/team-%02d/service@sha256:%064x", k, k*7919+1),
			fmt.Sprintf("registry.example.com/team-%02d/service:v1.%d.0", k, k)}).
			set("sizeBytes", int64(20_000_000+k*1_234_567)))
	}
	condFields := obj{}
	for _, t := range []string{"DiskPressure", "MemoryPressure", "PIDPressure", "Ready"} {
		condFields = condFields.set(fmt.Sprintf(`k:{"type":"%s"}`, t), obj{}.set("f:lastHeartbeatTime", empty()))
	}
	return obj{}.set("apiVersion", "v1").set("kind", "Node").set("metadata", obj{}.
		set("annotations", obj{}.set("alpha.kubernetes.io/provided-node-ip", fmt.Sprintf("10.%d.%d.%d", i/65536%256, i/256%256, i%256)).
			set("node.alpha.kubernetes.io/ttl", "0").set("volumes.kubernetes.io/controller-managed-attach-detach", "true")).
		set("creationTimestamp", ts(i%600)).set("labels", labels).
		set("managedFields", list{
			managed("kubelet", "Update", ts(i%600), obj{}.set("f:metadata", obj{}.
				set("f:annotations", keys("alpha.kubernetes.io/provided-node-ip", "volumes.kubernetes.io/controller-managed-attach-detach")).
				set("f:labels", keys("beta.kubernetes.io/arch", "beta.kubernetes.io/instance-type", "beta.kubernetes.io/os", "kubernetes.io/arch", "kubernetes.io/hostname", "kubernetes.io/os", "node.kubernetes.io/instance-type", "topology.kubernetes.io/region", "topology.kubernetes.io/zone"))).
				set("f:spec", obj{}.set("f:providerID", empty())), ""),
			managed("kube-controller-manager", "Update", ts(i%600+5), obj{}.set("f:metadata", obj{}.set("f:annotations", obj{}.set("f:node.alpha.kubernetes.io/ttl", empty()))).
				set("f:spec", obj{}.set("f:podCIDR", empty()).set("f:podCIDRs", keys(fmt.Sprintf(`v:"10.%d.%d.0/24"`, 100+i/256%100, i%256)))), ""),
			managed("kubelet", "Update", ts(86000), obj{}.set("f:status", obj{}.set("f:conditions", condFields).set("f:images", empty()).set("f:nodeInfo", obj{}.set("f:bootID", empty()))), "status"),
		}).
		set("name", name).set("resourceVersion", fmt.Sprint(1_000_000+i)).set("uid", uid(2, i))).
		set("spec", obj{}.set("podCIDR", fmt.Sprintf("10.%d.%d.0/24", 100+i/256%100, i%256)).
			set("podCIDRs", list{fmt.Sprintf("10.%d.%d.0/24", 100+i/256%100, i%256)}).
			set("providerID", fmt.Sprintf("aws:///%s/i-%017x", zone(i), i))).
		set("status", obj{}.
			set("addresses", list{obj{}.set("address", fmt.Sprintf("10.%d.%d.%d", i/65536%256, i/256%256, i%256)).set("type", "InternalIP"),
				obj{}.set("address", name).set("type", "InternalDNS"), obj{}.set("address", name).set("type", "Hostname")}).
			set("allocatable", obj{}.set("cpu", "15890m").set("ephemeral-storage", "95551679124").set("hugepages-1Gi", "0").
				set("hugepages-2Mi", "0").set("memory", "63193484Ki").set("pods", "110")).
			set("capacity", obj{}.set("cpu", "16").set("ephemeral-storage", "104845292Ki").set("hugepages-1Gi", "0").
				set("hugepages-2Mi", "0").set("memory", "65386380Ki").set("pods", "110")).
			set("conditions", list{
				cond("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
				cond("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
				cond("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
				cond("Ready", "True", "KubeletReady", "kubelet is posting ready status")}).
			set("daemonEndpoints", obj{}.set("kubeletEndpoint", obj{}.set("Port", 10250))).
			set("images", images).
			set("nodeInfo", obj{}.set("architecture", "amd64").set("bootID", uid(3, i)).
				set("containerRuntimeVersion", "containerd://1.7.22").set("kernelVersion", "6.1.112-124.190.amzn2023.x86_64").
				set("kubeProxyVersion", "").set("kubeletVersion", "v1.36.0").set("machineID", fmt.Sprintf("ec2%029x", i)).
				set("operatingSystem", "linux").set("osImage", "Amazon Linux 2023.6.20241031").set("systemUUID", fmt.Sprintf("ec2%05x-0000-0000-0000-000000000000", i))))
}

func appName(d int) string { return fmt.Sprintf("svc-%04d", d) }

func podHash(d int) string { return fmt.Sprintf("%010x", d*2654435761%0xffffffffff)[:10] }

func container(d int) obj {
	return obj{}.set("image", fmt.Sprintf("registry.example.com/%s/%s:v1.%d.0", nsName(d), appName(d), d%25)).
		set("imagePullPolicy", "IfNotPresent").set("name", "app").
		set("ports", list{obj{}.set("containerPort", 8080).set("name", "http").set("protocol", "TCP")}).
		set("readinessProbe", obj{}.set("failureThreshold", 3).set("httpGet", obj{}.set("path", "/healthz").set("port", 8080).set("scheme", "HTTP")).
			set("periodSeconds", 10).set("successThreshold", 1).set("timeoutSeconds", 1)).
		set("resources", obj{}.set("limits", obj{}.set("memory", "256Mi")).set("requests", obj{}.set("cpu", "100m").set("memory", "128Mi"))).
		set("terminationMessagePath", "/dev/termination-log").set("terminationMessagePolicy", "File")
}

func template(d int, hash string) obj {
	labels := obj{}.set("app", appName(d))
	if hash != "" {
		labels = labels.set("pod-template-hash", hash)
	}
	return obj{}.set("metadata", obj{}.set("creationTimestamp", nil).set("labels", labels)).
		set("spec", obj{}.set("containers", list{container(d)}).set("dnsPolicy", "ClusterFirst").
			set("restartPolicy", "Always").set("schedulerName", "default-scheduler").set("securityContext", empty()).
			set("terminationGracePeriodSeconds", 30).
			set("topologySpreadConstraints", list{obj{}.set("labelSelector", obj{}.set("matchLabels", obj{}.set("app", appName(d)))).
				set("maxSkew", 1).set("topologyKey", "topology.kubernetes.io/zone").set("whenUnsatisfiable", "ScheduleAnyway")}))
}

func deployment(d int) obj {
	applied := fmt.Sprintf(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"name":"%s","namespace":"%s"},"spec":{"replicas":%d,"selector":{"matchLabels":{"app":"%s"}},"template":{"metadata":{"labels":{"app":"%s"}},"spec":{"containers":[{"image":"registry.example.com/%s/%s:v1.%d.0","name":"app","ports":[{"containerPort":8080,"name":"http"}],"resources":{"limits":{"memory":"256Mi"},"requests":{"cpu":"100m","memory":"128Mi"}}}]}}}}`+"\n",
		appName(d), nsName(d), replicasPerDeployment, appName(d), appName(d), nsName(d), appName(d), d%25)
	return obj{}.set("apiVersion", "apps/v1").set("kind", "Deployment").set("metadata", obj{}.
		set("annotations", obj{}.set("deployment.kubernetes.io/revision", "1").set("kubectl.kubernetes.io/last-applied-configuration", applied)).
		set("creationTimestamp", ts(3600+d)).set("generation", 1).set("labels", obj{}.set("app", appName(d))).
		set("managedFields", list{
			managed("kubectl-client-side-apply", "Update", ts(3600+d), obj{}.set("f:metadata", obj{}.set("f:annotations", keys("kubectl.kubernetes.io/last-applied-configuration"))).
				set("f:spec", obj{}.set("f:progressDeadlineSeconds", empty()).set("f:replicas", empty()).set("f:selector", empty()).
					set("f:template", obj{}.set("f:metadata", obj{}.set("f:labels", keys("app"))).set("f:spec", obj{}.
						set("f:containers", obj{}.set(`k:{"name":"app"}`, keys("image", "imagePullPolicy", "name", "resources", "terminationMessagePath"))).
						set("f:dnsPolicy", empty()).set("f:restartPolicy", empty())))), ""),
			managed("kube-controller-manager", "Update", ts(3700+d), obj{}.set("f:metadata", obj{}.set("f:annotations", obj{}.set("f:deployment.kubernetes.io/revision", empty()))).
				set("f:status", obj{}.set("f:availableReplicas", empty()).set("f:conditions", keys()).set("f:observedGeneration", empty()).
					set("f:readyReplicas", empty()).set("f:replicas", empty()).set("f:updatedReplicas", empty())), "status"),
		}).
		set("name", appName(d)).set("namespace", nsName(d)).set("resourceVersion", fmt.Sprint(2_000_000+d)).set("uid", uid(4, d))).
		set("spec", obj{}.set("progressDeadlineSeconds", 600).set("replicas", replicasPerDeployment).set("revisionHistoryLimit", 10).
			set("selector", obj{}.set("matchLabels", obj{}.set("app", appName(d)))).
			set("strategy", obj{}.set("rollingUpdate", obj{}.set("maxSurge", "25%").set("maxUnavailable", "25%")).set("type", "RollingUpdate")).
			set("template", template(d, ""))).
		set("status", obj{}.set("availableReplicas", replicasPerDeployment).
			set("conditions", list{
				obj{}.set("lastTransitionTime", ts(3700+d)).set("lastUpdateTime", ts(3700+d)).set("message", "Deployment has minimum availability.").
					set("reason", "MinimumReplicasAvailable").set("status", "True").set("type", "Available"),
				obj{}.set("lastTransitionTime", ts(3600+d)).set("lastUpdateTime", ts(3700+d)).set("message", fmt.Sprintf("ReplicaSet %q has successfully progressed.", appName(d)+"-"+podHash(d))).
					set("reason", "NewReplicaSetAvailable").set("status", "True").set("type", "Progressing")}).
			set("observedGeneration", 1).set("readyReplicas", replicasPerDeployment).set("replicas", replicasPerDeployment).set("updatedReplicas", replicasPerDeployment))
}

func owner(apiVersion, kind, name, u string) list {
	return list{obj{}.set("apiVersion", apiVersion).set("blockOwnerDeletion", true).set("controller", true).
		set("kind", kind).set("name", name).set("uid", u)}
}

func replicaSet(d int) obj {
	hash := podHash(d)
	return obj{}.set("apiVersion", "apps/v1").set("kind", "ReplicaSet").set("metadata", obj{}.
		set("annotations", obj{}.set("deployment.kubernetes.io/desired-replicas", fmt.Sprint(replicasPerDeployment)).
			set("deployment.kubernetes.io/max-replicas", fmt.Sprint(replicasPerDeployment+3)).set("deployment.kubernetes.io/revision", "1")).
		set("creationTimestamp", ts(3600+d)).set("generation", 1).
		set("labels", obj{}.set("app", appName(d)).set("pod-template-hash", hash)).
		set("managedFields", list{
			managed("kube-controller-manager", "Update", ts(3600+d), obj{}.set("f:metadata", obj{}.set("f:annotations", keys("deployment.kubernetes.io/desired-replicas", "deployment.kubernetes.io/max-replicas", "deployment.kubernetes.io/revision")).
				set("f:labels", keys("app", "pod-template-hash")).set("f:ownerReferences", obj{}.set(".", empty()).set(fmt.Sprintf(`k:{"uid":"%s"}`, uid(4, d)), empty()))).
				set("f:spec", obj{}.set("f:replicas", empty()).set("f:selector", empty()).set("f:template", empty())), ""),
			managed("kube-controller-manager", "Update", ts(3700+d), obj{}.set("f:status", obj{}.set("f:availableReplicas", empty()).
				set("f:fullyLabeledReplicas", empty()).set("f:observedGeneration", empty()).set("f:readyReplicas", empty()).set("f:replicas", empty())), "status"),
		}).
		set("name", appName(d)+"-"+hash).set("namespace", nsName(d)).
		set("ownerReferences", owner("apps/v1", "Deployment", appName(d), uid(4, d))).
		set("resourceVersion", fmt.Sprint(3_000_000+d)).set("uid", uid(5, d))).
		set("spec", obj{}.set("replicas", replicasPerDeployment).
			set("selector", obj{}.set("matchLabels", obj{}.set("app", appName(d)).set("pod-template-hash", hash))).
			set("template", template(d, hash))).
		set("status", obj{}.set("availableReplicas", replicasPerDeployment).set("fullyLabeledReplicas", replicasPerDeployment).
			set("observedGeneration", 1).set("readyReplicas", replicasPerDeployment).set("replicas", replicasPerDeployment))
}

func daemonSet(i int, name string) obj {
	return obj{}.set("apiVersion", "apps/v1").set("kind", "DaemonSet").set("metadata", obj{}.
		set("annotations", obj{}.set("deprecated.daemonset.template.generation", "1")).
		set("creationTimestamp", ts(30)).set("generation", 1).set("labels", obj{}.set("k8s-app", name)).
		set("managedFields", list{managed("kube-controller-manager", "Update", ts(30), obj{}.set("f:status", keys("currentNumberScheduled", "desiredNumberScheduled")), "status")}).
		set("name", name).set("namespace", "kube-system").set("resourceVersion", fmt.Sprint(500+i)).set("uid", uid(6, i))).
		set("spec", obj{}.set("revisionHistoryLimit", 10).
			set("selector", obj{}.set("matchLabels", obj{}.set("k8s-app", name))).
			set("template", obj{}.set("metadata", obj{}.set("creationTimestamp", nil).set("labels", obj{}.set("k8s-app", name))).
				set("spec", obj{}.set("containers", list{obj{}.set("image", "registry.k8s.io/"+name+":v1.36.0").set("name", name).
					set("resources", obj{}.set("requests", obj{}.set("cpu", "50m").set("memory", "64Mi")))}).
					set("hostNetwork", true).set("priorityClassName", "system-node-critical").
					set("tolerations", list{obj{}.set("operator", "Exists")}))).
			set("updateStrategy", obj{}.set("rollingUpdate", obj{}.set("maxSurge", 0).set("maxUnavailable", 1)).set("type", "RollingUpdate"))).
		set("status", obj{}.set("currentNumberScheduled", 0).set("desiredNumberScheduled", 0).set("numberMisscheduled", 0).set("numberReady", 0))
}

func podStatus(node, ip string, start int) obj {
	cond := func(typ string, t int) obj {
		return obj{}.set("lastProbeTime", nil).set("lastTransitionTime", ts(t)).set("status", "True").set("type", typ)
	}
	return obj{}.set("conditions", list{cond("PodReadyToStartContainers", start+3), cond("Initialized", start), cond("Ready", start+8),
		cond("ContainersReady", start+8), cond("PodScheduled", start)}).
		set("containerStatuses", list{obj{}.set("containerID", fmt.Sprintf("containerd://%064x", start*31+len(ip))).
			set("image", "registry.example.com/app:v1").set("imageID", fmt.Sprintf("registry.example.com/app@sha256:%064x", start)).
			set("lastState", empty()).set("name", "app").set("ready", true).set("restartCount", 0).set("started", true).
			set("state", obj{}.set("running", obj{}.set("startedAt", ts(start+4))))}).
		set("hostIP", node).set("hostIPs", list{obj{}.set("ip", node)}).set("phase", "Running").
		set("podIP", ip).set("podIPs", list{obj{}.set("ip", ip)}).set("qosClass", "Burstable").set("startTime", ts(start))
}

func podManaged(t int, owner string) list {
	return list{
		managed("kube-controller-manager", "Update", ts(t), obj{}.set("f:metadata", obj{}.set("f:generateName", empty()).set("f:labels", keys("app", "pod-template-hash")).
			set("f:ownerReferences", obj{}.set(".", empty()).set(fmt.Sprintf(`k:{"uid":"%s"}`, owner), empty()))).
			set("f:spec", obj{}.set("f:containers", obj{}.set(`k:{"name":"app"}`, obj{}.set(".", empty()).set("f:image", empty()).
				set("f:imagePullPolicy", empty()).set("f:name", empty()).set("f:ports", keys()).set("f:readinessProbe", keys()).
				set("f:resources", keys()).set("f:terminationMessagePath", empty()).set("f:terminationMessagePolicy", empty()))).
				set("f:dnsPolicy", empty()).set("f:enableServiceLinks", empty()).set("f:restartPolicy", empty()).set("f:schedulerName", empty()).
				set("f:securityContext", empty()).set("f:terminationGracePeriodSeconds", empty()).set("f:topologySpreadConstraints", keys())), ""),
		managed("kubelet", "Update", ts(t+8), obj{}.set("f:status", obj{}.
			set("f:conditions", obj{}.
				set(`k:{"type":"PodReadyToStartContainers"}`, keys("lastProbeTime", "lastTransitionTime", "status", "type")).
				set(`k:{"type":"Ready"}`, keys("lastProbeTime", "lastTransitionTime", "status", "type"))).
			set("f:containerStatuses", empty()).set("f:hostIP", empty()).set("f:hostIPs", empty()).set("f:phase", empty()).
			set("f:podIP", empty()).set("f:podIPs", obj{}.set(".", empty()).set(`k:{"ip":"10.0.0.1"}`, empty())).set("f:startTime", empty())), "status"),
	}
}

// podSpecBase is a pod's spec as the API server stored it; priority is what
// the priority admission resolved from the pod's class (0 without one).
func podSpecBase(node string, priority int) obj {
	return obj{}.set("dnsPolicy", "ClusterFirst").set("enableServiceLinks", true).set("nodeName", node).
		set("preemptionPolicy", "PreemptLowerPriority").set("priority", priority).set("restartPolicy", "Always").
		set("schedulerName", "default-scheduler").set("securityContext", empty()).
		set("serviceAccount", "default").set("serviceAccountName", "default").set("terminationGracePeriodSeconds", 30).
		set("tolerations", list{
			obj{}.set("effect", "NoExecute").set("key", "node.kubernetes.io/not-ready").set("operator", "Exists").set("tolerationSeconds", 300),
			obj{}.set("effect", "NoExecute").set("key", "node.kubernetes.io/unreachable").set("operator", "Exists").set("tolerationSeconds", 300)}).
		set("volumes", list{obj{}.set("name", "kube-api-access-abcde").set("projected", obj{}.set("defaultMode", 420).set("sources", list{
			obj{}.set("serviceAccountToken", obj{}.set("expirationSeconds", 3607).set("path", "token")),
			obj{}.set("configMap", obj{}.set("items", list{obj{}.set("key", "ca.crt").set("path", "ca.crt")}).set("name", "kube-root-ca.crt")),
			obj{}.set("downwardAPI", obj{}.set("items", list{obj{}.set("fieldRef", obj{}.set("apiVersion", "v1").set("fieldPath", "metadata.namespace")).set("path", "namespace")}))}))})
}

func deploymentPod(d, r, n int) obj {
	hash := podHash(d)
	name := fmt.Sprintf("%s-%s-%05d", appName(d), hash, r)
	start := 3700 + d
	c := container(d)
	c = c.set("volumeMounts", list{obj{}.set("mountPath", "/var/run/secrets/kubernetes.io/serviceaccount").set("name", "kube-api-access-abcde").set("readOnly", true)})
	spec := podSpecBase(nodeName(n), 0).set("containers", list{c}).
		set("topologySpreadConstraints", list{obj{}.set("labelSelector", obj{}.set("matchLabels", obj{}.set("app", appName(d)))).
			set("maxSkew", 1).set("topologyKey", "topology.kubernetes.io/zone").set("whenUnsatisfiable", "ScheduleAnyway")})
	return obj{}.set("apiVersion", "v1").set("kind", "Pod").set("metadata", obj{}.
		set("creationTimestamp", ts(start)).set("generateName", appName(d)+"-"+hash+"-").
		set("labels", obj{}.set("app", appName(d)).set("pod-template-hash", hash)).
		set("managedFields", podManaged(start, uid(5, d))).
		set("name", name).set("namespace", nsName(d)).
		set("ownerReferences", owner("apps/v1", "ReplicaSet", appName(d)+"-"+hash, uid(5, d))).
		set("resourceVersion", fmt.Sprint(4_000_000+d*replicasPerDeployment+r)).set("uid", uid(7, d*replicasPerDeployment+r))).
		set("spec", spec).
		set("status", podStatus(fmt.Sprintf("10.%d.%d.%d", n/65536%256, n/256%256, n%256), fmt.Sprintf("10.%d.%d.%d", 100+n/256%100, n%256, r+2), start))
}

func daemonPod(d, n int) obj {
	names := []string{"kube-proxy", "node-exporter"}
	name := fmt.Sprintf("%s-%05x", names[d], n)
	c := obj{}.set("image", "registry.k8s.io/"+names[d]+":v1.36.0").set("imagePullPolicy", "IfNotPresent").set("name", names[d]).
		set("resources", obj{}.set("requests", obj{}.set("cpu", "50m").set("memory", "64Mi"))).
		set("terminationMessagePath", "/dev/termination-log").set("terminationMessagePolicy", "File")
	// system-node-critical's value, as a real kube-proxy pod carries it
	spec := podSpecBase(nodeName(n), 2000001000).set("containers", list{c}).set("hostNetwork", true).
		set("affinity", obj{}.set("nodeAffinity", obj{}.set("requiredDuringSchedulingIgnoredDuringExecution", obj{}.set("nodeSelectorTerms", list{
			obj{}.set("matchFields", list{obj{}.set("key", "metadata.name").set("operator", "In").set("values", list{nodeName(n)})})})))).
		set("priorityClassName", "system-node-critical")
	ip := fmt.Sprintf("10.%d.%d.%d", n/65536%256, n/256%256, n%256)
	return obj{}.set("apiVersion", "v1").set("kind", "Pod").set("metadata", obj{}.
		set("creationTimestamp", ts(60+n%600)).set("generateName", names[d]+"-").
		set("labels", obj{}.set("controller-revision-hash", "6b8f9c7d4").set("k8s-app", names[d]).set("pod-template-generation", "1")).
		set("managedFields", podManaged(60+n%600, uid(6, d))).
		set("name", name).set("namespace", "kube-system").
		set("ownerReferences", owner("apps/v1", "DaemonSet", names[d], uid(6, d))).
		set("resourceVersion", fmt.Sprint(9_000_000+d*100_000+n)).set("uid", uid(8, d*100_000+n))).
		set("spec", spec).
		set("status", podStatus(ip, ip, 60+n%600))
}
