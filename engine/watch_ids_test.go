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

// refMirror keeps every handle it was told, by key and number.
type refMirror struct {
	idMirror
	refs map[PodID]told
}

type told struct {
	key string
	ref PodRef
}

func (m *refMirror) PodChangedRef(key string, id PodID, ref PodRef) {
	m.idMirror.PodChangedID(key, id)
	m.refs[id] = told{key, ref}
}

// TestPodByRefMatchesLookup: after random actions, every handle a watcher
// was last told for a pod number reads what looking its key up reads
// (the pod, its state, or gone), or says it cannot tell; it can always
// tell while no clone was taken since. Clones are taken at random (the
// original goes on, as a session's engine does after a checkpoint).
func TestPodByRefMatchesLookup(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		e := New(Config{Seed: int64(seed), NewScheduler: propertyScheduler})
		addPrioClasses(t, e, 0, 100, 200)
		m := &refMirror{idMirror: idMirror{mirror: mirror{e: e, pods: map[string]*api.Pod{}, states: map[string]PodState{}, nodes: map[string]*api.Node{}, dirtyPods: map[string]bool{}, dirtyNodes: map[string]bool{}},
			told: map[string]PodID{}, uidOf: map[PodID]string{}}, refs: map[PodID]told{}}
		e.Watch(m)
		ra := &randomActions{r: rand.New(rand.NewPCG(seed, 11)), e: e}
		for i := 0; i < 3; i++ {
			ra.nodes++
			_ = e.AddNode(node(fmt.Sprintf("n%d", ra.nodes), "4", "4Gi"))
		}
		read, gone, cannot := 0, 0, 0
		for i := 0; i < 120; i++ {
			cloned := false
			if ra.r.IntN(10) == 0 {
				_ = e.Clone()
				cloned = true
			}
			s := ra.step()
			for id, tl := range m.refs {
				p, st, got, ok := e.PodByRef(tl.ref)
				wp, wst, wid := e.PodWithStateID(tl.key)
				if wid != id {
					wp, wst, wid = nil, 0, 0 // another pod under the key, or none
				}
				switch {
				case !ok:
					cannot++
					if !cloned && tl.ref.ps.owner == e.own {
						t.Fatalf("seed %d step %d (%s): %s (%d) cannot be read by its handle without a clone", seed, i, s, tl.key, id)
					}
				case p != wp || st != wst || got != wid:
					t.Fatalf("seed %d step %d (%s): %s (%d) by handle %v %v %d, by key %v %v %d", seed, i, s, tl.key, id, p != nil, st, got, wp != nil, wst, wid)
				case p == nil:
					gone++
					delete(m.refs, id) // gone for good
				default:
					read++
				}
			}
		}
		if read == 0 || gone == 0 {
			t.Fatalf("seed %d: %d handles read, %d gone, %d could not tell: the test does not exercise them", seed, read, gone, cannot)
		}
	}
}
