// Package autoscaler is the cluster autoscaler (kubernetes/autoscaler
// cluster-autoscaler) as a controller on the engine's virtual clock: node
// groups with a node template, scale-up for pods the scheduler could not
// place (simulated on template nodes with podlab's own scheduler filters,
// a binpacking estimate, an expander, balancing of similar groups, nodes
// that register after a provisioning time) and scale-down of nodes under
// the utilisation threshold for the unneeded time whose pods fit elsewhere
// (CA's "cannot remove" rules, PDBs, evictions through the Eviction API).
//
// It reads and acts on the cluster only through engine.Engine's public
// methods, like a real autoscaler through the API server and the cloud
// provider. It must not import lab or ui.
package autoscaler
