// Package descheduler is kubernetes-sigs/descheduler (v0.36, policy
// descheduler/v1alpha2) on the podlab engine: profiles of deschedule and
// balance plugins, the DefaultEvictor's filters, the eviction limits, and
// a pass that evicts through the engine's Eviction API (PodDisruptionBudgets
// respected) and records each eviction with the reason it was chosen
// (plugin, constraint, the skew or threshold it fixes).
//
// Plugins are pure functions of a pass's view of the cluster (view.go):
// nodes, pods by node, requested resources. The pass (pass.go) runs every
// profile's deschedule plugins, then every profile's balance plugins, as
// upstream's descheduler.runProfiles does. Controller (controller.go)
// runs a pass every deschedulingInterval on the virtual clock.
//
// It imports the engine root (to evict and record events) and must not
// import lab or ui; the engine root must not import it.
package descheduler
