package command

import (
	"reflect"
	"testing"
)

func TestSetSchedulerParses(t *testing.T) {
	cases := []struct {
		line string
		want SetScheduler
	}{
		{"set scheduler scoringStrategy=MostAllocated", SetScheduler{Action: "set", Fields: []KV{{Key: "scoringStrategy", Value: "MostAllocated"}}}},
		{"set scheduler --profile=batch weight PodTopologySpread=5", SetScheduler{Profile: "batch", Action: "weight", Plugin: "PodTopologySpread", Weight: 5}},
		{"set scheduler disable ImageLocality", SetScheduler{Action: "disable", Plugin: "ImageLocality"}},
		{"set scheduler enable ImageLocality", SetScheduler{Action: "enable", Plugin: "ImageLocality"}},
		{"set scheduler scoringStrategy=RequestedToCapacityRatio shape=0:0,100:10 resources=cpu:2,memory:1", SetScheduler{Action: "set", Fields: []KV{
			{Key: "scoringStrategy", Value: "RequestedToCapacityRatio"}, {Key: "shape", Value: "0:0,100:10"}, {Key: "resources", Value: "cpu:2,memory:1"}}}},
		{"set scheduler reset", SetScheduler{Action: "reset"}},
		{"set scheduler add-profile batch", SetScheduler{Action: "add-profile", Profile: "batch"}},
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			got, err := Parse(c.line)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %#v, want %#v", got, c.want)
			}
			again, err := Parse(got.String())
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Fatalf("%q does not parse back: %v %#v", got.String(), err, again)
			}
		})
	}
	for _, bad := range []string{"set scheduler", "set scheduler weight X=-1", "set scheduler weight X=2147483648", "set scheduler colour=blue", "set scheduler disable", "set scheduler reset now"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
