package podtopologyspread

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// reference is a literal transcription of upstream's filtering.go and
// scoring.go (label maps, a scan of every node's pods per call), used to
// check the indexed implementation on random clusters as they change.
type reference struct {
	pl   *Plugin
	snap *framework.Snapshot
}

func refCount(pods []*framework.PodInfo, sel api.Selector, ns string) int {
	if sel.Empty() {
		return 0
	}
	n := 0
	for _, pi := range pods {
		p := pi.Pod
		if p.DeletionTimestamp != nil || p.Namespace != ns {
			continue
		}
		if sel.Matches(p.Labels) {
			n++
		}
	}
	return n
}

func refHasKeys(labels map[string]string, cs []constraint) bool {
	for _, c := range cs {
		if _, ok := labels[c.TopologyKey]; !ok {
			return false
		}
	}
	return true
}

func refIncludes(c *constraint, pod *api.Pod, node *api.Node) bool {
	if c.NodeAffinityPolicy == api.PolicyHonor && !api.PodMatchesNodeSelectorAndAffinityTerms(pod, node) {
		return false
	}
	if c.NodeTaintsPolicy == api.PolicyHonor {
		if _, bad := api.FindUntoleratedTaint(node.Spec.Taints, pod.Spec.Tolerations, api.DoNotScheduleTaint); bad {
			return false
		}
	}
	return true
}

func (r *reference) filter(pod *api.Pod) (map[string]framework.Code, error) {
	cs, err := r.pl.constraintsFor(pod, api.DoNotSchedule)
	if err != nil {
		return nil, err
	}
	out := map[string]framework.Code{}
	if len(cs) == 0 {
		for _, ni := range r.snap.Nodes() {
			out[ni.Node.Name] = framework.Success
		}
		return out, nil
	}
	tp := make([]map[string]int, len(cs))
	for i := range tp {
		tp[i] = map[string]int{}
	}
	for _, ni := range r.snap.Nodes() {
		if !refHasKeys(ni.Node.Labels, cs) {
			continue
		}
		for i := range cs {
			if !refIncludes(&cs[i], pod, ni.Node) {
				continue
			}
			tp[i][ni.Node.Labels[cs[i].TopologyKey]] += refCount(ni.Pods, cs[i].Selector, pod.Namespace)
		}
	}
nodes:
	for _, ni := range r.snap.Nodes() {
		out[ni.Node.Name] = framework.Success
		for i, c := range cs {
			v, ok := ni.Node.Labels[c.TopologyKey]
			if !ok {
				out[ni.Node.Name] = framework.UnschedulableAndUnresolvable
				continue nodes
			}
			minNum := math.MaxInt32
			for _, n := range tp[i] {
				minNum = min(minNum, n)
			}
			if len(tp[i]) < int(c.MinDomains) {
				minNum = 0
			}
			self := 0
			if c.Selector.Matches(pod.Labels) {
				self = 1
			}
			if tp[i][v]+self-minNum > int(c.MaxSkew) {
				out[ni.Node.Name] = framework.Unschedulable
				continue nodes
			}
		}
	}
	return out, nil
}

