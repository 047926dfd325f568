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
		// removepodsviolatingtopologyspreadconstraint/validation_test.go;
		// upstream prints the supported set as a Go map, podlab as a list.
		{"valid namespace args, no errors", "removepodsviolatingtopologyspreadconstraint/validation_test.go:20", TopologySpreadName,
			PluginArgs{TopologySpread: TopologySpreadArgs{Namespaces: &Namespaces{Include: []string{"default"}}}}, ""},
		{"invalid namespaces args, expects error", "removepodsviolatingtopologyspreadconstraint/validation_test.go:28", TopologySpreadName,
			PluginArgs{TopologySpread: TopologySpreadArgs{Namespaces: &Namespaces{Include: []string{"default"}, Exclude: []string{"kube-system"}}}},
			"only one of Include/Exclude namespaces can be set"},
		{"valid constraints args, no errors", "removepodsviolatingtopologyspreadconstraint/validation_test.go:59", TopologySpreadName,
			PluginArgs{TopologySpread: TopologySpreadArgs{Constraints: []string{"DoNotSchedule", "ScheduleAnyway"}}}, ""},
		{"invalid constraints args, expects errors", "removepodsviolatingtopologyspreadconstraint/validation_test.go:65", TopologySpreadName,
			PluginArgs{TopologySpread: TopologySpreadArgs{Constraints: []string{"foo"}}}, `constraint "foo" is not one of [DoNotSchedule ScheduleAnyway]`},
		// The namespaces check of the other plugins' validation.go.
		{"duplicates: both include and exclude namespaces", "removeduplicates/validation_test.go", DuplicatesName,
			PluginArgs{Duplicates: DuplicatesArgs{Namespaces: &Namespaces{Include: []string{"a"}, Exclude: []string{"b"}}}}, "only one of Include/Exclude namespaces can be set"},
		{"failed pods: both include and exclude namespaces", "removefailedpods/validation_test.go", FailedPodsName,
			PluginArgs{FailedPods: FailedPodsArgs{Namespaces: &Namespaces{Include: []string{"a"}, Exclude: []string{"b"}}}}, "only one of Include/Exclude namespaces can be set"},
		{"anti-affinity: both include and exclude namespaces", "removepodsviolatinginterpodantiaffinity/validation_test.go", InterPodAntiAffinityName,
			PluginArgs{InterPodAntiAffinity: InterPodAntiAffinityArgs{Namespaces: &Namespaces{Include: []string{"a"}, Exclude: []string{"b"}}}}, "only one of Include/Exclude namespaces can be set"},
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

