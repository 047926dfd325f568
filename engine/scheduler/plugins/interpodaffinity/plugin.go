// Package interpodaffinity is kube-scheduler's InterPodAffinity plugin
// (pkg/scheduler/framework/plugins/interpodaffinity, v1.36): required pod
// affinity and anti-affinity as a filter, preferred terms (and the
// required affinity of existing pods, weight 1) as a score.
//
// The per-pod work happens once in PreFilter/PreScore: matching pods are
// counted per topology domain into arrays indexed by the snapshot's
// domain ids (framework.Snapshot.Topology), so Filter and Score are a few
// array reads per node. Pods are scanned only when the incoming pod has
// terms of the kind at hand, or through NodeInfo.PodsWithAffinity /
// PodsWithRequiredAntiAffinity for existing pods' terms.
//
// It imports engine/api and engine/scheduler/framework only.
package interpodaffinity

import (
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
)

// Name is the plugin's name in the profile (names.InterPodAffinity).
const Name = "InterPodAffinity"

// Reasons, exactly as upstream prints them (filtering.go).
const (
	// ErrReasonExistingAntiAffinityRulesNotMatch: an existing pod's
	// required anti-affinity forbids the incoming pod in this domain.
	ErrReasonExistingAntiAffinityRulesNotMatch = "node(s) didn't satisfy existing pods anti-affinity rules"
	// ErrReasonAffinityRulesNotMatch: the incoming pod's required affinity
	// finds no matching pod in this node's domain.
	ErrReasonAffinityRulesNotMatch = "node(s) didn't match pod affinity rules"
	// ErrReasonAntiAffinityRulesNotMatch: the incoming pod's required
	// anti-affinity matches a pod in this node's domain.
	ErrReasonAntiAffinityRulesNotMatch = "node(s) didn't match pod anti-affinity rules"
)

// HardPodAffinityWeight is the score an existing pod's *required* affinity
// term adds when the incoming pod matches it (InterPodAffinityArgs default).
const HardPodAffinityWeight int32 = 1

// Args are InterPodAffinityArgs after defaulting (defaults.go
// SetDefaults_InterPodAffinityArgs: hardPodAffinityWeight 1).
type Args struct {
	// HardPodAffinityWeight (0..100) is what an existing pod's required
	// affinity term adds when the incoming pod matches it; 0 turns that off.
	HardPodAffinityWeight int32
	// IgnorePreferredTermsOfExistingPods skips scoring (PreScore Skip) for
	// a pod without preferred inter-pod terms of its own.
	IgnorePreferredTermsOfExistingPods bool
}

// DefaultArgs are the defaulted InterPodAffinityArgs.
func DefaultArgs() Args { return Args{HardPodAffinityWeight: HardPodAffinityWeight} }

// Plugin is the InterPodAffinity plugin.
type Plugin struct {
	args Args
	// Filter and Score reach the state of the current cycle through these
	// without a CycleState lookup per node (clones fall back to the state).
	lastFilter cyclecache.Cache[*preFilterState]
	lastScore  cyclecache.Cache[*preScoreState]
}

var (
	_ framework.PreFilterPlugin     = (*Plugin)(nil)
	_ framework.PreFilterExtensions = (*Plugin)(nil)
	_ framework.FilterPlugin        = (*Plugin)(nil)
	_ framework.PreScorePlugin      = (*Plugin)(nil)
	_ framework.ScorePlugin         = (*Plugin)(nil)
	_ framework.ScoreExtensions     = (*Plugin)(nil)
	_ framework.Explainer           = (*Plugin)(nil)
)

// New returns the plugin.
func New() *Plugin { return &Plugin{args: DefaultArgs()} }

// NewWithArgs returns the plugin with defaulted, valid args.
func NewWithArgs(args Args) *Plugin { return &Plugin{args: args} }

// Args returns the plugin's arguments.
func (pl *Plugin) Args() Args { return pl.args }

// Name implements framework.Plugin.
func (*Plugin) Name() string { return Name }
