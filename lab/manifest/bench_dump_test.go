package manifest

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// kubectlDump is `kubectl get nodes,pods -A -o yaml` of a cluster as
// kubectl prints it: every pod with managedFields, volumes, tolerations,
// conditions and container statuses (about 4.8 KB per pod).
func kubectlDump(nodes, pods int) []byte {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nitems:\n")
	for i := 0; i < nodes; i++ {
		fmt.Fprintf(&b, `- apiVersion: v1
  kind: Node
  metadata:
    creationTimestamp: "2024-05-01T10:00:00Z"
    labels:
      kubernetes.io/hostname: node-%d
      topology.kubernetes.io/zone: zone-%d
    managedFields:
    - apiVersion: v1
      fieldsType: FieldsV1
      fieldsV1:
        f:metadata:
          f:labels:
            .: {}
            f:kubernetes.io/hostname: {}
      manager: kubelet
      operation: Update
      time: "2024-05-01T10:00:00Z"
    name: node-%d
    resourceVersion: "1234"
    uid: 5f6e-%d
  spec:
    podCIDR: 10.0.%d.0/24
  status:
    allocatable: {cpu: "32", memory: 128Gi, pods: "110"}
    capacity: {cpu: "32", memory: 128Gi, pods: "110"}
    conditions:
    - {lastHeartbeatTime: "2024-05-01T10:00:00Z", lastTransitionTime: "2024-05-01T10:00:00Z", message: kubelet is posting ready status, reason: KubeletReady, status: "True", type: Ready}
`, i, i%3, i, i, i%250)
	}
	for i := 0; i < pods; i++ {
		fmt.Fprintf(&b, `- apiVersion: v1
  kind: Pod
  metadata:
    creationTimestamp: "2024-05-01T10:00:00Z"
    generateName: web-%d-abc-
    labels:
      app: web-%d
      pod-template-hash: abc
    managedFields:
    - apiVersion: v1
      fieldsType: FieldsV1
      fieldsV1:
        f:metadata:
          f:generateName: {}
          f:labels:
            .: {}
            f:app: {}
            f:pod-template-hash: {}
          f:ownerReferences:
            .: {}
            k:{"uid":"u-%d"}: {}
        f:spec:
          f:containers:
            k:{"name":"web"}:
              .: {}
              f:image: {}
              f:imagePullPolicy: {}
              f:name: {}
              f:ports:
                .: {}
                k:{"containerPort":8080,"protocol":"TCP"}:
                  .: {}
                  f:containerPort: {}
                  f:protocol: {}
              f:resources:
                .: {}
                f:requests:
                  .: {}
                  f:cpu: {}
                  f:memory: {}
              f:terminationMessagePath: {}
              f:terminationMessagePolicy: {}
          f:dnsPolicy: {}
          f:enableServiceLinks: {}
          f:restartPolicy: {}
          f:schedulerName: {}
          f:securityContext: {}
          f:terminationGracePeriodSeconds: {}
      manager: kube-controller-manager
      operation: Update
      time: "2024-05-01T10:00:00Z"
    - apiVersion: v1
      fieldsType: FieldsV1
      fieldsV1:
        f:status:
          f:conditions:
            k:{"type":"ContainersReady"}:
              .: {}
              f:lastProbeTime: {}
              f:lastTransitionTime: {}
              f:status: {}
              f:type: {}
            k:{"type":"Initialized"}:
              .: {}
              f:lastProbeTime: {}
              f:lastTransitionTime: {}
              f:status: {}
              f:type: {}
            k:{"type":"Ready"}:
              .: {}
              f:lastProbeTime: {}
              f:lastTransitionTime: {}
              f:status: {}
              f:type: {}
          f:containerStatuses: {}
          f:hostIP: {}
          f:phase: {}
          f:podIP: {}
          f:podIPs:
            .: {}
            k:{"ip":"10.0.0.1"}:
              .: {}
              f:ip: {}
          f:startTime: {}
      manager: kubelet
      operation: Update
      subresource: status
      time: "2024-05-01T10:00:05Z"
    name: web-%d-abc-x%05d
    namespace: shop
    ownerReferences:
    - apiVersion: apps/v1
      blockOwnerDeletion: true
      controller: true
      kind: ReplicaSet
      name: web-%d-abc
      uid: u-%d
    resourceVersion: "98765"
    uid: pod-uid-%d
  spec:
    containers:
    - image: nginx:1.25
      imagePullPolicy: IfNotPresent
      name: web
      ports:
      - {containerPort: 8080, protocol: TCP}
      resources:
        requests: {cpu: 100m, memory: 128Mi}
      terminationMessagePath: /dev/termination-log
      terminationMessagePolicy: File
      volumeMounts:
      - {mountPath: /var/run/secrets/kubernetes.io/serviceaccount, name: kube-api-access-x, readOnly: true}
    dnsPolicy: ClusterFirst
    enableServiceLinks: true
    nodeName: node-%d
    preemptionPolicy: PreemptLowerPriority
    priority: 0
    restartPolicy: Always
    schedulerName: default-scheduler
    securityContext: {}
    serviceAccount: default
    serviceAccountName: default
    terminationGracePeriodSeconds: 30
    tolerations:
    - {effect: NoExecute, key: node.kubernetes.io/not-ready, operator: Exists, tolerationSeconds: 300}
    - {effect: NoExecute, key: node.kubernetes.io/unreachable, operator: Exists, tolerationSeconds: 300}
    volumes:
    - name: kube-api-access-x
      projected:
        defaultMode: 420
        sources:
        - serviceAccountToken: {expirationSeconds: 3607, path: token}
  status:
    conditions:
    - {lastProbeTime: null, lastTransitionTime: "2024-05-01T10:00:02Z", status: "True", type: PodReadyToStartContainers}
    - {lastProbeTime: null, lastTransitionTime: "2024-05-01T10:00:01Z", status: "True", type: Initialized}
    - {lastProbeTime: null, lastTransitionTime: "2024-05-01T10:00:05Z", status: "True", type: Ready}
    - {lastProbeTime: null, lastTransitionTime: "2024-05-01T10:00:05Z", status: "True", type: ContainersReady}
    - {lastProbeTime: null, lastTransitionTime: "2024-05-01T10:00:00Z", status: "True", type: PodScheduled}
    containerStatuses:
    - containerID: containerd://abc%d
      image: docker.io/library/nginx:1.25
      imageID: docker.io/library/nginx@sha256:abc
      lastState: {}
      name: web
      ready: true
      restartCount: %d
      started: true
      state:
        running: {startedAt: "2024-05-01T10:00:03Z"}
    hostIP: 10.0.0.%d
    phase: Running
    podIP: 10.1.%d.%d
    podIPs:
    - {ip: 10.1.%d.%d}
    qosClass: Burstable
    startTime: "2024-05-01T10:00:00Z"
`, i%300, i%300, i%300, i%300, i, i%300, i%300, i, i%nodes, i, i%5, i%250, i/250%250, i%250, i/250%250, i%250)
	}
	b.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	return []byte(b.String())
}

// BenchmarkLoadKubectlDump is issue 13's import goal: a 1,000-node,
// 30,000-pod dump (≈ 140 MB) in < 10 s and < 1.5 GB.
func BenchmarkLoadKubectlDump(b *testing.B) {
	data := kubectlDump(1000, 30000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		objs, err := Load("dump.yaml", data, Options{})
		if err != nil || len(objs.Pods) != 30000 || len(objs.Nodes) != 1000 {
			b.Fatalf("%v", err)
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.Sys>>20), "MB-sys")
	}
}

func TestKubectlDumpLoads(t *testing.T) {
	objs, err := Load("dump.yaml", kubectlDump(10, 100), Options{fastListMin: 1})
	if err != nil || len(objs.Pods) != 100 || len(objs.Nodes) != 10 {
		t.Fatalf("%v", err)
	}
	if p := objs.Pods[1]; p.Status.ContainerStatuses[0].RestartCount != 1 || p.Spec.NodeName != "node-1" {
		t.Fatalf("pod %s: %+v", p.Name, p.Status.ContainerStatuses)
	}
}
