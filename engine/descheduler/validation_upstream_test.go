package descheduler

import (
	"strings"
	"testing"
)

// TestUpstreamPluginArgsValidation ports the validation_test.go tables
// of the deschedule plugins (pkg/framework/plugins/*/validation_test.go)
// whose checks podlab's Policy.Validate makes, each through a policy
// enabling the plugin. Label-selector cases are covered where the policy
// is decoded (lab), which rejects a bad selector with its position.
func TestUpstreamPluginArgsValidation(t *testing.T) {
	cases := []struct {
		name    string
		at      string // upstream file:line
		plugin  string
		args    PluginArgs
		wantErr string // "" for valid
	}{
		{"valid arg, no errors", "removepodshavingtoomanyrestarts/validation_test.go:33", TooManyRestartsName,
			PluginArgs{TooManyRestarts: TooManyRestartsArgs{PodRestartThreshold: 1, States: []string{"Running"}}}, ""},
		{"invalid PodRestartThreshold arg, expects errors", "removepodshavingtoomanyrestarts/validation_test.go:40", TooManyRestartsName,
			PluginArgs{TooManyRestarts: TooManyRestartsArgs{PodRestartThreshold: 0}}, "invalid PodsHavingTooManyRestarts threshold"},
		{"invalid States arg, expects errors", "removepodshavingtoomanyrestarts/validation_test.go:47", TooManyRestartsName,
			PluginArgs{TooManyRestarts: TooManyRestartsArgs{PodRestartThreshold: 1, States: []string{"Failed"}}}, "states must be one of [CrashLoopBackOff Running]"},
		{"allows CrashLoopBackOff state", "removepodshavingtoomanyrestarts/validation_test.go:55", TooManyRestartsName,
			PluginArgs{TooManyRestarts: TooManyRestartsArgs{PodRestartThreshold: 1, States: []string{"CrashLoopBackOff"}}}, ""},
		{"invalid PodRestartThreshold arg and invalid States arg, expects errors", "removepodshavingtoomanyrestarts/validation_test.go:62", TooManyRestartsName,
			PluginArgs{TooManyRestarts: TooManyRestartsArgs{States: []string{"Failed"}}}, "invalid PodsHavingTooManyRestarts threshold|states must be one of [CrashLoopBackOff Running]"},
		{"valid namespace args, no errors", "removepodsviolatingnodetaints/validation_test.go:18", NodeTaintsName,
			PluginArgs{NodeTaints: NodeTaintsArgs{Namespaces: &Namespaces{Include: []string{"default"}}}}, ""},
		{"invalid namespaces args, expects error", "removepodsviolatingnodetaints/validation_test.go:26", NodeTaintsName,
			PluginArgs{NodeTaints: NodeTaintsArgs{Namespaces: &Namespaces{Include: []string{"default"}, Exclude: []string{"kube-system"}}}}, "only one of Include/Exclude namespaces can be set"},
		{"valid taint filters, no errors", "removepodsviolatingnodetaints/validation_test.go:57", NodeTaintsName,
			PluginArgs{NodeTaints: NodeTaintsArgs{ExcludedTaints: []string{"testTaint1=test1"}}}, ""},
		{"invalid taint filters args, expects errors", "removepodsviolatingnodetaints/validation_test.go:63", NodeTaintsName,
			PluginArgs{NodeTaints: NodeTaintsArgs{ExcludedTaints: []string{"do-not-evict"}, IncludedTaints: []string{"testTaint1=test1"}}}, "either includedTaints or excludedTaints can be set, but not both"},
		{"empty included and excluded lists are not both set", "removepodsviolatingnodetaints/validation.go (len checks)", NodeTaintsName,
			PluginArgs{NodeTaints: NodeTaintsArgs{ExcludedTaints: []string{}, IncludedTaints: []string{}}}, ""},
		{"nil NodeAffinityType args, expects errors", "removepodsviolatingnodeaffinity/validation_test.go:33", NodeAffinityName,
			PluginArgs{}, "nodeAffinityType needs to be set"},
		{"empty NodeAffinityType args, expects errors", "removepodsviolatingnodeaffinity/validation_test.go:40", NodeAffinityName,
			PluginArgs{NodeAffinity: NodeAffinityArgs{NodeAffinityType: []string{}}}, "nodeAffinityType needs to be set"},
		{"valid NodeAffinityType args, no errors", "removepodsviolatingnodeaffinity/validation_test.go:47", NodeAffinityName,
			PluginArgs{NodeAffinity: NodeAffinityArgs{NodeAffinityType: []string{requiredAffinity}}}, ""},
		{"invalid namespaces args, expects error", "removepodsviolatingnodeaffinity/validation_test.go:53", NodeAffinityName,
			PluginArgs{NodeAffinity: NodeAffinityArgs{NodeAffinityType: []string{requiredAffinity}, Namespaces: &Namespaces{Include: []string{"a"}, Exclude: []string{"b"}}}},
			"only one of Include/Exclude namespaces can be set"},
		{"nil NodeAffinityType args and invalid namespaces args, expects error", "removepodsviolatingnodeaffinity/validation_test.go:64", NodeAffinityName,
			PluginArgs{NodeAffinity: NodeAffinityArgs{NodeAffinityType: []string{}, Namespaces: &Namespaces{Include: []string{"a"}, Exclude: []string{"b"}}}},
			"only one of Include/Exclude namespaces can be set|nodeAffinityType needs to be set"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, e := range oneProfile(tc.plugin, EvictorArgs{}, tc.args).Validate() {
				got = append(got, e.Message)
			}
			if strings.Join(got, "|") != tc.wantErr {
				t.Fatalf("%s: errors %q, want %q", tc.at, got, tc.wantErr)
			}
		})
	}
}
