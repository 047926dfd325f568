package imagelocality

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

const indexKey = "ImageLocality/images"

// imageIndex maps every image name in the nodes' status.images to the
// nodes holding it, as the scheduler snapshot's image existence map
// (backend/cache/snapshot.go createImageExistenceMap/getNodeImageStates):
// each node contributes its own reported size; when a node lists a name
// twice the later entry's size wins. It depends on nodes only and is
// rebuilt when they change.
type imageIndex struct {
	images map[string]*imageNodes
}

type imageNodes struct {
	nodes []int32 // node indexes, ascending
	sizes []int64
}

func indexOf(snap *framework.Snapshot) *imageIndex {
	return snap.Index(indexKey, func(s *framework.Snapshot) framework.PodIndex {
		idx := &imageIndex{}
		idx.NodesChanged(s)
		return idx
	}).(*imageIndex)
}

// PodAdded implements framework.PodIndex: pods do not matter.
func (*imageIndex) PodAdded(*framework.NodeInfo, *framework.PodInfo) {}

// PodRemoved implements framework.PodIndex: pods do not matter.
func (*imageIndex) PodRemoved(*framework.NodeInfo, *framework.PodInfo) {}

// NodesChanged implements framework.PodIndex: rebuild from every node.
func (idx *imageIndex) NodesChanged(s *framework.Snapshot) {
	idx.images = map[string]*imageNodes{}
	for i, ni := range s.Nodes() {
		for _, img := range ni.Node.Status.Images {
			for _, name := range img.Names {
				st := idx.images[name]
				if st == nil {
					st = &imageNodes{}
					idx.images[name] = st
				}
				if k := len(st.nodes); k > 0 && st.nodes[k-1] == int32(i) {
					st.sizes[k-1] = img.SizeBytes
					continue
				}
				st.nodes = append(st.nodes, int32(i))
				st.sizes = append(st.sizes, img.SizeBytes)
			}
		}
	}
}

// imageSizeOn returns the size a node reports for an image name.
func imageSizeOn(node *api.Node, name string) (int64, bool) {
	var size int64
	found := false
	for _, img := range node.Status.Images {
		for _, n := range img.Names {
			if n == name {
				size, found = img.SizeBytes, true
			}
		}
	}
	return size, found
}