// scores returns normalised scores for the feasible nodes, or nil when
// PreScore would skip.
func (r *reference) scores(pod *api.Pod, feasible []*framework.NodeInfo) (map[string]int64, error) {
	cs, err := r.pl.constraintsFor(pod, api.ScheduleAnyway)
	if err != nil {
		return nil, err
	}
	if len(cs) == 0 {
		return nil, nil
	}
	requireAll := len(pod.Spec.TopologySpreadConstraints) > 0 || !r.pl.systemDefaulted
	ignored := map[string]bool{}
	counts := make([]map[string]int, len(cs))
	size := make([]int, len(cs))
	for i := range counts {
		counts[i] = map[string]int{}
	}
	for _, ni := range feasible {
		if requireAll && !refHasKeys(ni.Node.Labels, cs) {
			ignored[ni.Node.Name] = true
			continue
		}
		for i, c := range cs {
			if c.TopologyKey == api.LabelHostname {
				continue
			}
			v := ni.Node.Labels[c.TopologyKey]
			if _, ok := counts[i][v]; !ok {
				counts[i][v] = 0
				size[i]++
			}
		}
	}
	weights := make([]float64, len(cs))
	for i, c := range cs {
		sz := size[i]
		if c.TopologyKey == api.LabelHostname {
			sz = len(feasible) - len(ignored)
		}
		weights[i] = math.Log(float64(sz + 2))
	}
	for _, ni := range r.snap.Nodes() {
		if requireAll && !refHasKeys(ni.Node.Labels, cs) {
			continue
		}
		for i := range cs {
			if !refIncludes(&cs[i], pod, ni.Node) {
				continue
			}
			v := ni.Node.Labels[cs[i].TopologyKey]
			if _, ok := counts[i][v]; ok {
				counts[i][v] += refCount(ni.Pods, cs[i].Selector, pod.Namespace)
			}
		}
	}
	list := make([]framework.NodeScore, len(feasible))
	for k, ni := range feasible {
		list[k].Name = ni.Node.Name
		if ignored[ni.Node.Name] {
			continue
		}
		var score float64
		for i, c := range cs {
			v, ok := ni.Node.Labels[c.TopologyKey]
			if !ok {
				continue
			}
			cnt := counts[i][v]
			if c.TopologyKey == api.LabelHostname {
				cnt = refCount(ni.Pods, c.Selector, pod.Namespace)
			}
			score += float64(cnt)*weights[i] + float64(c.MaxSkew-1)
		}
		list[k].Score = int64(math.Round(score))
	}
	minS, maxS := int64(math.MaxInt64), int64(0)
	for _, s := range list {
		if ignored[s.Name] {
			continue
		}
		minS, maxS = min(minS, s.Score), max(maxS, s.Score)
	}
	out := map[string]int64{}
	for _, s := range list {
		switch {
		case ignored[s.Name]:
			out[s.Name] = 0
		case maxS == 0:
			out[s.Name] = 100
		default:
			out[s.Name] = 100 * (maxS + minS - s.Score) / maxS
		}
	}
	return out, nil
}

// randomCluster drives a snapshot through random changes.
type randomCluster struct {
	rng  *rand.Rand
	snap *framework.Snapshot
	seq  int
	// wide gives incoming pods up to four constraints over four keys
	// (disk too), most of them lacking on some nodes.
	wide bool
}

func (c *randomCluster) pick(vals ...string) string { return vals[c.rng.Intn(len(vals))] }

func (c *randomCluster) node(name string) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{}}}
	if c.rng.Intn(8) != 0 {
		n.Labels[api.LabelHostname] = name
	}
	switch c.rng.Intn(10) {
	case 0: // no zone
	case 1:
		n.Labels["zone"] = ""
	default:
		n.Labels["zone"] = c.pick("z1", "z2", "z3")
	}
	if c.rng.Intn(3) != 0 {
		n.Labels["rack"] = c.pick("r1", "r2")
	}
	if c.rng.Intn(4) == 0 {
		n.Spec.Taints = []api.Taint{{Key: c.pick("gpu", "spot"), Effect: c.pick(api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute)}}
	}
	if c.rng.Intn(2) == 0 {
		n.Labels["disk"] = c.pick("ssd", "hdd")
	}
	return n
}

func (c *randomCluster) labels() map[string]string {
	l := map[string]string{}
	if c.rng.Intn(5) != 0 {
		l["app"] = c.pick("a", "b")
	}
	if c.rng.Intn(2) == 0 {
		l["tier"] = c.pick("x", "y")
	}
	if c.rng.Intn(2) == 0 {
		l["hash"] = c.pick("h1", "h2")
	}
	return l
}

func (c *randomCluster) addPod() {
	if len(c.snap.Nodes()) == 0 {
		return
	}
	c.seq++
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("p%d", c.seq), Namespace: c.pick("default", "default", "other"), Labels: c.labels()}}
	p.Spec.NodeName = c.snap.Nodes()[c.rng.Intn(len(c.snap.Nodes()))].Node.Name
	if c.rng.Intn(10) == 0 {
		t := api.Time(0)
		p.DeletionTimestamp = &t
	}
	c.snap.AddPod(framework.NewPodInfo(p))
}

