package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"podlab.dev/podlab/engine/api"
)

// idMirror is told pods by number: the number last told for a key is the
// number of the pod the store holds under it, and a number always names
// the same pod (its UID).
type idMirror struct {
	mirror
	told     map[string]PodID
	uidOf    map[PodID]string
	byKeyErr int
}

func (m *idMirror) PodChanged(string) { m.byKeyErr++ }
func (m *idMirror) PodChangedID(key string, id PodID) {
	m.mirror.PodChanged(key)
	m.told[key] = id
}

func TestPodIDWatcherNumbersEachPod(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		e := New(Config{Seed: int64(seed), NewScheduler: propertyScheduler})
		addPrioClasses(t, e, 0, 100, 200)
		m := &idMirror{mirror: mirror{e: e, pods: map[string]*api.Pod{}, states: map[string]PodState{}, nodes: map[string]*api.Node{}, dirtyPods: map[string]bool{}, dirtyNodes: map[string]bool{}},
			told: map[string]PodID{}, uidOf: map[PodID]string{}}
		e.Watch(m)
		ra := &randomActions{r: rand.New(rand.NewPCG(seed, 7)), e: e}
		for i := 0; i < 3; i++ {
			ra.nodes++
			_ = e.AddNode(node(fmt.Sprintf("n%d", ra.nodes), "4", "4Gi"))
		}
		for i := 0; i < 80; i++ {
			s := ra.step()
			m.check(t, fmt.Sprintf("seed %d step %d (%s)", seed, i, s))
			for key := range e.pods.All() {
				p, _, id := e.PodWithStateID(key)
				if id == 0 || m.told[key] != id {
					t.Fatalf("seed %d step %d (%s): pod %s is number %d, last told %d", seed, i, s, key, id, m.told[key])
				}
				if u, ok := m.uidOf[id]; ok && u != p.UID {
					t.Fatalf("seed %d step %d (%s): number %d named %s, now %s", seed, i, s, id, u, p.UID)
				}
				m.uidOf[id] = p.UID
			}
		}
		if m.byKeyErr != 0 {
			t.Fatalf("seed %d: PodChanged called %d times on a PodIDWatcher", seed, m.byKeyErr)
		}
		if len(m.uidOf) == 0 {
			t.Fatalf("seed %d: no pod numbered", seed)
		}
	}
}
