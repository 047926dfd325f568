package podtopologyspread

import (
	"strings"
	"testing"

	"podlab.dev/podlab/engine/api"
)

func TestNewValidatesArgs(t *testing.T) {
	zone := api.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: api.ScheduleAnyway}
	tests := []struct {
		name    string
		args    Args
		wantErr string // "" for success
	}{
		{name: "empty args default to System", args: Args{}},
		{name: "List with no constraints disables defaults", args: Args{DefaultingType: ListDefaulting}},
		{name: "List with constraints", args: Args{DefaultingType: ListDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{zone}}},
		{name: "System with constraints is invalid", args: Args{DefaultingType: SystemDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{zone}},
			wantErr: "when .defaultConstraints are not empty"},
		{name: "unknown defaulting type", args: Args{DefaultingType: "Sometimes"}, wantErr: "Unsupported value"},
		{name: "maxSkew must be positive", args: Args{DefaultingType: ListDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{{TopologyKey: "zone", WhenUnsatisfiable: api.DoNotSchedule}}},
			wantErr: "maxSkew"},
		{name: "default constraints must not carry a selector", args: Args{DefaultingType: ListDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: fooSelector}}},
			wantErr: "must not define a selector"},
		{name: "duplicate key and action", args: Args{DefaultingType: ListDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{zone, zone}},
			wantErr: "Duplicate value"},
		{name: "bad whenUnsatisfiable", args: Args{DefaultingType: ListDefaulting, DefaultConstraints: []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: "Maybe"}}},
			wantErr: "whenUnsatisfiable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.args)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestFilterConstraints(t *testing.T) {
	labels := map[string]string{"app": "web", "pod-template-hash": "h1"}
	tests := []struct {
		name string
		in   api.TopologySpreadConstraint
		// want is the compiled selector, "" when the constraint is not kept
		want string
	}{
		{name: "matchLabelKeys ANDs the pod's value", in: api.TopologySpreadConstraint{WhenUnsatisfiable: dns, LabelSelector: matchLabels("app", "web"), MatchLabelKeys: []string{"pod-template-hash"}},
			want: "app=web,pod-template-hash=h1"},
		{name: "keys the pod lacks are ignored", in: api.TopologySpreadConstraint{WhenUnsatisfiable: dns, LabelSelector: matchLabels("app", "web"), MatchLabelKeys: []string{"missing"}},
			want: "app=web"},
		{name: "with an empty selector only the keys select", in: api.TopologySpreadConstraint{WhenUnsatisfiable: dns, LabelSelector: &api.LabelSelector{}, MatchLabelKeys: []string{"app"}},
			want: "app=web"},
		{name: "a nil selector stays match-nothing", in: api.TopologySpreadConstraint{WhenUnsatisfiable: dns, MatchLabelKeys: []string{"app"}},
			want: "<none>"},
		{name: "other whenUnsatisfiable is dropped", in: api.TopologySpreadConstraint{WhenUnsatisfiable: anyway, LabelSelector: matchLabels("app", "web")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, err := filterConstraints([]api.TopologySpreadConstraint{tt.in}, labels, dns)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if len(cs) != 0 {
					t.Errorf("kept %+v", cs)
				}
				return
			}
			if len(cs) != 1 || cs[0].Selector.String() != tt.want {
				t.Fatalf("got %+v, want selector %q", cs, tt.want)
			}
			if cs[0].MinDomains != 1 || cs[0].NodeAffinityPolicy != api.PolicyHonor || cs[0].NodeTaintsPolicy != api.PolicyIgnore {
				t.Errorf("defaults not applied: %+v", cs[0])
			}
		})
	}
}

func TestInvalidSelectorIsAnError(t *testing.T) {
	snap := newSnapshot(t, nodes(docsNodes...), nil)
	bad := &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: "Near"}}}
	pod := makePod("p").Spread(1, "zone", dns, bad).Obj()
	state := newCycleState()
	_, st := mustNew(t, Args{}).PreFilter(state, podInfo(pod), snap)
	if st.CodeOf() != errorCode || !strings.Contains(st.Message(), "get constraints from pod") {
		t.Errorf("PreFilter = %v %q", st.CodeOf(), st.Message())
	}
}
