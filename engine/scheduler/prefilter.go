package scheduler

import (
	"fmt"
	"sort"
	"strings"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// runPreFilter runs every PreFilter plugin as frameworkImpl.RunPreFilterPlugins
// (pkg/scheduler/framework/runtime/framework.go): Skip marks the plugin to
// be skipped in Filter; UnschedulableAndUnresolvable stops at once;
// Unschedulable is remembered and the remaining plugins still run (so
// preemption sees their state, kubernetes#119770); PreFilterResults are
// intersected, and an empty intersection rejects the pod with "node(s)
// didn't satisfy plugin(s) …". It returns the merged result, the status
// and the plugins that narrowed the node set.
func (s *Scheduler) runPreFilter(state *framework.CycleState, pi *framework.PodInfo) (*framework.PreFilterResult, *framework.Status, []string) {
	var (
		result        *framework.PreFilterResult
		returnStatus  *framework.Status
		narrowing     []string
		skipFilterSet map[string]bool
		skipMask      uint64
	)
	plugins := s.prof.preFilter
	maskable := skipMaskable(plugins)
	defer func() {
		if maskable {
			skipFilterSet = s.skipSetOf(false, skipMask, func(i int) string { return plugins[i].Name() })
		}
		state.SkipFilterPlugins = skipFilterSet
	}()
	for i, pl := range plugins {
		r, st := pl.PreFilter(state, pi, s.snap)
		if st.IsSkip() {
			if maskable {
				skipMask |= 1 << i
				continue
			}
			if skipFilterSet == nil {
				skipFilterSet = map[string]bool{}
			}
			skipFilterSet[pl.Name()] = true
			continue
		}
		if !st.IsSuccess() {
			st = st.WithPlugin(pl.Name())
			switch st.Code {
			case framework.UnschedulableAndUnresolvable:
				return nil, st, nil
			case framework.Unschedulable:
				returnStatus = st
				continue
			default:
				return nil, errorStatus(fmt.Errorf("running PreFilter plugin %q: %w", pl.Name(), statusError(st)), pl.Name()), nil
			}
		}
		if !r.AllNodes() {
			narrowing = append(narrowing, pl.Name())
		}
		result = mergePreFilterResults(result, r)
		if !result.AllNodes() && len(result.NodeNames) == 0 {
			sort.Strings(narrowing)
			msg := fmt.Sprintf("node(s) didn't satisfy plugin(s) %v simultaneously", narrowing)
			if len(narrowing) == 1 {
				msg = fmt.Sprintf("node(s) didn't satisfy plugin %v", narrowing[0])
			}
			return result, framework.NewStatus(framework.UnschedulableAndUnresolvable, msg), narrowing
		}
	}
	sort.Strings(narrowing)
	return result, returnStatus, narrowing
}

// mergePreFilterResults intersects two results as PreFilterResult.Merge
// (nil / nil NodeNames means all nodes). It never aliases a plugin's map.
func mergePreFilterResults(p, in *framework.PreFilterResult) *framework.PreFilterResult {
	if p.AllNodes() && in.AllNodes() {
		return nil
	}
	r := &framework.PreFilterResult{NodeNames: map[string]struct{}{}}
	switch {
	case p.AllNodes():
		for n := range in.NodeNames {
			r.NodeNames[n] = struct{}{}
		}
	case in.AllNodes():
		for n := range p.NodeNames {
			r.NodeNames[n] = struct{}{}
		}
	default:
		for n := range p.NodeNames {
			if _, ok := in.NodeNames[n]; ok {
				r.NodeNames[n] = struct{}{}
			}
		}
	}
	return r
}

// narrowedStatus is the status of nodes a PreFilterResult left out, as
// findNodesThatFitPod sets for absent nodes.
func narrowedStatus(plugins []string) *framework.Status {
	return framework.NewStatus(framework.UnschedulableAndUnresolvable,
		fmt.Sprintf("node(s) didn't satisfy plugin(s) %v", plugins))
}

func errorStatus(err error, plugin string) *framework.Status {
	st := framework.AsStatus(err)
	st.Plugin = plugin
	return st
}

// statusError returns the error a status stands for (Status.AsError).
func statusError(st *framework.Status) error {
	if st == nil {
		return nil
	}
	if st.Err != nil {
		return st.Err
	}
	return fmt.Errorf("%s", strings.Join(st.Reasons, ", "))
}
