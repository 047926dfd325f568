// Package gen generates random, valid, deterministic scheduling scenarios
// (multi-document YAML of ordinary Kubernetes manifests) that stress every
// rule of the default scheduler profile: zones and custom topology keys,
// nodes missing keys, taints of every effect with matching and
// non-matching tolerations, cordoned nodes, tight resources, host ports,
// nodeSelector and node affinity, inter-pod (anti-)affinity, 1–3 topology
// spread constraints (maxSkew 1–3, minDomains, both policies,
// matchLabelKeys, matchExpressions), several namespaces, priorities and
// PodDisruptionBudgets. The same seed always gives the same bytes.
package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"sigs.k8s.io/yaml"
)

// Config sizes a scenario; zero fields take the defaults.
type Config struct {
	MinNodes, MaxNodes     int // default 3..10
	MaxBound               int // default 24
	MinPending, MaxPending int // default 1..4
	// NoPodLevelResources leaves out pod-level spec.resources (to look
	// past a known difference, see docs/conformance.md). The Known*
	// switches consume the same random draws, so a scenario differs from
	// its default version only in the switched-off feature.
	NoPodLevelResources bool
	// NoNominations gives no pending pod a status.nominatedNodeName.
	NoNominations bool
	// Policy adds a random KubeSchedulerConfiguration (policy.go).
	Policy bool
}

func (c Config) withDefaults() Config {
	if c.MinNodes <= 0 {
		c.MinNodes = 3
	}
	if c.MaxNodes < c.MinNodes {
		c.MaxNodes = max(10, c.MinNodes)
	}
	if c.MaxBound <= 0 {
		c.MaxBound = 24
	}
	if c.MinPending <= 0 {
		c.MinPending = 1
	}
	if c.MaxPending < c.MinPending {
		c.MaxPending = max(4, c.MinPending)
	}
	return c
}

// Well-known keys the generator uses.
const (
	keyZone     = "topology.kubernetes.io/zone"
	keyHostname = "kubernetes.io/hostname"
	keyRack     = "example.com/rack"
	keyDisk     = "disk"
	keyGen      = "example.com/generation" // integer values, for Gt/Lt
	keyHash     = "pod-template-hash"
)

// StartBase is the first start time given to bound pods.
var StartBase = time.Date(2028, 12, 31, 0, 0, 0, 0, time.UTC)

type obj = map[string]any

// node is the generator's view of a node while it places bound pods.
type node struct {
	name      string
	labels    map[string]string
	taints    []obj
	cordoned  bool
	cpu, mem  int64 // allocatable, milli-cpu and MiB
	pods      int
	usedCPU   int64
	usedMem   int64
	count     int
	hostPort  bool // a bound pod already uses hostPort 8080
	images    []any
	gpus      int // example.com/gpu extended resource
	storageGi int // ephemeral-storage
}

