package imagelocality

import (
	"reflect"
	"slices"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

type images []api.ContainerImage

func img(sizeMB int64, names ...string) api.ContainerImage {
	return api.ContainerImage{Names: names, SizeBytes: sizeMB * mb}
}

// Node statuses of upstream image_locality_test.go TestImageLocalityPriority.
var (
	node403002000 = images{img(40, "gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"),
		img(300, "gcr.io/300:latest", "gcr.io/300:v1"), img(2000, "gcr.io/2000:latest")}
	node25010     = images{img(250, "gcr.io/250:latest"), img(10, "gcr.io/10:latest", "gcr.io/10:v1")}
	node60040900  = images{img(600, "gcr.io/600:latest"), img(40, "gcr.io/40:latest"), img(900, "gcr.io/900:latest")}
	node300600900 = images{img(300, "gcr.io/300:latest"), img(600, "gcr.io/600:latest"), img(900, "gcr.io/900:latest")}
	node400030    = images{img(4000, "gcr.io/4000:latest"), img(30, "gcr.io/30:latest")}
	node203040    = images{img(20, "gcr.io/20:latest"), img(30, "gcr.io/30:latest"), img(40, "gcr.io/40:latest")}
	noImages      = images{}
)

func podWith(images ...string) *tu.PodWrapper {
	p := tu.MakePod()
	for _, i := range images {
		p.Container(i)
	}
	return p
}

// Cases and numbers from upstream TestImageLocalityPriority (the image
// volume case is left out: the lab does not model volumes).
func TestScore(t *testing.T) {
	cases := []struct {
		name  string
		pod   *tu.PodWrapper
		nodes []images
		want  []int64
	}{
		// node1: 40M/2 < 23M → 0; node2: 100·(250M/2 − 23M)/(2000M − 23M) = 5.
		{"two images spread on two nodes, prefer the larger image one", podWith("gcr.io/40", "gcr.io/250"),
			[]images{node403002000, node25010}, []int64{0, 5}},
		{"two images on one node, prefer this node", podWith("gcr.io/40", "gcr.io/300"),
			[]images{node403002000, node25010}, []int64{7, 0}},
		{"if exceed limit, use limit", podWith("gcr.io/10", "gcr.io/4000"),
			[]images{node400030, node25010}, []int64{100, 0}},
		{"if exceed limit, use limit (with node which has no images present)", podWith("gcr.io/10", "gcr.io/4000"),
			[]images{node400030, node25010, noImages}, []int64{66, 0, 0}},
		{"pod with multiple large images, node2 is preferred", podWith("gcr.io/300", "gcr.io/600", "gcr.io/900"),
			[]images{node60040900, node300600900, noImages}, []int64{32, 36, 0}},
		{"pod with multiple small images", podWith("gcr.io/30", "gcr.io/40"),
			[]images{node203040, node400030}, []int64{1, 0}},
		{"include InitContainers", func() *tu.PodWrapper {
			p := podWith("gcr.io/30")
			p.Spec.InitContainers = []api.Container{{Name: "init", Image: "gcr.io/300"}}
			return p
		}(), []images{node403002000, node203040}, []int64{6, 0}},
		{"a tagged image matches only that tag", podWith("gcr.io/300:v1"),
			[]images{node403002000, node300600900}, []int64{12, 0}},
		{"no node has any image", podWith("nginx"), []images{node25010, noImages}, []int64{0, 0}},
		// The same image in two containers counts twice: 2·300M/1 − 23M over 2000M − 23M.
		{"a repeated image counts per container", podWith("gcr.io/300", "gcr.io/300"),
			[]images{node300600900}, []int64{29}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var nodes []*api.Node
			for i, ims := range c.nodes {
				n := tu.MakeNode().Name("node" + string(rune('1'+i))).Obj()
				n.Status.Images = ims
				nodes = append(nodes, n)
			}
			snap := tu.NewSnapshot(nodes, nil)
			res := tu.RunScore(New(), c.pod.Name("p").Info(), snap, nil)
			allZero := !slices.ContainsFunc(c.want, func(v int64) bool { return v != 0 })
			switch {
			case res.Err != nil:
				t.Fatalf("error %+v", res.Err)
			case allZero && res.PreScore.IsSkip():
				// no node holds any of the pod's images: Skip scores 0 everywhere
			case res.PreScore != nil:
				t.Fatalf("PreScore %+v", res.PreScore)
			case !reflect.DeepEqual(res.Normalized, c.want):
				t.Fatalf("scores %v, want %v", res.Normalized, c.want)
			}
			// A copy of a NodeInfo (outside the snapshot) scores the same.
			pl, state := New(), framework.NewCycleState()
			pl.PreScore(state, c.pod.Info(), snap, snap.Nodes())
			for i, ni := range snap.Nodes() {
				clone := *ni
				if got, _ := pl.Score(state, c.pod.Info(), &clone); got != c.want[i] {
					t.Fatalf("copy of node %d scored %d, want %d", i, got, c.want[i])
				}
			}
		})
	}
}