// TestUpstreamNodeUtilizationValidation ports
// TestValidateLowNodeUtilizationPluginConfig
// (pkg/framework/plugins/nodeutilization/validation_test.go:28) and
// TestValidateHighNodeUtilizationPluginConfig (:260), their cases without
// metricsUtilization or evictionModes (not modelled).
func TestUpstreamNodeUtilizationValidation(t *testing.T) {
	const ext = "example.com/foo"
	th := func(kv ...any) Thresholds {
		out := Thresholds{}
		for i := 0; i+1 < len(kv); i += 2 {
			out[kv[i].(string)] = float64(kv[i+1].(int))
		}
		return out
	}
	lnu := func(low, high Thresholds) PluginArgs {
		return PluginArgs{LowNodeUtilization: LowNodeUtilizationArgs{Thresholds: low, TargetThresholds: high}}
	}
	hnu := func(t Thresholds, ns *Namespaces) PluginArgs {
		return PluginArgs{HighNodeUtilization: HighNodeUtilizationArgs{Thresholds: t, EvictableNamespaces: ns}}
	}
	cases := []struct {
		name   string
		line   int
		plugin string
		args   PluginArgs
		want   string
	}{
		{"passing invalid thresholds", 37, LowNodeUtilizationName, lnu(th("cpu", 20, "memory", 120), th("cpu", 80, "memory", 80)),
			"thresholds config is not valid: memory threshold not in [0, 100] range"},
		{"thresholds and targetThresholds configured different num of resources", 52, LowNodeUtilizationName,
			lnu(th("cpu", 20, "memory", 20), th("cpu", 80, "memory", 80, "pods", 80)), "thresholds and targetThresholds configured different resources"},
		{"thresholds and targetThresholds configured different resources", 67, LowNodeUtilizationName,
			lnu(th("cpu", 20, "memory", 20), th("cpu", 80, "pods", 80)), "thresholds and targetThresholds configured different resources"},
		{"thresholds' CPU config value is greater than targetThresholds'", 81, LowNodeUtilizationName,
			lnu(th("cpu", 90, "memory", 20), th("cpu", 80, "memory", 80)), "thresholds' cpu percentage is greater than targetThresholds'"},
		{"only thresholds configured extended resource", 95, LowNodeUtilizationName,
			lnu(th("cpu", 20, "memory", 20, ext, 20), th("cpu", 80, "memory", 80)), "thresholds and targetThresholds configured different resources"},
		{"only targetThresholds configured extended resource", 110, LowNodeUtilizationName,
			lnu(th("cpu", 20, "memory", 20), th("cpu", 80, "memory", 80, ext, 80)), "thresholds and targetThresholds configured different resources"},
		{"thresholds and targetThresholds configured different extended resources", 125, LowNodeUtilizationName,
			lnu(th("cpu", 20, "memory", 20, ext, 20), th("cpu", 80, "memory", 80, "example.com/bar", 80)), "thresholds and targetThresholds configured different resources"},
		{"thresholds' extended resource config value is greater than targetThresholds'", 141, LowNodeUtilizationName,
			lnu(th("cpu", 20, "memory", 20, ext, 90), th("cpu", 80, "memory", 80, ext, 20)), "thresholds' example.com/foo percentage is greater than targetThresholds'"},
		{"passing valid plugin config", 157, LowNodeUtilizationName, lnu(th("cpu", 20, "memory", 20), th("cpu", 80, "memory", 80)), ""},
		{"passing valid plugin config with extended resource", 171, LowNodeUtilizationName,
			lnu(th("cpu", 20, "memory", 20, ext, 20), th("cpu", 80, "memory", 80, ext, 80)), ""},
		{"valid configuration with CPU and memory", 271, HighNodeUtilizationName, hnu(th("cpu", 80, "memory", 90), nil), ""},
		{"valid configuration with extended resource", 282, HighNodeUtilizationName, hnu(th("cpu", 85, ext, 95), nil), ""},
		{"empty thresholds", 293, HighNodeUtilizationName, hnu(Thresholds{}, nil), "no resource threshold is configured"},
		{"threshold below minimum (0%)", 301, HighNodeUtilizationName, hnu(th("cpu", -1), nil), "cpu threshold not in [0, 100] range"},
		{"threshold above maximum (100%)", 311, HighNodeUtilizationName, hnu(th("memory", 101), nil), "memory threshold not in [0, 100] range"},
		{"multiple thresholds with one out of range", 321, HighNodeUtilizationName, hnu(th("cpu", 50, "memory", 150), nil), "memory threshold not in [0, 100] range"},
		{"evictableNamespaces with Exclude (allowed)", 332, HighNodeUtilizationName, hnu(th("cpu", 80), &Namespaces{Exclude: []string{"ns1", "ns2"}}), ""},
		{"evictableNamespaces with Include (validation.go: inclusion is not supported)", 0, HighNodeUtilizationName,
			hnu(th("cpu", 80), &Namespaces{Include: []string{"ns1"}}), "only Exclude namespaces can be set, inclusion is not supported"},
		{"deviation thresholds may exceed their targets (validation.go: !useDeviationThresholds)", 0, LowNodeUtilizationName,
			PluginArgs{LowNodeUtilization: LowNodeUtilizationArgs{Thresholds: th("cpu", 10), TargetThresholds: th("cpu", 5), UseDeviationThresholds: true}}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, e := range oneProfile(tc.plugin, EvictorArgs{}, tc.args).Validate() {
				got = append(got, e.Message)
			}
			if strings.Join(got, "|") != tc.want {
				t.Fatalf("nodeutilization/validation_test.go:%d: errors %q, want %q", tc.line, got, tc.want)
			}
		})
	}
}

