package lab

import (
	"strings"
	"testing"
)

// TestDeschedulerPolicyPodLifeTimeFilters decodes PodLifeTime's
// ownerKinds, conditions, exitCodes and includingInitContainers and
// RemoveFailedPods' exitCodes (podlifetime/types.go, removefailedpods/types.go).
func TestDeschedulerPolicyPodLifeTimeFilters(t *testing.T) {
	text := strings.Replace(policyScenario, `  plugins:
    balance:`, `  - name: PodLifeTime
    args:
      states: [Succeeded, OOMKilled]
      includingInitContainers: true
      ownerKinds: {exclude: [Job]}
      conditions: [{reason: PodCompleted, status: "True", minTimeSinceLastTransitionSeconds: 300}]
      exitCodes: [1, 137]
  - name: RemoveFailedPods
    args: {exitCodes: [2]}
  plugins:
    deschedule:
      enabled: [PodLifeTime, RemoveFailedPods]
    balance:`, 1)
	f, err := LoadFile("s.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	a := f.Descheduler.Policy.Profiles[0].Args
	plt := a.PodLifeTime
	if !plt.IncludingInitContainers || plt.OwnerKinds == nil || len(plt.OwnerKinds.Exclude) != 1 || plt.OwnerKinds.Exclude[0] != "Job" {
		t.Fatalf("podLifeTime %+v", plt)
	}
	if len(plt.Conditions) != 1 || plt.Conditions[0].Reason != "PodCompleted" || plt.Conditions[0].Status != "True" || *plt.Conditions[0].MinTimeSinceLastTransitionSeconds != 300 {
		t.Fatalf("conditions %+v", plt.Conditions)
	}
	if len(plt.ExitCodes) != 2 || plt.ExitCodes[1] != 137 || len(a.FailedPods.ExitCodes) != 1 || a.FailedPods.ExitCodes[0] != 2 {
		t.Fatalf("exit codes %v %v", plt.ExitCodes, a.FailedPods.ExitCodes)
	}
	for _, w := range f.Objects.Warnings {
		if strings.Contains(w.Message, "PodLifeTime") || strings.Contains(w.Message, "exitCodes") {
			t.Errorf("unexpected warning %v", w)
		}
	}
}

// TestDeschedulerPolicyEvictorValidation ports the two
// TestValidateDefaultEvictorArgs cases the decoder checks
// (defaultevictor/validation_test.go:35 priorityThreshold with value and
// name, :45 an unknown noEvictionPolicy), each an error at its position.
func TestDeschedulerPolicyEvictorValidation(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"{priorityThreshold: {value: 1, name: priority-name}}", "only one of value and name can be set"},
		{"{noEvictionPolicy: invalid-no-eviction-policy}", "must be Preferred or Mandatory"},
		{"{podProtections: {extraEnabled: [PodsWithPVCC]}}", `invalid pod protection policy in ExtraEnabled: "PodsWithPVCC"`},
	} {
		text := strings.Replace(policyScenario, "args: {nodeFit: true, surprise: 1}", "args: "+tc.args, 1)
		_, err := LoadFile("s.yaml", []byte(text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.args, err, tc.want)
		}
	}
}
