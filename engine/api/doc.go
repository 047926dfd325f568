// Package api holds the Kubernetes object model the engine understands:
// nodes, pods, workloads, priority classes and disruption budgets, with the
// pieces of apimachinery semantics the scheduler, kubelet and controllers
// share (quantities, label and node selectors, tolerations, effective pod
// requests, QoS classes, API-server defaulting).
//
// It imports nothing but the standard library. It knows nothing of YAML
// (lab/manifest decodes manifests into these types) and nothing of time
// passing (engine owns the virtual clock).
package api
