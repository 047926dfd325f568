package interpodaffinity

import (
	"fmt"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

// Selector and term builders so a case reads like upstream's
// st.MakePod().PodAffinityIn(key, topologyKey, values, kind).

func in(key string, vals ...string) *api.LabelSelector {
	return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: key, Operator: api.LabelSelectorOpIn, Values: vals}}}
}

func notIn(key string, vals ...string) *api.LabelSelector {
	return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: key, Operator: api.LabelSelectorOpNotIn, Values: vals}}}
}

func exists(key string) *api.LabelSelector {
	return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: key, Operator: api.LabelSelectorOpExists}}}
}

func exprs(rs ...api.LabelSelectorRequirement) *api.LabelSelector {
	return &api.LabelSelector{MatchExpressions: rs}
}

func term(topologyKey string, s *api.LabelSelector) api.PodAffinityTerm {
	return api.PodAffinityTerm{LabelSelector: s, TopologyKey: topologyKey}
}

// nsTerm is a term with namespaces and/or a namespaceSelector.
func nsTerm(topologyKey string, s *api.LabelSelector, nsSel *api.LabelSelector, namespaces ...string) api.PodAffinityTerm {
	return api.PodAffinityTerm{LabelSelector: s, TopologyKey: topologyKey, NamespaceSelector: nsSel, Namespaces: namespaces}
}

func pod() *tu.PodWrapper { return tu.MakePod() }

func node(name string, labels map[string]string) *api.Node {
	n := tu.MakeNode()
	n.Node.Name = name // no hostname label: upstream's test nodes carry only the given labels
	for k, v := range labels {
		n.Label(k, v)
	}
	return n.Obj()
}

// teamNamespaces are upstream's scoring_test.go namespaces.
func teamNamespaces(s *framework.Snapshot) {
	s.SetNamespace("subteam1.team1", map[string]string{"team": "team1"})
	s.SetNamespace("subteam2.team1", map[string]string{"team": "team1"})
	s.SetNamespace("subteam1.team2", map[string]string{"team": "team2"})
	s.SetNamespace("subteam2.team2", map[string]string{"team": "team2"})
}

// snapshot builds the cluster; unnamed pods get names p0, p1… (the
// snapshot keys pods by namespace/name).
func snapshot(nodes []*api.Node, pods []*api.Pod) *framework.Snapshot {
	for i, p := range pods {
		if p.Name == "" {
			p.Name = fmt.Sprintf("p%d", i)
		}
	}
	s := tu.NewSnapshot(nodes, pods)
	teamNamespaces(s)
	return s
}
