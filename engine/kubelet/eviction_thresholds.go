package kubelet

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"podlab.dev/podlab/engine/api"
)

// SignalMemoryAvailable is the only eviction signal the lab models.
const SignalMemoryAvailable = "memory.available"

// Threshold is an eviction threshold on memory.available: an absolute
// quantity or a fraction of capacity. GracePeriod 0 makes it hard.
type Threshold struct {
	Signal      string
	Quantity    int64   // bytes, when Percentage is 0
	Percentage  float64 // 0 < p ≤ 1
	GracePeriod time.Duration
}

// IsHard reports a hard threshold (evictionapi: no grace period).
func (t Threshold) IsHard() bool { return t.GracePeriod == 0 }

// Value is the threshold in bytes for a node capacity
// (evictionapi.GetThresholdQuantity).
func (t Threshold) Value(capacity int64) int64 {
	if t.Percentage > 0 {
		return int64(float64(capacity) * t.Percentage)
	}
	return t.Quantity
}

// Met reports available below the threshold (the only operator is "<").
func (t Threshold) Met(available, capacity int64) bool { return available < t.Value(capacity) }

func (t Threshold) String() string {
	v := FormatBytes(t.Quantity)
	if t.Percentage > 0 {
		v = strconv.FormatFloat(t.Percentage*100, 'f', -1, 64) + "%"
	}
	return t.Signal + "<" + v
}

// ParseThreshold reads "memory.available<100Mi" or "memory.available<10%"
// (kubelet --eviction-hard syntax; the "<" may be omitted as in the
// KubeletConfiguration map form "memory.available": "100Mi").
func ParseThreshold(s string) (Threshold, error) {
	sig, val, ok := strings.Cut(s, "<")
	if !ok {
		return Threshold{}, fmt.Errorf("eviction threshold %q: want signal<quantity", s)
	}
	return NewThreshold(strings.TrimSpace(sig), strings.TrimSpace(val))
}

// NewThreshold builds a threshold from a signal and a value ("100Mi", "5%").
func NewThreshold(signal, value string) (Threshold, error) {
	if signal != SignalMemoryAvailable {
		return Threshold{}, fmt.Errorf("eviction signal %q is not modelled (only %s)", signal, SignalMemoryAvailable)
	}
	if p, ok := strings.CutSuffix(value, "%"); ok {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || !(f > 0 && f <= 100) { // NaN too
			return Threshold{}, fmt.Errorf("eviction threshold %s<%s: bad percentage", signal, value)
		}
		return Threshold{Signal: signal, Percentage: f / 100}, nil
	}
	q, err := api.ParseQuantity(value)
	if err != nil {
		return Threshold{}, fmt.Errorf("eviction threshold %s<%s: %w", signal, value, err)
	}
	if q < 0 {
		return Threshold{}, fmt.Errorf("eviction threshold %s<%s: negative", signal, value)
	}
	return Threshold{Signal: signal, Quantity: q.Value()}, nil
}

// EvictionConfig is the kubelet's eviction configuration.
type EvictionConfig struct {
	Hard []Threshold
	// Soft thresholds need their GracePeriod (evictionSoftGracePeriod).
	Soft []Threshold
	// MaxPodGracePeriodSeconds caps the grace period of soft evictions
	// (evictionMaxPodGracePeriod, default 0).
	MaxPodGracePeriodSeconds int64
	// MonitoringInterval is the housekeeping interval (10 s).
	MonitoringInterval time.Duration
	// PressureTransitionPeriod keeps a pressure condition True after the
	// signal cleared (evictionPressureTransitionPeriod, 5 m).
	PressureTransitionPeriod time.Duration
}

// DefaultEvictionConfig is the kubelet's Linux default: evictionHard
// memory.available<100Mi, no soft thresholds, 10 s monitoring, 5 m
// pressure transition period (kubelet/apis/config/v1beta1/defaults.go).
func DefaultEvictionConfig() EvictionConfig {
	return EvictionConfig{
		Hard:                     []Threshold{{Signal: SignalMemoryAvailable, Quantity: 100 << 20}},
		MonitoringInterval:       10 * time.Second,
		PressureTransitionPeriod: 5 * time.Minute,
	}
}

