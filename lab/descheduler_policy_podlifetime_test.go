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
