package lab

import "testing"

func presetSession(t *testing.T, name string) *Session {
	t.Helper()
	f, err := LoadPreset(name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The view model answers with the scenario's zone label and naming.
func TestViewModelZoneAndNames(t *testing.T) {
	for _, c := range []struct {
		preset, zoneLabel, nextNode, nextZone, shortZone string
	}{
		{"spread-basics", "topology.kubernetes.io/zone", "node5", "zone-a", "zone"},
		{"spread-missing-key", "zone", "node6", "zone-a", "zone"},
	} {
		t.Run(c.preset, func(t *testing.T) {
			s := presetSession(t, c.preset)
			if got := s.ZoneLabel(); got != c.zoneLabel {
				t.Errorf("ZoneLabel = %q, want %q", got, c.zoneLabel)
			}
			if got := s.GroupKeys(nil)[0]; got != c.zoneLabel {
				t.Errorf("GroupKeys starts with %q, want the zone label %q", got, c.zoneLabel)
			}
			if got := s.ShortKey(c.zoneLabel); got != c.shortZone {
				t.Errorf("ShortKey(%q) = %q", c.zoneLabel, got)
			}
			if got := s.NextNodeName(); got != c.nextNode {
				t.Errorf("NextNodeName = %q, want %q", got, c.nextNode)
			}
			if got := s.NextZoneName(); got != c.nextZone {
				t.Errorf("NextZoneName = %q, want %q", got, c.nextZone)
			}
		})
	}
}

func TestWorkloadScalable(t *testing.T) {
	for kind, want := range map[string]bool{"deployment": true, "statefulset": true, "replicaset": true,
		"daemonset": false, "job": false, "cronjob": false, "pods": false} {
		if got := (Workload{Kind: kind}).Scalable(); got != want {
			t.Errorf("%s: Scalable = %v, want %v", kind, got, want)
		}
	}
}

// The workload keys of the pods match the keys of Workloads(): the UI
// colours a pod by looking its key up.
func TestWorkloadKeyMatchesWorkloads(t *testing.T) {
	s := presetSession(t, "spread-basics")
	if _, err := s.Apply("advance 10s"); err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, w := range s.Workloads() {
		keys[w.Key()] = true
	}
	for _, p := range s.Engine().Pods() {
		if k := s.WorkloadKey(p); !keys[k] {
			t.Errorf("pod %s: workload key %q is not a workload's (%v)", p.Key(), k, keys)
		}
	}
}