func (c *randomCluster) somePod() *framework.PodInfo {
	var all []*framework.PodInfo
	for _, ni := range c.snap.Nodes() {
		all = append(all, ni.Pods...)
	}
	if len(all) == 0 {
		return nil
	}
	return all[c.rng.Intn(len(all))]
}

// change applies one random change to the cluster.
func (c *randomCluster) change() string {
	switch k := c.rng.Intn(20); {
	case k < 10:
		c.addPod()
		return "add pod"
	case k < 13:
		if pi := c.somePod(); pi != nil {
			c.snap.RemovePod(pi.Pod.Key())
		}
		return "remove pod"
	case k < 15:
		// the pod starts terminating, or is relabelled (a new object, as
		// the API would deliver it)
		if pi := c.somePod(); pi != nil {
			p := *pi.Pod
			if c.rng.Intn(2) == 0 {
				t := api.Time(1)
				p.DeletionTimestamp = &t
			} else {
				p.Labels = c.labels()
			}
			c.snap.UpdatePod(framework.NewPodInfo(&p))
		}
		return "update pod"
	case k < 17:
		if len(c.snap.Nodes()) > 0 {
			old := c.snap.Nodes()[c.rng.Intn(len(c.snap.Nodes()))].Node
			c.snap.UpdateNode(c.node(old.Name))
		}
		return "relabel node"
	case k < 18:
		if len(c.snap.Nodes()) > 1 {
			c.snap.RemoveNode(c.snap.Nodes()[c.rng.Intn(len(c.snap.Nodes()))].Node.Name)
		}
		return "remove node"
	default:
		c.seq++
		c.snap.AddNode(c.node(fmt.Sprintf("n%02d", c.seq)))
		return "add node"
	}
}

func (c *randomCluster) constraint() api.TopologySpreadConstraint {
	tc := api.TopologySpreadConstraint{
		MaxSkew:           int32(1 + c.rng.Intn(3)),
		TopologyKey:       c.pick(api.LabelHostname, "zone", "rack"),
		WhenUnsatisfiable: c.pick(api.DoNotSchedule, api.ScheduleAnyway),
	}
	switch c.rng.Intn(6) {
	case 0: // nil selector: matches nothing
	case 1:
		tc.LabelSelector = &api.LabelSelector{}
	case 2:
		tc.LabelSelector = exists("tier")
	default:
		tc.LabelSelector = matchLabels("app", c.pick("a", "b"))
	}
	if c.wide {
		tc.TopologyKey = c.pick(api.LabelHostname, "zone", "rack", "disk")
	}
	if tc.WhenUnsatisfiable == api.DoNotSchedule && c.rng.Intn(3) == 0 {
		tc.MinDomains = ptr(int32(1 + c.rng.Intn(4)))
	}
	if c.rng.Intn(3) == 0 {
		tc.NodeAffinityPolicy = ptr(c.pick(api.PolicyHonor, api.PolicyIgnore))
	}
	if c.rng.Intn(3) == 0 {
		tc.NodeTaintsPolicy = ptr(c.pick(api.PolicyHonor, api.PolicyIgnore))
	}
	if c.rng.Intn(3) == 0 {
		tc.MatchLabelKeys = []string{"hash"}
	}
	return tc
}

func (c *randomCluster) incomingPod() *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "incoming", Namespace: c.pick("default", "other"), Labels: c.labels()}}
	if c.rng.Intn(5) != 0 { // else: no constraints (system defaults may apply)
		seen := map[string]bool{}
		n := 1 + c.rng.Intn(2)
		if c.wide {
			n = 2 + c.rng.Intn(5)
		}
		for range n {
			tc := c.constraint()
			if seen[tc.TopologyKey+tc.WhenUnsatisfiable] {
				continue
			}
			seen[tc.TopologyKey+tc.WhenUnsatisfiable] = true
			p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, tc)
		}
	}
	switch c.rng.Intn(4) {
	case 0:
		p.Spec.NodeSelector = map[string]string{"disk": "ssd"}
	case 1:
		p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
			NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: "zone", Operator: api.NodeSelectorOpNotIn, Values: []string{"z3"}}}}},
		}}}
	}
	if c.rng.Intn(2) == 0 {
		p.Spec.Tolerations = []api.Toleration{{Key: "gpu", Operator: api.TolerationOpExists}}
	}
	return p
}

