// Package imagelocality is kube-scheduler's ImageLocality score plugin
// (pkg/scheduler/framework/plugins/imagelocality): nodes that already hold
// the pod's container images score higher, each image's size scaled by the
// share of nodes holding it so one popular node does not attract every pod.
package imagelocality

import (
	"fmt"
	"strings"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	"podlab.dev/podlab/engine/scheduler/plugins/internal/cyclecache"
)

// Name is the plugin's name in profiles and explanations.
const Name = "ImageLocality"

// Thresholds of image_locality.go.
const (
	mb                    int64 = 1024 * 1024
	minThreshold          int64 = 23 * mb
	maxContainerThreshold int64 = 1000 * mb
)

const preScoreStateKey framework.StateKey = "PreScore" + Name

// Plugin is the ImageLocality score plugin.
type Plugin struct {
	preScore cyclecache.Cache[*preScoreState]
}

var (
	_ framework.PreScorePlugin = (*Plugin)(nil)
	_ framework.ScorePlugin    = (*Plugin)(nil)
)

// New returns the plugin.
func New() *Plugin { return &Plugin{} }

// Name implements framework.Plugin.
func (*Plugin) Name() string { return Name }

// preScoreState holds the pod's summed image scores per node index.
// Upstream has no PreScore and sums per node in Score; here the sums come
// from the image index once per pod, so Score is an array read.
type preScoreState struct {
	nodes         []*framework.NodeInfo // the snapshot's nodes
	sums          []int64               // by node index; nil when no node has an image
	index         *imageIndex
	totalNumNodes int
	images        []string // the pod's normalised image names, one per container
}

// Clone implements framework.StateData; the state is immutable.
func (s *preScoreState) Clone() framework.StateData { return s }

// PreScore implements framework.PreScorePlugin. Upstream has no PreScore
// and scores every node, 0 where none of the pod's images is present; when
// no node holds any of them (the image index has none of the names) every
// node would score calculatePriority(0) = 0, so PreScore returns Skip,
// which the runtime counts as 0 on every node without calling Score: the
// same scores and totals. The state is stored anyway, so Score still
// answers 0 if called.
func (p *Plugin) PreScore(state *framework.CycleState, pod *framework.PodInfo, snap *framework.Snapshot, _ []*framework.NodeInfo) *framework.Status {
	if snap == nil {
		p.preScore.Store(state, nil)
		return framework.AsStatus(fmt.Errorf("%s: PreScore needs the snapshot", Name))
	}
	idx := indexOf(snap)
	s := &preScoreState{nodes: snap.Nodes(), index: idx, totalNumNodes: len(snap.Nodes()), images: podImages(pod.Pod)}
	for _, name := range s.images {
		st := idx.images[name]
		if st == nil {
			continue
		}
		if s.sums == nil {
			s.sums = make([]int64, len(snap.Nodes()))
		}
		for i, n := range st.nodes {
			s.sums[n] += scaledImageScore(st.sizes[i], len(st.nodes), s.totalNumNodes)
		}
	}
	state.Write(preScoreStateKey, s)
	p.preScore.Store(state, s)
	if s.sums == nil {
		return framework.SkipStatus
	}
	return nil
}

// Score implements framework.ScorePlugin (image_locality.go Score).
func (p *Plugin) Score(state *framework.CycleState, pod *framework.PodInfo, node *framework.NodeInfo) (int64, *framework.Status) {
	s, _ := cyclecache.Get(&p.preScore, state, preScoreStateKey)
	if s == nil {
		return 0, framework.AsStatus(fmt.Errorf("%s: reading %q from cycle state: PreScore did not run", Name, preScoreStateKey))
	}
	if s.sums == nil {
		return 0, nil
	}
	var sum int64
	if i := node.Index; i >= 0 && i < len(s.nodes) && s.nodes[i] == node {
		sum = s.sums[i]
	} else {
		sum = s.sumOnNode(node.Node)
	}
	return calculatePriority(sum, len(s.images)), nil
}

// sumOnNode is sumImageScores for a NodeInfo outside the snapshot.
func (s *preScoreState) sumOnNode(node *api.Node) int64 {
	var sum int64
	for _, name := range s.images {
		st := s.index.images[name]
		if st == nil {
			continue
		}
		if size, ok := imageSizeOn(node, name); ok {
			sum += scaledImageScore(size, len(st.nodes), s.totalNumNodes)
		}
	}
	return sum
}

// ScoreExtensions implements framework.ScorePlugin: none.
func (*Plugin) ScoreExtensions() framework.ScoreExtensions { return nil }

// podImages lists the normalised image of every init container and
// container (one entry each, so a repeated image counts again, as
// sumImageScores does). numContainers is its length.
func podImages(pod *api.Pod) []string {
	out := make([]string, 0, len(pod.Spec.InitContainers)+len(pod.Spec.Containers))
	for i := range pod.Spec.InitContainers {
		out = append(out, normalizedImageName(pod.Spec.InitContainers[i].Image))
	}
	for i := range pod.Spec.Containers {
		out = append(out, normalizedImageName(pod.Spec.Containers[i].Image))
	}
	return out
}

// normalizedImageName appends ":latest" to an image without a tag, as
// upstream (node status names are compared as they are).
func normalizedImageName(name string) string {
	if strings.LastIndex(name, ":") <= strings.LastIndex(name, "/") {
		name += ":latest"
	}
	return name
}

// scaledImageScore is the image's size times the share of nodes holding it.
func scaledImageScore(size int64, numNodes, totalNumNodes int) int64 {
	spread := float64(numNodes) / float64(totalNumNodes)
	return int64(float64(size) * spread)
}

// calculatePriority maps the summed scores to [0, 100] between 23 MB and
// 1000 MB per container.
func calculatePriority(sumScores int64, numContainers int) int64 {
	maxThreshold := maxContainerThreshold * int64(numContainers)
	if sumScores < minThreshold {
		sumScores = minThreshold
	} else if sumScores > maxThreshold {
		sumScores = maxThreshold
	}
	return framework.MaxNodeScore * (sumScores - minThreshold) / (maxThreshold - minThreshold)
}
