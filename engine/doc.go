// Package engine is the lab's cluster: an in-memory object store (nodes,
// pods, disruption budgets, priority classes, namespaces) driven by a
// discrete-event clock (engine/clock). It runs the pieces of a real
// cluster on that clock, each following its upstream component:
//
//   - the scheduler loop (engine/scheduler: queue with backoff, binding,
//     preemption with nominated nodes and graceful victim deletion);
//   - the API server's delete rules (grace periods, force, second delete)
//     and the Eviction API with PodDisruptionBudgets (engine/disruption);
//   - the kubelet: start-up, graceful termination timelines, node-pressure
//     eviction (engine/kubelet);
//   - the node lifecycle and taint-eviction controllers (NotReady and
//     unreachable nodes, NoExecute taints, tolerationSeconds);
//   - kubectl drain;
//   - workload controllers registered through Controller (engine/controllers).
//
// Public methods are the actions the lab offers (each a command); they
// apply at the current virtual time, and Step/RunUntil move time forward.
// Every change is recorded as an Event in the shape of `kubectl get
// events`. Nothing reads the wall clock, randomness is seeded, and map
// iteration never decides an outcome: the same seed and actions give the
// same event stream.
//
// The engine does not import the UI or the lab; the UI reads Snapshot.
package engine
