package noderesources

import (
	"sort"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
)

// Name is NodeResourcesFit's name in profiles and explanations.
const Name = "NodeResourcesFit"

// Reasons, exactly as upstream (fit.go fitsRequest). An extended resource
// r is reported as "Insufficient r".
const (
	ErrReasonTooManyPods               = "Too many pods"
	ErrReasonInsufficientCPU           = "Insufficient cpu"
	ErrReasonInsufficientMemory        = "Insufficient memory"
	ErrReasonInsufficientEphemeralDisk = "Insufficient ephemeral-storage"
	errReasonInsufficientPrefix        = "Insufficient "
)

const preFilterStateKey framework.StateKey = "PreFilter" + Name

// Fit is the NodeResourcesFit plugin.
type Fit struct {
	preFilter cyclecache.Cache[*preFilterState]
	preScore  cyclecache.Cache[*fitPreScoreState]
	// args are the plugin's arguments; custom scores them when they are
	// not the defaults (nil: the LeastAllocated cpu+memory fast paths).
	args   FitArgs
	custom *resourceScorer
}

var (
	_ framework.PreFilterPlugin = (*Fit)(nil)
	_ framework.FilterPlugin    = (*Fit)(nil)
	_ framework.PreScorePlugin  = (*Fit)(nil)
	_ framework.ScorePlugin     = (*Fit)(nil)
	_ framework.Explainer       = (*Fit)(nil)
)

// NewFit returns NodeResourcesFit with the default LeastAllocated scoring.
func NewFit() *Fit { return &Fit{args: DefaultFitArgs()} }

// NewFitWithArgs returns NodeResourcesFit with defaulted, valid args
// (ValidateFitArgs): the scoring strategy and the extended resources
// Filter ignores.
func NewFitWithArgs(args FitArgs) *Fit {
	f := &Fit{args: args}
	if !args.isDefault() {
		f.custom = newFitScorer(args.ScoringStrategy)
	}
	return f
}

// Args returns the plugin's arguments.
func (f *Fit) Args() FitArgs { return f.args }

// Name implements framework.Plugin.
func (*Fit) Name() string { return Name }

// scalarRequest is one extended resource the pod asks for.
type scalarRequest struct {
	name   string
	amount int64
	reason string
}

// preFilterState is the pod's effective requests, with the extended
// resources sorted by name so reasons come out in a stable order
// (upstream iterates a map, so its order among several insufficient
// extended resources is random).
type preFilterState struct {
	api.Resources
	scalars []scalarRequest
	// index is the snapshot's allocation index (nil without PreFilter).
	index *allocIndex
}

// Clone implements framework.StateData; the state is immutable.
func (s *preFilterState) Clone() framework.StateData { return s }

func computePreFilterState(pod *framework.PodInfo) *preFilterState {
	return computePreFilterStateIgnoring(pod, nil)
}