func TestIndexFollowsNodeChanges(t *testing.T) {
	n1 := tu.MakeNode().Name("node1").Obj()
	n1.Status.Images = images{img(600, "big:latest")}
	n2 := tu.MakeNode().Name("node2").Obj()
	snap := tu.NewSnapshot([]*api.Node{n1, n2}, nil)
	pod := podWith("big")
	score := func() []int64 { return tu.RunScore(New(), pod.Name("p").Info(), snap, nil).Normalized }
	// 600M·1/2 = 300M: 100·(300M − 23M)/(1000M − 23M) = 28.
	if got := score(); !reflect.DeepEqual(got, []int64{28, 0}) {
		t.Fatalf("before: %v", got)
	}
	n2b := tu.MakeNode().Name("node2").Obj()
	n2b.Status.Images = images{img(600, "big:latest")}
	snap.UpdateNode(n2b)
	// Now on both nodes: 600M·2/2 → 100·(600M − 23M)/(977M) = 59.
	if got := score(); !reflect.DeepEqual(got, []int64{59, 59}) {
		t.Fatalf("after update: %v", got)
	}
	snap.AddNode(tu.MakeNode().Name("node0").Obj())
	// Three nodes, image on two: 400M → 100·(400M − 23M)/977M = 38.
	if got := score(); !reflect.DeepEqual(got, []int64{0, 38, 38}) {
		t.Fatalf("after add: %v", got)
	}
}

func TestScoreWithoutPreScoreIsAnError(t *testing.T) {
	node := tu.NodeInfo(tu.MakeNode().Name("n").Obj())
	if _, st := New().Score(framework.NewCycleState(), podWith("x").Name("p").Info(), node); st.CodeOf() != framework.Error {
		t.Fatalf("got %+v", st)
	}
}

// TestPreScoreSkipsWhenNoNodeHoldsThePodsImages: Skip exactly when every
// node would score 0 because none holds any of the pod's images.
func TestPreScoreSkipsWhenNoNodeHoldsThePodsImages(t *testing.T) {
	n1 := tu.MakeNode().Name("node1").Obj()
	n1.Status.Images = images{img(600, "big:latest")}
	n2 := tu.MakeNode().Name("node2").Obj()
	snap := tu.NewSnapshot([]*api.Node{n1, n2}, nil)
	for _, c := range []struct {
		image string
		skip  bool
	}{{"big", false}, {"other", true}, {"big:v2", true}} {
		pl, state := New(), framework.NewCycleState()
		st := pl.PreScore(state, podWith(c.image).Name("p").Info(), snap, snap.Nodes())
		if st.IsSkip() != c.skip || (!c.skip && st != nil) {
			t.Fatalf("%s: PreScore %+v, want skip=%v", c.image, st, c.skip)
		}
		// Score still answers (0 everywhere when skipped).
		for _, ni := range snap.Nodes() {
			if got, st := pl.Score(state, podWith(c.image).Name("p").Info(), ni); !st.IsSuccess() || (c.skip && got != 0) {
				t.Fatalf("%s on %s: %d %+v", c.image, ni.Node.Name, got, st)
			}
		}
	}
}
