// Package kubelet holds the node agent's rules the lab models, as pure
// functions over api objects and virtual times: the grace period a pod is
// killed with (pod_workers.go calculateEffectiveGracePeriod), the
// termination timeline of its containers (kuberuntime_container.go
// killContainer, kuberuntime_termination_order.go), node-pressure eviction
// (eviction/helpers.go rankMemoryPressure, evictionMessage,
// eviction_manager.go synchronize) and the lab's modelling annotations
// (start-up delay, shutdown time, memory usage).
//
// It keeps no state and schedules nothing: the engine asks it what happens
// and when, and applies the answer on its clock. It imports engine/api only.
package kubelet
