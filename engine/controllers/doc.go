// Package controllers holds the workload controllers of the lab's cluster:
// ReplicaSet, Deployment, StatefulSet, DaemonSet, Job, CronJob and the
// garbage collector, following kube-controller-manager v1.36
// (k8s.io/kubernetes pkg/controller/...) decision for decision.
//
// Controllers never schedule, run or terminate pods themselves: they read
// pods and nodes through the Cluster interface and ask it to create pods,
// delete them gracefully or change their owner references, exactly the API
// calls the real controllers make. The engine implements Cluster and calls
// Manager.Reconcile on the virtual clock; the controllers own the workload
// objects and their status.
//
// The pure parts (scale-down ranking, rollout arithmetic, pod-template
// hashing, cron schedules) are plain functions with table tests beside them.
//
// This package imports engine/api only; it must not import the scheduler,
// the kubelet or the UI.
package controllers