// computePreFilterStateIgnoring leaves out the extended resources args
// ignore (nil: none).
func computePreFilterStateIgnoring(pod *framework.PodInfo, args *FitArgs) *preFilterState {
	s := &preFilterState{Resources: pod.Requests}
	if len(pod.Requests.Scalar) > 0 {
		names := make([]string, 0, len(pod.Requests.Scalar))
		for n, q := range pod.Requests.Scalar {
			if q != 0 && (args == nil || !args.ignored(n)) {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		for _, n := range names {
			s.scalars = append(s.scalars, scalarRequest{name: n, amount: pod.Requests.Scalar[n], reason: errReasonInsufficientPrefix + n})
		}
	}
	return s
}

// PreFilter implements framework.PreFilterPlugin: the pod's requests,
// computed once (framework.PodInfo.Requests: component-helpers
// PodRequests with pod-level resources and sidecars).
func (f *Fit) PreFilter(state *framework.CycleState, pod *framework.PodInfo, snap *framework.Snapshot) (*framework.PreFilterResult, *framework.Status) {
	s := f.computePreFilterState(pod)
	if snap != nil {
		s.index = allocIndexOf(snap)
	}
	state.Write(preFilterStateKey, s)
	f.preFilter.Store(state, s)
	return nil, nil
}

// PreFilterExtensions implements framework.PreFilterPlugin: none (the
// requested totals live in the NodeInfo a dry run edits).
func (*Fit) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter implements framework.FilterPlugin. The status is Unschedulable,
// or UnschedulableAndUnresolvable when some request exceeds the node's
// whole allocatable (no eviction can make room).
func (f *Fit) Filter(state *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) *framework.Status {
	s, ok := cyclecache.Get(&f.preFilter, state, preFilterStateKey)
	if !ok || s == nil {
		s = f.computePreFilterState(pod)
	}
	if e := s.index.freeEntry(node); e != nil && len(s.scalars) == 0 {
		if e.pods >= 1 && (s.MilliCPU <= 0 || s.MilliCPU <= e.cpu) && (s.Memory <= 0 || s.Memory <= e.mem) &&
			(s.EphemeralStorage <= 0 || s.EphemeralStorage <= e.ephemeral) {
			return nil
		}
	} else if fitsQuick(s, node) {
		return nil
	}
	return statusOf(fitsRequest(s, node))
}

// computePreFilterState is the pod's requests less the ignored resources.
func (f *Fit) computePreFilterState(pod *framework.PodInfo) *preFilterState {
	if len(f.args.IgnoredResources) == 0 && len(f.args.IgnoredResourceGroups) == 0 {
		return computePreFilterState(pod)
	}
	return computePreFilterStateIgnoring(pod, &f.args)
}

// statusOf turns what a node lacks into Filter's status (nil if nothing).
func statusOf(insufficient []InsufficientResource) *framework.Status {
	if len(insufficient) == 0 {
		return nil
	}
	code := framework.Unschedulable
	reasons := make([]string, len(insufficient))
	for i := range insufficient {
		reasons[i] = insufficient[i].Reason
		if insufficient[i].Unresolvable {
			code = framework.UnschedulableAndUnresolvable
		}
	}
	return framework.NewStatus(code, reasons...)
}

// fitsQuick is the allocation-free common case of fitsRequest: true when
// nothing is insufficient.
func fitsQuick(s *preFilterState, node *framework.NodeInfo) bool {
	alloc, used := &node.Allocatable, &node.Requested
	if int64(len(node.Pods))+1 > alloc.AllowedPods {
		return false
	}
	if s.MilliCPU > 0 && s.MilliCPU > alloc.MilliCPU-used.MilliCPU {
		return false
	}
	if s.Memory > 0 && s.Memory > alloc.Memory-used.Memory {
		return false
	}
	if s.EphemeralStorage > 0 && s.EphemeralStorage > alloc.EphemeralStorage-used.EphemeralStorage {
		return false
	}
	for i := range s.scalars {
		r := &s.scalars[i]
		if r.amount > alloc.Scalar[r.name]-used.Scalar[r.name] {
			return false
		}
	}
	return true
}

// InsufficientResource describes a resource the node lacks for the pod
// (fit.go InsufficientResource).
type InsufficientResource struct {
	ResourceName string
	Reason       string
	Requested    int64
	Used         int64
	Capacity     int64
	// Unresolvable: the request exceeds the node's whole allocatable.
	Unresolvable bool
}

// Fits lists what the node lacks for the pod (fit.go Fits), in upstream's
// order: pods, cpu, memory, ephemeral-storage, extended resources (sorted
// by name). Empty when the pod fits.
func Fits(pod *framework.PodInfo, node *framework.NodeInfo) []InsufficientResource {
	return fitsRequest(computePreFilterState(pod), node)
}

func fitsRequest(s *preFilterState, node *framework.NodeInfo) []InsufficientResource {
	var out []InsufficientResource
	alloc, used := &node.Allocatable, &node.Requested
	if int64(len(node.Pods))+1 > alloc.AllowedPods {
		out = append(out, InsufficientResource{
			ResourceName: api.ResourcePods, Reason: ErrReasonTooManyPods,
			Requested: 1, Used: int64(len(node.Pods)), Capacity: alloc.AllowedPods,
		})
	}
	if s.MilliCPU == 0 && s.Memory == 0 && s.EphemeralStorage == 0 && len(s.Scalar) == 0 {
		return out
	}
	if s.MilliCPU > 0 && s.MilliCPU > alloc.MilliCPU-used.MilliCPU {
		out = append(out, InsufficientResource{
			ResourceName: api.ResourceCPU, Reason: ErrReasonInsufficientCPU,
			Requested: s.MilliCPU, Used: used.MilliCPU, Capacity: alloc.MilliCPU,
			Unresolvable: s.MilliCPU > alloc.MilliCPU,
		})
	}
	if s.Memory > 0 && s.Memory > alloc.Memory-used.Memory {
		out = append(out, InsufficientResource{
			ResourceName: api.ResourceMemory, Reason: ErrReasonInsufficientMemory,
			Requested: s.Memory, Used: used.Memory, Capacity: alloc.Memory,
			Unresolvable: s.Memory > alloc.Memory,
		})
	}
	if s.EphemeralStorage > 0 && s.EphemeralStorage > alloc.EphemeralStorage-used.EphemeralStorage {
		out = append(out, InsufficientResource{
			ResourceName: api.ResourceEphemeralStorage, Reason: ErrReasonInsufficientEphemeralDisk,
			Requested: s.EphemeralStorage, Used: used.EphemeralStorage, Capacity: alloc.EphemeralStorage,
			Unresolvable: s.EphemeralStorage > alloc.EphemeralStorage,
		})
	}
	for i := range s.scalars {
		r := &s.scalars[i]
		capacity, inUse := alloc.Scalar[r.name], used.Scalar[r.name]
		if r.amount > capacity-inUse {
			out = append(out, InsufficientResource{
				ResourceName: r.name, Reason: r.reason,
				Requested: r.amount, Used: inUse, Capacity: capacity,
				Unresolvable: r.amount > capacity,
			})
		}
	}
	return out
}
