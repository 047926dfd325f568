// Package admission does to a new pod what the API server does between
// decoding it and storing it, as pure functions over engine/api: defaulting
// (api.DefaultPod), the pod strategy's PrepareForCreate mutations
// (SchedulingGated condition, matchLabelKeys/mismatchLabelKeys merged into
// pod (anti-)affinity selectors) and the mutating admission plugins that
// matter to scheduling and eviction (Priority, DefaultTolerationSeconds).
//
// It imports engine/api only; it knows nothing of YAML, the scheduler or time.
package admission
