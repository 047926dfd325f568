package descheduler

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// The *_upstream_test.go files port upstream's plugin unit-test tables
// (kubernetes-sigs/descheduler at 7d2b28bf, the v0.36 line); each case
// names its upstream case and the file:line where it starts.

// upstreamNow is the virtual "now" of the ported cases: an hour after
// the builders' zero creation/start time.
const upstreamNow = api.Time(3600e9)

// runDirect runs the plugins of one profile over nodes and pods as
// upstream's tests do, by calling the plugin directly: unlike Run, no
// ">=2 nodes" cycle guard (many upstream cases have one node). Every
// eviction is accepted. It returns the evicted pods' names, sorted.
func runDirect(t *testing.T, pol *Policy, s *State) []string {
	t.Helper()
	if s.Now == 0 {
		s.Now = upstreamNow
	}
	res := &Result{At: s.Now}
	v := newView(s, pol.NodeSelector)
	ps := &pass{policy: pol, v: v, evictFn: func(*api.Pod, *Eviction) string { return "" }, res: res, perNode: map[string]uint{}, perNS: map[string]uint{}}
	for i := range pol.Profiles {
		pr := &pol.Profiles[i]
		ev, err := newEvictor(pr.Evictor, v)
		if err != nil {
			t.Fatalf("evictor: %v", err)
		}
		for _, name := range append(append([]string(nil), pr.Deschedule...), pr.Balance...) {
			if ps.plugin(pr, ev, name) {
				break
			}
		}
	}
	var names []string
	for _, e := range res.Evictions {
		if e.Evicted {
			names = append(names, e.Pod[strings.IndexByte(e.Pod, '/')+1:])
		}
	}
	sort.Strings(names)
	return names
}

// oneProfile is a policy with one profile enabling plugin.
func oneProfile(plugin string, ev EvictorArgs, args PluginArgs) *Policy {
	pr := Profile{Name: "test", Evictor: ev, Args: args}
	if slices.Contains(BalancePlugins, plugin) {
		pr.Balance = []string{plugin}
	} else {
		pr.Deschedule = []string{plugin}
	}
	return &Policy{Profiles: []Profile{pr}}
}

func withCreation(at api.Time) func(*api.Pod) {
	return func(p *api.Pod) { p.CreationTimestamp = at }
}

func terminating(p *api.Pod) {
	at := api.Time(0)
	p.DeletionTimestamp = &at
}

// matchLabels is a metav1.LabelSelector with only matchLabels.
func matchLabels(kv ...string) *api.Selector {
	set := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		set[kv[i]] = kv[i+1]
	}
	s := api.SelectorFromSet(set)
	return &s
}
