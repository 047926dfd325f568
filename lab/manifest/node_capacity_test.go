package manifest

import (
	"strings"
	"testing"
)

// A node's capacity and allocatable are non-negative, as ValidateNodeResources
// checks them (pkg/apis/core/validation/validation.go: ValidateResourceQuantityValue
// on every status.capacity and status.allocatable entry). A node of
// cpu "-1" was accepted and then fitted nothing.
func TestNodeCapacityMustNotBeNegative(t *testing.T) {
	for _, tc := range []struct{ status, want string }{
		{`{capacity: {cpu: "-1", memory: 8Gi, pods: "110"}}`,
			`n.yaml:4:26: Node "n1" is invalid: status.capacity[cpu]: Invalid value: "-1": must be greater than or equal to 0`},
		{`{capacity: {cpu: "4", memory: 8Gi, pods: "110"}, allocatable: {memory: -1Gi}}`,
			`Node "n1" is invalid: status.allocatable[memory]: Invalid value: "-1Gi": must be greater than or equal to 0`},
	} {
		doc := "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: " + tc.status + "\n"
		_, err := Load("n.yaml", []byte(doc), Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n%v\nwant %s", tc.status, err, tc.want)
		}
	}
	if _, err := Load("n.yaml", []byte("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {capacity: {cpu: \"0\", memory: 8Gi, pods: \"110\"}}\n"), Options{}); err != nil {
		t.Errorf("a zero capacity is valid: %v", err)
	}
}