func (c EvictionConfig) thresholds() []Threshold {
	out := make([]Threshold, 0, len(c.Hard)+len(c.Soft))
	for _, t := range c.Hard {
		t.GracePeriod = 0
		out = append(out, t)
	}
	return append(out, c.Soft...)
}

// PressureState is what the eviction manager remembers between passes.
type PressureState struct {
	// FirstObserved[i] is when threshold i (hard then soft) was first seen
	// met in the current episode; nil when not met.
	FirstObserved []*api.Time
	// LastObserved is when memory pressure was last observed.
	LastObserved *api.Time
}

// Clone copies the state.
func (s PressureState) Clone() PressureState {
	out := PressureState{FirstObserved: make([]*api.Time, len(s.FirstObserved))}
	for i, t := range s.FirstObserved {
		if t != nil {
			v := *t
			out.FirstObserved[i] = &v
		}
	}
	if s.LastObserved != nil {
		v := *s.LastObserved
		out.LastObserved = &v
	}
	return out
}

// Decision is the outcome of one eviction-manager pass on a node.
type Decision struct {
	// MemoryPressure is the node condition to report.
	MemoryPressure bool
	// Reclaim is true when a threshold met its grace period: evict one pod.
	Reclaim bool
	// Threshold drives the eviction (for the message); Hard tells the
	// grace-period override rule.
	Threshold Threshold
	// ThresholdQuantity and Available are the message's numbers.
	ThresholdQuantity, Available int64
}

// Synchronize is one pass of eviction_manager.go synchronize for memory:
// thresholds met now (hard ones at once, soft ones only after they held for
// their grace period) decide whether to reclaim; the MemoryPressure
// condition is True while any threshold is met and for
// PressureTransitionPeriod afterwards. Among several thresholds met, the
// hard one drives the eviction (upstream takes the first of a map-ordered
// list).
func (c EvictionConfig) Synchronize(state *PressureState, capacity, available int64, now api.Time) Decision {
	ts := c.thresholds()
	if len(state.FirstObserved) != len(ts) {
		state.FirstObserved = make([]*api.Time, len(ts))
	}
	var d Decision
	anyMet := false
	chosen := -1
	for i, t := range ts {
		if !t.Met(available, capacity) {
			state.FirstObserved[i] = nil
			continue
		}
		anyMet = true
		if state.FirstObserved[i] == nil {
			at := now
			state.FirstObserved[i] = &at
		}
		if now.Sub(*state.FirstObserved[i]) < t.GracePeriod {
			continue
		}
		if chosen < 0 || (t.IsHard() && !ts[chosen].IsHard()) {
			chosen = i
		}
	}
	if anyMet {
		at := now
		state.LastObserved = &at
	}
	d.MemoryPressure = state.LastObserved != nil && now.Sub(*state.LastObserved) < c.PressureTransitionPeriod
	if anyMet {
		d.MemoryPressure = true
	}
	if chosen >= 0 {
		d.Reclaim = true
		d.Threshold = ts[chosen]
		d.ThresholdQuantity = ts[chosen].Value(capacity)
		d.Available = available
	}
	return d
}

// GraceOverride is the grace period the kubelet kills an evicted pod
// with: 0 for a hard threshold, min(evictionMaxPodGracePeriod, the pod's
// terminationGracePeriodSeconds) for a soft one (eviction_manager.go).
func (c EvictionConfig) GraceOverride(t Threshold, pod *api.Pod) int64 {
	if t.IsHard() {
		return 0
	}
	g := c.MaxPodGracePeriodSeconds
	if pod.Spec.TerminationGracePeriodSeconds != nil && *pod.Spec.TerminationGracePeriodSeconds < g {
		g = *pod.Spec.TerminationGracePeriodSeconds
	}
	return g
}
