package gen

import (
	"fmt"
	"sort"
)

func (g *gen) pendingPod(i int) {
	labels := g.podLabels()
	cpu, mem := g.requests(g.chance(0.3))
	if g.chance(0.04) {
		cpu = 64000 // more than any node: unresolvable everywhere
	}
	p := g.pod(fmt.Sprintf("pending-%02d", i), pick(g, g.nsList), labels, cpu, mem)
	spec := p["spec"].(obj)
	app := spec["containers"].([]any)[0].(obj)
	reqs := app["resources"].(obj)["requests"].(obj)
	if g.chance(0.1) {
		reqs["example.com/gpu"] = "1"
		app["resources"].(obj)["limits"] = obj{"example.com/gpu": "1"}
	}
	if g.chance(0.1) {
		reqs["ephemeral-storage"] = pick(g, []string{"1Gi", "15Gi", "50Gi"})
	}
	// A stale nomination from an earlier cycle: tried first. (Both random
	// draws happen either way, so NoNominations changes nothing else.)
	if nominate, node := g.chance(0.05), pick(g, g.nodes).name; nominate && !g.cfg.NoNominations {
		p["status"] = obj{"nominatedNodeName": node}
	}
	if g.chance(0.2) {
		spec["nodeSelector"] = g.nodeSelector()
	}
	aff := obj{}
	if na := g.nodeAffinity(); na != nil {
		aff["nodeAffinity"] = na
	}
	if g.chance(0.35) {
		for k, v := range g.podAffinity(labels, false) {
			aff[k] = v
		}
	}
	if len(aff) > 0 {
		spec["affinity"] = aff
	}
	if g.chance(0.5) {
		spec["tolerations"] = g.tolerations()
	}
	if g.chance(0.65) {
		spec["topologySpreadConstraints"] = g.spreadConstraints(labels)
	}
	g.docs = append(g.docs, p)
}

// nodeSelector picks an existing label of a random node, or (rarely) a
// value no node has.
func (g *gen) nodeSelector() obj {
	nd := pick(g, g.nodes)
	keys := sortedKeys(nd.labels)
	k := pick(g, keys)
	v := nd.labels[k]
	if g.chance(0.1) {
		v = "nowhere"
	}
	return obj{k: v}
}

func (g *gen) nodeSelectorRequirement() obj {
	switch g.intn(6) {
	case 0:
		return obj{"key": keyZone, "operator": "In", "values": g.someZones()}
	case 1:
		return obj{"key": keyZone, "operator": "NotIn", "values": g.someZones()}
	case 2:
		return obj{"key": keyDisk, "operator": pick(g, []string{"Exists", "DoesNotExist"})}
	case 3:
		return obj{"key": keyGen, "operator": pick(g, []string{"Gt", "Lt"}), "values": []any{fmt.Sprint(g.between(1, 4))}}
	case 4:
		return obj{"key": keyRack, "operator": "In", "values": []any{pick(g, []string{"r1", "r2", "r3"})}}
	default:
		return obj{"key": keyDisk, "operator": "In", "values": []any{pick(g, []string{"ssd", "hdd"})}}
	}
}

func (g *gen) someZones() []any {
	var out []any
	for _, z := range g.zones {
		if g.chance(0.5) {
			out = append(out, z)
		}
	}
	if len(out) == 0 {
		out = append(out, g.zones[0])
	}
	return out
}

func (g *gen) nodeSelectorTerm() obj {
	var reqs []any
	for j, n := 0, g.between(1, 2); j < n; j++ {
		reqs = append(reqs, g.nodeSelectorRequirement())
	}
	return obj{"matchExpressions": reqs}
}

func (g *gen) nodeAffinity() obj {
	na := obj{}
	if g.chance(0.25) {
		var terms []any
		for j, n := 0, g.between(1, 2); j < n; j++ {
			t := g.nodeSelectorTerm()
			if g.chance(0.2) {
				// matchFields on metadata.name: NodeAffinity's PreFilter
				// narrows the nodes (one value per requirement, as validated).
				t["matchFields"] = []any{obj{"key": "metadata.name", "operator": pick(g, []string{"In", "In", "NotIn"}),
					"values": []any{pick(g, g.nodes).name}}}
				if g.chance(0.5) {
					delete(t, "matchExpressions")
				}
			}
			terms = append(terms, t)
		}
		na["requiredDuringSchedulingIgnoredDuringExecution"] = obj{"nodeSelectorTerms": terms}
	}
	if g.chance(0.3) {
		var terms []any
		for j, n := 0, g.between(1, 2); j < n; j++ {
			terms = append(terms, obj{"weight": g.between(1, 100), "preference": g.nodeSelectorTerm()})
		}
		na["preferredDuringSchedulingIgnoredDuringExecution"] = terms
	}
	if len(na) == 0 {
		return nil
	}
	return na
}

func (g *gen) topologyKey() string {
	return pick(g, []string{keyZone, keyZone, keyHostname, keyRack})
}

func (g *gen) labelSelector() obj {
	sel := obj{}
	switch g.intn(4) {
	case 0, 1:
		sel["matchLabels"] = obj{"app": pick(g, g.apps)}
	case 2:
		sel["matchExpressions"] = []any{obj{"key": "app", "operator": "In", "values": g.someApps()}}
	default:
		sel["matchLabels"] = obj{"app": pick(g, g.apps)}
		op := pick(g, []string{"NotIn", "Exists", "DoesNotExist"})
		req := obj{"key": "tier", "operator": op}
		if op == "NotIn" {
			req["values"] = []any{pick(g, []string{"fe", "be"})}
		}
		sel["matchExpressions"] = []any{req}
	}
	return sel
}