// TestUpstreamDefaultEvictorValidation ports TestValidateDefaultEvictorArgs
// (pkg/framework/plugins/defaultevictor/validation_test.go:28), the cases
// on podProtections and the deprecated booleans; the priorityThreshold
// (:35) and noEvictionPolicy (:45) cases are the policy decoder's
// (lab/descheduler_policy.go, with positions), and the storage-class one
// (:202) is left out with storage classes.
func TestUpstreamDefaultEvictorValidation(t *testing.T) {
	cases := []struct {
		name string
		line int
		args EvictorArgs
		want string
	}{
		{"Valid configuration with no deprecated fields", 52, EvictorArgs{DefaultDisabled: []string{}, ExtraEnabled: []string{}}, ""},
		{"Valid configuration: both Disabled and ExtraEnabled", 62, EvictorArgs{DefaultDisabled: []string{DaemonSetPods, PodsWithLocalStorage}, ExtraEnabled: []string{PodsWithPVC}}, ""},
		{"Valid configuration with ExtraEnabled", 77, EvictorArgs{ExtraEnabled: []string{PodsWithPVC}}, ""},
		{"Invalid configuration: Deprecated field used with Disabled", 88, EvictorArgs{EvictLocalStoragePods: true, DefaultDisabled: []string{DaemonSetPods}},
			"cannot use Deprecated fields alongside PodProtections.ExtraEnabled or PodProtections.DefaultDisabled"},
		{"Invalid configuration: Deprecated field used with ExtraPodProtections", 100, EvictorArgs{EvictDaemonSetPods: true, ExtraEnabled: []string{PodsWithPVC}},
			"cannot use Deprecated fields alongside PodProtections.ExtraEnabled or PodProtections.DefaultDisabled"},
		{"MinReplicas warning logged but no error", 112, EvictorArgs{MinReplicas: 1}, ""},
		{"Invalid ExtraEnabled: Unknown policy", 119, EvictorArgs{ExtraEnabled: []string{"InvalidPolicy"}},
			`invalid pod protection policy in ExtraEnabled: "InvalidPolicy". Valid options are: [PodsWithPVC PodsWithoutPDB PodsWithResourceClaims]`},
		{"Invalid ExtraEnabled: Misspelled policy", 128, EvictorArgs{ExtraEnabled: []string{"PodsWithPVCC"}},
			`invalid pod protection policy in ExtraEnabled: "PodsWithPVCC". Valid options are: [PodsWithPVC PodsWithoutPDB PodsWithResourceClaims]`},
		{"Invalid ExtraEnabled: Policy from DefaultDisabled list", 137, EvictorArgs{ExtraEnabled: []string{DaemonSetPods}},
			`invalid pod protection policy in ExtraEnabled: "DaemonSetPods". Valid options are: [PodsWithPVC PodsWithoutPDB PodsWithResourceClaims]`},
		{"Invalid DefaultDisabled: Unknown policy", 146, EvictorArgs{DefaultDisabled: []string{"InvalidPolicy"}},
			`invalid pod protection policy in DefaultDisabled: "InvalidPolicy". Valid options are: [PodsWithLocalStorage SystemCriticalPods FailedBarePods DaemonSetPods]`},
		{"Invalid DefaultDisabled: Misspelled policy", 155, EvictorArgs{DefaultDisabled: []string{"PodsWithLocalStorag"}},
			`invalid pod protection policy in DefaultDisabled: "PodsWithLocalStorag". Valid options are: [PodsWithLocalStorage SystemCriticalPods FailedBarePods DaemonSetPods]`},
		{"Invalid DefaultDisabled: Policy from ExtraEnabled list", 164, EvictorArgs{DefaultDisabled: []string{PodsWithPVC}},
			`invalid pod protection policy in DefaultDisabled: "PodsWithPVC". Valid options are: [PodsWithLocalStorage SystemCriticalPods FailedBarePods DaemonSetPods]`},
		{"Invalid ExtraEnabled duplicate", 173, EvictorArgs{ExtraEnabled: []string{PodsWithPVC, PodsWithPVC}}, "PodProtections.ExtraEnabled contains duplicate entries"},
		{"Invalid DefaultDisabled duplicate", 182, EvictorArgs{DefaultDisabled: []string{PodsWithLocalStorage, PodsWithLocalStorage}}, "PodProtections.DefaultDisabled contains duplicate entries"},
		{"Invalid DefaultDisabled duplicate and Invalid ExtraEnabled duplicate (noEvictionPolicy part is the decoder's)", 191,
			EvictorArgs{DefaultDisabled: []string{PodsWithLocalStorage, PodsWithLocalStorage, PodsWithoutPDB}, ExtraEnabled: []string{PodsWithPVC, PodsWithPVC}},
			`invalid pod protection policy in DefaultDisabled: "PodsWithoutPDB". Valid options are: [PodsWithLocalStorage SystemCriticalPods FailedBarePods DaemonSetPods]|` +
				`PodProtections.DefaultDisabled contains duplicate entries|PodProtections.ExtraEnabled contains duplicate entries`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(tc.args.validate(), "|")
			if got != tc.want {
				t.Fatalf("defaultevictor/validation_test.go:%d: errors %q, want %q", tc.line, got, tc.want)
			}
		})
	}
}
