package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// kubectlDump is `kubectl get nodes,pods -A -o yaml` of a cluster as
// kubectl prints it: every pod with managedFields, volumes, tolerations,
// conditions and container statuses (about 4.8 KB per pod).
func kubectlDump(nodes, pods int) []byte {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nitems:\n")
	dumpItems(nodes, pods, func(item string) { b.WriteString(item) })
	b.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	return []byte(b.String())
}

// kubectlDumpJSON is kubectlDump as `kubectl get -o json` prints it (four
// spaces of indentation), built item by item.
func kubectlDumpJSON(t testing.TB, nodes, pods int) []byte {
	var b bytes.Buffer
	b.WriteString("{\n    \"apiVersion\": \"v1\",\n    \"items\": [")
	n := 0
	dumpItems(nodes, pods, func(item string) {
		var v []any
		if err := yaml.Unmarshal([]byte(item), &v); err != nil || len(v) != 1 {
			t.Fatalf("item %d: %v", n, err)
		}
		j, err := json.MarshalIndent(v[0], "        ", "    ")
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n        ")
		b.Write(j)
		n++
	})
	b.WriteString("\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n")
	// exactly its size, as lab.ReadFile reads a file: the buffer's spare
	// capacity (up to as much again) would count as live heap in the load
	return bytes.Clone(b.Bytes())
}

// dumpItems calls item with every List item of kubectlDump, in order.
func dumpItems(nodes, pods int, item func(string)) {
	for i := 0; i < nodes; i++ {
		item(fmt.Sprintf(`- apiVersion: v1
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
`, i, i%3, i, i, i%250))
	}
	for i := 0; i < pods; i++ {
		item(fmt.Sprintf(`- apiVersion: v1
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
`, i%300, i%300, i%300, i%300, i, i%300, i%300, i, i%nodes, i, i%5, i%250, i/250%250, i%250, i/250%250, i%250))
	}
}

// BenchmarkLoadKubectlDump is issue 13's import goal: a 1,000-node,
// 30,000-pod dump (147 MB as YAML, 344 MB as JSON) in < 10 s and < 1.5 GB.
// Besides ns/op it reports the process CPU time of the load (cpu-s: on a
// shared machine the wall clock measures the neighbours too) and, on
// Linux, the peak resident set during the load (peak-rss-MB, VmHWM after
// resetting it; the input bytes, held as a real import holds them, are
// part of it).
func BenchmarkLoadKubectlDump(b *testing.B) {
	for _, format := range []string{"yaml", "json"} {
		b.Run(format, func(b *testing.B) {
			var data []byte
			if format == "json" {
				data = kubectlDumpJSON(b, 1000, 30000)
			} else {
				data = kubectlDump(1000, 30000)
			}
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				runtime.GC()
				debug.FreeOSMemory() // the set-up's garbage is not the load's
				peak := resetPeakRSS()
				cpu := cpuTime()
				objs, err := Load("dump."+format, data, Options{})
				b.ReportMetric((cpuTime() - cpu).Seconds(), "cpu-s")
				if err != nil || len(objs.Pods) != 30000 || len(objs.Nodes) != 1000 {
					b.Fatalf("%v", err)
				}
				if peak != nil {
					b.ReportMetric(float64(peak())/(1<<20), "peak-rss-MB")
				}
			}
		})
	}
}

// cpuTime is the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// resetPeakRSS resets the process's peak resident set size (Linux:
// writing 5 to /proc/self/clear_refs) and returns what reads it (VmHWM,
// in bytes); nil where that is not supported.
func resetPeakRSS() func() int64 {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return nil
	}
	return func() int64 {
		status, err := os.ReadFile("/proc/self/status")
		if err != nil {
			return 0
		}
		for _, l := range strings.Split(string(status), "\n") {
			if kb, ok := strings.CutPrefix(l, "VmHWM:"); ok {
				n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64)
				return n << 10
			}
		}
		return 0
	}
}

// The JSON form of the dump takes the item-by-item path and decodes to
// the same objects as the YAML.
func TestKubectlDumpJSONLoads(t *testing.T) {
	y, err := Load("dump.yaml", kubectlDump(10, 100), Options{fastListMin: 1})
	if err != nil {
		t.Fatal(err)
	}
	data := kubectlDumpJSON(t, 10, 100)
	if _, _, ok := jsonItemStarts(data); !ok {
		t.Fatal("not a kubectl JSON List")
	}
	j, err := Load("dump.json", data, Options{fastListMin: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range y.Pods {
		a, _ := json.Marshal(y.Pods[i])
		b, _ := json.Marshal(j.Pods[i])
		if string(a) != string(b) {
			t.Fatalf("pod %d differs:\n%s\n%s", i, a, b)
		}
	}
	if len(j.Pods) != 100 || len(j.Nodes) != 10 {
		t.Fatalf("%d pods, %d nodes", len(j.Pods), len(j.Nodes))
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