func (g *gen) someApps() []any {
	var out []any
	for _, a := range g.apps {
		if g.chance(0.5) {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		out = append(out, g.apps[0])
	}
	return out
}

func (g *gen) affinityTerm(own map[string]string) obj {
	t := obj{"topologyKey": g.topologyKey(), "labelSelector": g.labelSelector()}
	switch g.intn(6) {
	case 0:
		t["namespaces"] = []any{pick(g, g.nsList)}
	case 1:
		t["namespaceSelector"] = obj{}
	case 2:
		t["namespaceSelector"] = obj{"matchLabels": obj{"team": "a"}}
	}
	if _, ok := own[keyHash]; ok && g.chance(0.3) {
		t["matchLabelKeys"] = []any{keyHash}
	}
	return t
}

// podAffinity returns affinity and/or anti-affinity, required and/or
// preferred terms.
func (g *gen) podAffinity(own map[string]string, bound bool) obj {
	out := obj{}
	for _, kind := range []string{"podAffinity", "podAntiAffinity"} {
		if !g.chance(0.6) {
			continue
		}
		a := obj{}
		if g.chance(0.5) && !(bound && kind == "podAffinity") {
			a["requiredDuringSchedulingIgnoredDuringExecution"] = []any{g.affinityTerm(own)}
		}
		if g.chance(0.6) {
			var terms []any
			for j, n := 0, g.between(1, 2); j < n; j++ {
				terms = append(terms, obj{"weight": g.between(1, 100), "podAffinityTerm": g.affinityTerm(own)})
			}
			a["preferredDuringSchedulingIgnoredDuringExecution"] = terms
		}
		if len(a) > 0 {
			out[kind] = a
		}
	}
	if len(out) == 0 {
		out["podAntiAffinity"] = obj{"requiredDuringSchedulingIgnoredDuringExecution": []any{g.affinityTerm(own)}}
	}
	return out
}

func (g *gen) tolerations() []any {
	var out []any
	for j, n := 0, g.between(1, 3); j < n; j++ {
		t := obj{"key": pick(g, []string{"dedicated", "gpu", "spot", "other"})}
		if g.chance(0.5) {
			t["operator"] = "Exists"
		} else {
			t["operator"] = "Equal"
			t["value"] = pick(g, []string{"a", "b", "true"})
		}
		if g.chance(0.7) {
			t["effect"] = pick(g, []string{"NoSchedule", "PreferNoSchedule", "NoExecute"})
		}
		out = append(out, t)
	}
	if g.chance(0.1) {
		out = append(out, obj{"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"})
	}
	return out
}

func (g *gen) spreadConstraints(own map[string]string) []any {
	keys := []string{keyZone, keyHostname, keyRack}
	g.r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	n := g.between(1, 3)
	var out []any
	for _, key := range keys[:n] {
		c := obj{"maxSkew": g.between(1, 3), "topologyKey": key,
			"whenUnsatisfiable": pick(g, []string{"DoNotSchedule", "ScheduleAnyway"})}
		sel := g.labelSelector()
		if g.chance(0.7) {
			// Usually select the pod's own app so it counts itself.
			sel = obj{"matchLabels": obj{"app": own["app"]}}
			if g.chance(0.3) {
				sel["matchExpressions"] = []any{obj{"key": "tier", "operator": pick(g, []string{"Exists", "DoesNotExist"})}}
			}
		}
		c["labelSelector"] = sel
		if c["whenUnsatisfiable"] == "DoNotSchedule" && g.chance(0.3) {
			c["minDomains"] = g.between(1, 5)
		}
		if g.chance(0.35) {
			c["nodeAffinityPolicy"] = pick(g, []string{"Honor", "Ignore"})
		}
		if g.chance(0.35) {
			c["nodeTaintsPolicy"] = pick(g, []string{"Honor", "Ignore"})
		}
		if _, ok := own[keyHash]; ok && g.chance(0.4) && !selectorUses(sel, keyHash) {
			c["matchLabelKeys"] = []any{keyHash}
		}
		out = append(out, c)
	}
	return out
}

func selectorUses(sel obj, key string) bool {
	if ml, ok := sel["matchLabels"].(obj); ok {
		if _, ok := ml[key]; ok {
			return true
		}
	}
	if me, ok := sel["matchExpressions"].([]any); ok {
		for _, r := range me {
			if r.(obj)["key"] == key {
				return true
			}
		}
	}
	return false
}

func (g *gen) pdbs() {
	for j, n := 0, g.between(1, 2); j < n; j++ {
		spec := obj{"selector": obj{"matchLabels": obj{"app": pick(g, g.apps)}}}
		switch g.intn(4) {
		case 0:
			spec["minAvailable"] = g.between(1, 3)
		case 1:
			spec["minAvailable"] = pick(g, []string{"50%", "80%"})
		case 2:
			spec["maxUnavailable"] = g.between(0, 2)
		default:
			spec["maxUnavailable"] = "25%"
		}
		g.docs = append(g.docs, obj{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
			"metadata": obj{"name": fmt.Sprintf("pdb-%d", j), "namespace": pick(g, g.nsList)}, "spec": spec})
	}
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
