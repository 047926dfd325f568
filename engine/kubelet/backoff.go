package kubelet

import (
	"time"

	"podlab.dev/podlab/engine/api"
)

// CrashLoopBackOff timing of kubelet v1.36: backOffPeriod 10s
// (pkg/kubelet/kubelet.go) doubling up to MaxContainerBackOff 300s
// (pkg/kubelet/apis/config/v1beta1/defaults.go). KubeletCrashLoopBackOffMax
// (beta, on) changes the cap only when the kubelet configures
// crashLoopBackOff.maxContainerRestartPeriod, which the lab does not;
// ReduceDefaultCrashLoopBackOffDecay (1s/60s) is alpha and off.
const (
	InitialBackOff = 10 * time.Second
	MaxBackOff     = 300 * time.Second
)

// BackOff is one container's entry of the kubelet's flowcontrol.Backoff
// (key: pod + container).
type BackOff struct {
	Set        bool
	Delay      time.Duration
	LastUpdate api.Time
}

// expired is flowcontrol hasExpired: after 2×max (ten minutes) without
// an update the entry starts over — a container that ran that long
// restarts at once.
func (b BackOff) expired(event api.Time) bool {
	return event.Sub(b.LastUpdate) > 2*MaxBackOff
}

// InBackOffSince is Backoff.IsInBackOffSince as kuberuntime doBackOff
// asks it: is a container that exited at finished still backing off now?
func (b BackOff) InBackOffSince(finished, now api.Time) bool {
	if !b.Set || b.expired(finished) {
		return false
	}
	return now.Sub(finished) < b.Delay
}

// Next is Backoff.Next: the first restart (or one after an expired entry)
// records the initial delay, every later one doubles it up to the cap.
func (b BackOff) Next(finished, now api.Time) BackOff {
	if !b.Set || b.expired(finished) {
		return BackOff{Set: true, Delay: InitialBackOff, LastUpdate: now}
	}
	return BackOff{Set: true, Delay: min(2*b.Delay, MaxBackOff), LastUpdate: now}
}

// RestartAt is doBackOff for a container that exited at finished, asked
// at finished: when the kubelet starts it again and the entry after
// that start. The first restart is immediate (no entry yet), the next
// waits 10s, then 20s, 40s … 300s; ten minutes between restarts resets it.
func (b BackOff) RestartAt(finished api.Time) (api.Time, BackOff) {
	if b.InBackOffSince(finished, finished) {
		at := finished.Add(b.Delay)
		return at, b.Next(finished, at)
	}
	return finished, b.Next(finished, finished)
}
