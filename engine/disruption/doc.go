// Package disruption holds the voluntary-disruption rules: a
// PodDisruptionBudget's status as the disruption controller computes it
// (pkg/controller/disruption/disruption.go) and the Eviction API's
// decision (pkg/registry/core/pod/storage/eviction.go), as pure functions.
// The engine keeps the budgets and applies the decisions on its clock.
//
// It imports engine/api only.
package disruption
