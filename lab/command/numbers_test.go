package command

import (
	"strings"
	"testing"
)

// Issue 17 point 6: every numeric argument is checked as the loader and
// the API check its field — width and lower bound, with their messages.
func TestNumericArgumentsValidateLikeTheAPI(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		// int32 fields: one past the range is refused, as the loader does
		{"set spread deployment/web maxSkew=2147483648", "maxSkew: integer 2147483648 is out of range [-2147483648, 2147483647]"},
		{"set spread deployment/web minDomains=99999999999999999999", "minDomains: integer 99999999999999999999 is out of range"},
		{"scale deployment/web --replicas=2147483648", "--replicas: integer 2147483648 is out of range"},
		{"autoscale deployment/web --max=2147483648", "--max: integer 2147483648 is out of range"},
		// lower bounds, in apimachinery's words
		{"set spread deployment/web maxSkew=-1", "maxSkew: Invalid value: -1: must be greater than zero"},
		{"set spread deployment/web minDomains=0", "minDomains: Invalid value: 0: must be greater than zero"},
		{"scale deployment/web --replicas=-5", "--replicas: Invalid value: -5: must be greater than or equal to 0"},
		{"autoscale deployment/web --max=0", "--max: Invalid value: 0: must be greater than zero"},
		{"autoscale deployment/web --max=3 --min=0", "--min: Invalid value: 0: must be greater than or equal to 1"},
		{"autoscale deployment/web --max=3 --cpu-percent=0", "--cpu-percent: Invalid value: 0: must be greater than zero"},
		{"scale deployment/web --replicas=1e3", `--replicas: Invalid value: "1e3": must be a whole number`},
		{"set scheduler weight PodTopologySpread=2147483648", "weight PodTopologySpread: integer 2147483648 is out of range"},
		{"set scheduler weight PodTopologySpread=-1", "weight PodTopologySpread: Invalid value: -1: must be greater than or equal to 0"},
		{"set scheduler weight PodTopologySpread", "give PLUGIN=N"},
		// durations: never negative, never beyond what time.Duration holds
		{"advance -5s", "must not be negative"},
		{"advance 1e300", "too long"},
		{"advance 9000h", "at most a year"},
		// percentages: NaN is not in any range
		{"usage pod/p memory=NaN%", "give a percentage from 0% to 10000%"},
		{"usage pod/p memory=1e30%", "give a percentage from 0% to 10000%"},
		{"usage pod/p cpu=Inf%", "give a percentage from 0% to 10000%"},
		{"pressure node node1 memory=NaN%", "between 0% and 100%"},
	} {
		_, err := Parse(tc.line)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n got %v\nwant %s", tc.line, err, tc.want)
		}
	}
	// the largest values the API takes are accepted
	for _, line := range []string{
		"set spread deployment/web maxSkew=2147483647",
		"scale deployment/web --replicas=2147483647",
		"autoscale deployment/web --max=2147483647 --min=1",
		"set scheduler weight PodTopologySpread=2147483647",
		"delete pod p1 --grace-period=9223372036854775807",
	} {
		if _, err := Parse(line); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
}