// images are container images with their sizes (ImageLocality): below,
// inside and above the plugin's 23MB–1000MB thresholds, with short names
// that normalise to the same image as the long ones.
var images = []struct {
	names []string
	size  int64
}{
	{[]string{"registry.k8s.io/pause:3.10"}, 700 << 10},
	{[]string{"example.com/app:v1"}, 250 << 20},
	{[]string{"example.com/db:v2", "example.com/db@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}, 700 << 20},
	{[]string{"docker.io/library/nginx:1.27", "nginx:1.27"}, 60 << 20},
	{[]string{"example.com/ml:latest"}, 1500 << 20},
}

// podImages are what pods run: some with a short or tagless name.
var podImages = []string{"registry.k8s.io/pause:3.10", "registry.k8s.io/pause:3.10", "example.com/app:v1",
	"example.com/db:v2", "nginx:1.27", "docker.io/library/nginx:1.27", "example.com/ml", "example.com/other:v3"}

type gen struct {
	r         *rand.Rand
	cfg       Config
	zones     []string
	nodes     []*node
	docs      []obj
	apps      []string
	nsList    []string
	prioNames []string
	startSeq  int
	// replicaSets maps "namespace/app" to the ReplicaSet owning such pods.
	replicaSets map[string]string
}

// Scenario returns scenario number i of a seed as YAML.
func Scenario(seed uint64, i int, cfg Config) []byte {
	g := &gen{r: rand.New(rand.NewPCG(seed, uint64(i)*0x9e3779b97f4a7c15+1)), cfg: cfg.withDefaults()}
	g.build()
	if cfg.Policy {
		g.docs = append([]obj{g.policy(seed, i)}, g.docs...)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# podlab conformance scenario: seed %d, index %d\n", seed, i)
	for _, d := range g.docs {
		out, err := yaml.Marshal(d)
		if err != nil {
			// Only maps, slices, strings, ints and bools are marshalled.
			panic(fmt.Sprintf("gen: marshal: %v", err))
		}
		b.WriteString("---\n")
		b.Write(out)
	}
	return []byte(b.String())
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }
func (g *gen) intn(n int) int        { return g.r.IntN(n) }
func (g *gen) between(lo, hi int) int {
	return lo + g.r.IntN(hi-lo+1)
}
func pick[T any](g *gen, xs []T) T { return xs[g.r.IntN(len(xs))] }

func (g *gen) build() {
	g.apps = []string{"web", "db", "cache", "batch"}[:g.between(2, 4)]
	g.namespaces()
	g.priorityClasses()
	g.replicaSetObjects()
	g.buildNodes()
	nBound := g.intn(g.cfg.MaxBound + 1)
	for i := 0; i < nBound; i++ {
		g.boundPod(i)
	}
	if g.chance(0.35) {
		g.pdbs()
	}
	for i, n := 0, g.between(g.cfg.MinPending, g.cfg.MaxPending); i < n; i++ {
		g.pendingPod(i)
	}
}

func (g *gen) namespaces() {
	g.nsList = []string{"default"}
	if g.chance(0.5) {
		g.nsList = append(g.nsList, "team-a")
		g.docs = append(g.docs, obj{"apiVersion": "v1", "kind": "Namespace",
			"metadata": obj{"name": "team-a", "labels": obj{"team": "a", "env": "prod"}}})
	}
	if g.chance(0.3) {
		g.nsList = append(g.nsList, "team-b")
		g.docs = append(g.docs, obj{"apiVersion": "v1", "kind": "Namespace",
			"metadata": obj{"name": "team-b", "labels": obj{"team": "b"}}})
	}
}

func (g *gen) priorityClasses() {
	classes := []struct {
		name   string
		value  int
		policy string
	}{{"low", 100, ""}, {"mid", 1000, ""}, {"high", 10000, ""}, {"high-nonpreempting", 10000, "Never"}}
	globalLow := g.chance(0.15)
	for _, c := range classes {
		pc := obj{"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
			"metadata": obj{"name": c.name}, "value": c.value}
		if c.policy != "" {
			pc["preemptionPolicy"] = c.policy
		}
		if c.name == "low" && globalLow {
			pc["globalDefault"] = true
		}
		g.docs = append(g.docs, pc)
		g.prioNames = append(g.prioNames, c.name)
	}
}

func (g *gen) buildNodes() {
	nz := g.between(2, 4)
	for i := 0; i < nz; i++ {
		g.zones = append(g.zones, "zone-"+string(rune('a'+i)))
	}
	tight := g.chance(0.3)
	n := g.between(g.cfg.MinNodes, g.cfg.MaxNodes)
	for i := 1; i <= n; i++ {
		nd := &node{name: fmt.Sprintf("node-%02d", i), labels: map[string]string{}}
		nd.labels[keyHostname] = nd.name
		if !g.chance(0.12) {
			nd.labels[keyZone] = g.zones[(i-1)%nz]
			if g.chance(0.2) {
				nd.labels[keyZone] = pick(g, g.zones)
			}
		}
		if g.chance(0.6) {
			nd.labels[keyRack] = pick(g, []string{"r1", "r2", "r3"})
		}
		if g.chance(0.5) {
			nd.labels[keyDisk] = pick(g, []string{"ssd", "hdd"})
		}
		if g.chance(0.5) {
			nd.labels[keyGen] = pick(g, []string{"1", "2", "3", "4"})
		}
		if tight {
			nd.cpu = int64(pick(g, []int{1000, 1500, 2000}))
			nd.mem = int64(pick(g, []int{1024, 2048, 3072}))
			nd.pods = pick(g, []int{4, 6, 110})
		} else {
			nd.cpu = int64(pick(g, []int{2000, 3500, 4000, 8000, 16000}))
			nd.mem = int64(pick(g, []int{4096, 8192, 16384, 32768}))
			nd.pods = pick(g, []int{8, 20, 110, 110})
		}
		if g.chance(0.3) {
			for j, k := 0, g.between(1, 2); j < k; j++ {
				nd.taints = append(nd.taints, obj{
					"key":    pick(g, []string{"dedicated", "gpu", "spot"}),
					"value":  pick(g, []string{"a", "b", "true"}),
					"effect": pick(g, []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}),
				})
			}
			nd.taints = dedupTaints(nd.taints)
		}
		if g.chance(0.03) {
			nd.taints = append(nd.taints, obj{"key": "node.kubernetes.io/not-ready", "effect": "NoExecute"})
		}
		if g.chance(0.1) {
			nd.cordoned = true
			nd.taints = append(nd.taints, obj{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"})
		}
		if g.chance(0.3) {
			nd.gpus = g.between(1, 2)
		}
		if g.chance(0.7) {
			nd.storageGi = pick(g, []int{10, 20, 100})
		}
		if g.chance(0.6) {
			for _, im := range images {
				if g.chance(0.4) {
					names := make([]any, len(im.names))
					for j, n := range im.names {
						names[j] = n
					}
					nd.images = append(nd.images, obj{"names": names, "sizeBytes": im.size})
				}
			}
		}
		g.nodes = append(g.nodes, nd)
		g.docs = append(g.docs, nd.manifest())
	}
}

// dedupTaints keeps the first taint of each key+effect (API validation).
func dedupTaints(ts []obj) []obj {
	seen := map[string]bool{}
	var out []obj
	for _, t := range ts {
		k := fmt.Sprint(t["key"], t["effect"])
		if !seen[k] {
			seen[k] = true
			out = append(out, t)
		}
	}
	return out
}

func (nd *node) manifest() obj {
	labels := obj{}
	for k, v := range nd.labels {
		labels[k] = v
	}
	res := obj{"cpu": fmt.Sprintf("%dm", nd.cpu), "memory": fmt.Sprintf("%dMi", nd.mem), "pods": fmt.Sprint(nd.pods)}
	if nd.gpus > 0 {
		res["example.com/gpu"] = fmt.Sprint(nd.gpus)
	}
	if nd.storageGi > 0 {
		res["ephemeral-storage"] = fmt.Sprintf("%dGi", nd.storageGi)
	}
	spec := obj{}
	if len(nd.taints) > 0 {
		ts := make([]any, len(nd.taints))
		for i, t := range nd.taints {
			ts[i] = t
		}
		spec["taints"] = ts
	}
	if nd.cordoned {
		spec["unschedulable"] = true
	}
	status := obj{"capacity": res, "allocatable": res}
	if len(nd.images) > 0 {
		status["images"] = nd.images
	}
	m := obj{"apiVersion": "v1", "kind": "Node", "metadata": obj{"name": nd.name, "labels": labels},
		"status": status}
	if len(spec) > 0 {
		m["spec"] = spec
	}
	return m
}

func (g *gen) podLabels() map[string]string {
	l := map[string]string{"app": pick(g, g.apps)}
	if g.chance(0.4) {
		l[keyHash] = pick(g, []string{"h1", "h2"})
	}
	if g.chance(0.3) {
		l["tier"] = pick(g, []string{"fe", "be"})
	}
	return l
}

func (g *gen) requests(tight bool) (cpu, mem int64) {
	cpu = int64(pick(g, []int{50, 100, 250, 500, 1000}))
	mem = int64(pick(g, []int{64, 128, 256, 512, 1024}))
	if tight {
		cpu *= 2
		mem *= 2
	}
	return cpu, mem
}

func (g *gen) boundPod(i int) {
	labels := g.podLabels()
	cpu, mem := g.requests(false)
	// Bound pods sit where they fit (a real cluster), any node otherwise skipped.
	var cands []*node
	for _, nd := range g.nodes {
		if nd.usedCPU+cpu <= nd.cpu && nd.usedMem+mem <= nd.mem && nd.count < nd.pods {
			cands = append(cands, nd)
		}
	}
	if len(cands) == 0 {
		return
	}
	nd := pick(g, cands)
	nd.usedCPU += cpu
	nd.usedMem += mem
	nd.count++
	p := g.pod(fmt.Sprintf("run-%02d", i), pick(g, g.nsList), labels, cpu, mem)
	spec := p["spec"].(obj)
	spec["nodeName"] = nd.name
	// A kubelet rejects a second pod with the same host port (and
	// upstream's HostPortInfo is not reference-counted), so a valid
	// cluster never has two on one node.
	if c := spec["containers"].([]any)[0].(obj); c["ports"] != nil {
		if nd.hostPort {
			delete(c, "ports")
		}
		nd.hostPort = true
	}
	if tol := tolerationsFor(nd.taints); len(tol) > 0 {
		spec["tolerations"] = tol
	}
	if g.chance(0.2) {
		spec["affinity"] = g.podAffinity(labels, true)
	}
	start := StartBase.Add(time.Duration(g.startSeq*7) * time.Second)
	t := start.Format(time.RFC3339)
	g.startSeq++
	p["metadata"].(obj)["creationTimestamp"] = t
	if g.chance(0.05) {
		// Terminating: still holds resources, no longer counted by
		// topology spread.
		p["metadata"].(obj)["deletionTimestamp"] = start.Add(time.Hour).Format(time.RFC3339)
		p["metadata"].(obj)["deletionGracePeriodSeconds"] = 30
	}
	p["status"] = obj{"phase": "Running", "startTime": t}
	g.docs = append(g.docs, p)
}

func tolerationsFor(taints []obj) []any {
	var out []any
	for _, t := range taints {
		if t["effect"] == "PreferNoSchedule" {
			continue
		}
		tol := obj{"key": t["key"], "operator": "Exists", "effect": t["effect"]}
		out = append(out, tol)
	}
	return out
}

func (g *gen) pod(name, ns string, labels map[string]string, cpu, mem int64) obj {
	l := obj{}
	for k, v := range labels {
		l[k] = v
	}
	c := obj{"name": "app", "image": pick(g, podImages),
		"resources": obj{"requests": obj{"cpu": fmt.Sprintf("%dm", cpu), "memory": fmt.Sprintf("%dMi", mem)}}}
	if g.chance(0.05) {
		c["ports"] = []any{obj{"containerPort": 8080, "hostPort": 8080}}
	}
	containers := []any{c}
	if g.chance(0.15) {
		containers = append(containers, obj{"name": "sidecar", "image": pick(g, podImages),
			"resources": obj{"requests": obj{"cpu": "50m", "memory": "32Mi"}}})
	}
	spec := obj{"containers": containers}
	switch {
	case g.chance(0.08):
		// An init container larger than the app: the effective request is
		// the max of init and the sum of app containers.
		spec["initContainers"] = []any{obj{"name": "init", "image": pick(g, podImages),
			"resources": obj{"requests": obj{"cpu": fmt.Sprintf("%dm", 2*cpu), "memory": fmt.Sprintf("%dMi", 2*mem)}}}}
	case g.chance(0.05):
		// A sidecar (restartable init container) adds to the sum.
		spec["initContainers"] = []any{obj{"name": "proxy", "image": pick(g, podImages), "restartPolicy": "Always",
			"resources": obj{"requests": obj{"cpu": "100m", "memory": "64Mi"}}}}
	case g.chance(0.05) && !g.cfg.NoPodLevelResources:
		// Pod-level resources (PodLevelResources) override the containers'.
		spec["resources"] = obj{"requests": obj{"cpu": fmt.Sprintf("%dm", cpu+200), "memory": fmt.Sprintf("%dMi", mem+256)}}
	}
	if g.chance(0.6) {
		spec["priorityClassName"] = pick(g, g.prioNames)
	}
	meta := obj{"name": name, "namespace": ns, "labels": l}
	if rs, ok := g.replicaSets[ns+"/"+labels["app"]]; ok && g.chance(0.7) {
		// Owned by a ReplicaSet: without constraints of its own the pod
		// gets the system default spread constraints.
		meta["ownerReferences"] = []any{obj{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": rs,
			"uid": "uid-" + rs, "controller": true, "blockOwnerDeletion": true}}
	}
	return obj{"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
}

// replicaSetObjects emits ReplicaSets (selector app=X) for some
// namespace/app pairs.
func (g *gen) replicaSetObjects() {
	g.replicaSets = map[string]string{}
	if !g.chance(0.5) {
		return
	}
	for _, ns := range g.nsList {
		for _, app := range g.apps {
			if !g.chance(0.4) {
				continue
			}
			name := "rs-" + app
			g.replicaSets[ns+"/"+app] = name
			g.docs = append(g.docs, obj{"apiVersion": "apps/v1", "kind": "ReplicaSet",
				"metadata": obj{"name": name, "namespace": ns},
				"spec": obj{"replicas": 3, "selector": obj{"matchLabels": obj{"app": app}},
					"template": obj{"metadata": obj{"labels": obj{"app": app}},
						"spec": obj{"containers": []any{obj{"name": "app", "image": "registry.k8s.io/pause:3.10"}}}}}})
		}
	}
}

// Large is a bigger shape: more nodes, bound and pending pods, so
// preemption, spreading across many domains and later pods seeing earlier
// placements are exercised more.
var Large = Config{MinNodes: 8, MaxNodes: 30, MaxBound: 90, MinPending: 4, MaxPending: 14}

// Mixed returns the config of scenario i in the standard mix: every fifth
// scenario is Large, the rest the default small shape.
func Mixed(i int) Config {
	if i%5 == 4 {
		return Large
	}
	return Config{}
}
