package engine

import (
	"reflect"
	"testing"
)

// requireSameEvents fails t unless got and want are the same events, naming
// the first that differs (or the counts): the equivalence tests compare a
// cached or cloned run with its reference this way. gotName and wantName
// say which run is which.
func requireSameEvents(t *testing.T, gotName string, got []Event, wantName string, want []Event) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Fatalf("event %d differs:\n %s: %+v\n %s: %+v", i, gotName, got[i], wantName, want[i])
		}
	}
	t.Fatalf("%d events %s, %d %s", len(got), gotName, len(want), wantName)
}
