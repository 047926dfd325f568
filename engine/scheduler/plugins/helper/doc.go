// Package helper holds small functions several scheduler plugins share,
// as kube-scheduler's pkg/scheduler/framework/plugins/helper. It imports
// engine/scheduler/framework only.
package helper