// TestMatchesUpstreamOnRandomClusters checks Filter verdicts and
// normalised scores against the transcription of upstream after every
// random change to a cluster, so the incrementally maintained indexes,
// the cached domain sums and the fast and slow counting paths are all
// compared with a full rescan.
func TestMatchesUpstreamOnRandomClusters(t *testing.T) {
	for seed := int64(1); seed <= 100; seed++ {
		rng := rand.New(rand.NewSource(seed))
		// past 60: pods with several constraints whose keys some nodes
		// lack, so one constraint's node set is narrowed by the others'
		// keys (nodeSetsOf shares one set between them)
		c := &randomCluster{rng: rng, snap: framework.NewSnapshot(), wide: seed > 60}
		for i := range 3 + rng.Intn(8) {
			c.snap.AddNode(c.node(fmt.Sprintf("n%02d", i)))
		}
		c.seq = 100
		selectors := func(p *api.Pod) api.Selector {
			if v, ok := p.Labels["app"]; ok {
				return api.SelectorFromSet(map[string]string{"app": v})
			}
			return api.Nothing()
		}
		args := Args{Selectors: selectors}
		if rng.Intn(2) == 0 {
			args = Args{DefaultingType: ListDefaulting, Selectors: selectors, DefaultConstraints: []api.TopologySpreadConstraint{
				{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: api.DoNotSchedule},
				{MaxSkew: 2, TopologyKey: api.LabelHostname, WhenUnsatisfiable: api.ScheduleAnyway},
			}}
		}
		pl := mustNew(t, args)
		ref := &reference{pl: pl, snap: c.snap}
		incoming := []*api.Pod{c.incomingPod(), c.incomingPod(), c.incomingPod()}
		history := []string{}
		for step := range 40 {
			history = append(history, c.change())
			for k, pod := range incoming {
				ctx := fmt.Sprintf("seed %d step %d pod %d (%v) after %v", seed, step, k, pod.Spec.TopologySpreadConstraints, history[max(0, len(history)-3):])
				compareWithReference(t, ctx, pl, ref, c, pod)
			}
			if t.Failed() {
				return
			}
		}
	}
}

func compareWithReference(t *testing.T, ctx string, pl *Plugin, ref *reference, c *randomCluster, pod *api.Pod) {
	t.Helper()
	want, err := ref.filter(pod)
	if err != nil {
		t.Fatalf("%s: reference: %v", ctx, err)
	}
	got := filterCodes(t, pl, c.snap, pod)
	if d := diffCodes(got, want); d != "" {
		t.Errorf("%s: filter differs:\n%s", ctx, d)
		return
	}
	// score over a random subset of nodes, as if others were filtered out
	var feasible []*framework.NodeInfo
	var names []string
	for _, ni := range c.snap.Nodes() {
		if c.rng.Intn(4) != 0 {
			feasible = append(feasible, ni)
			names = append(names, ni.Node.Name)
		}
	}
	if len(feasible) == 0 {
		return
	}
	wantScores, err := ref.scores(pod, feasible)
	if err != nil {
		t.Fatalf("%s: reference: %v", ctx, err)
	}
	gotScores := normalizedScores(t, pl, c.snap, pod, names)
	if wantScores == nil {
		wantScores = map[string]int64{}
		for _, n := range names {
			wantScores[n] = 0
		}
	}
	for _, n := range sortedKeys(wantScores) {
		if gotScores[n] != wantScores[n] {
			t.Errorf("%s: score of %s = %d, upstream %d (all: got %v want %v)", ctx, n, gotScores[n], wantScores[n], gotScores, wantScores)
			return
		}
	}
}

func sortedKeys(m map[string]int64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
