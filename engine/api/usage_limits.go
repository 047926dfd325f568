package api

// Bounds of the lab's modelled use (the lab.podlab.dev/memory-usage and
// cpu-usage annotations and the `usage` command): a percentage of the
// request is at most MaxUsagePercent, and a use at most 1Pi bytes of
// memory or 2^50 millicores — far beyond any node, small enough that a
// node's sum over its pods cannot overflow an int64 (1e30% once turned
// into a negative use and a self-contradicting eviction message).
const (
	MaxUsagePercent = 10000
	MaxMemoryUsage  = int64(1) << 50
	MaxCPUUsage     = int64(1) << 50 // millicores
)
