package command

import (
	"fmt"
	"strconv"
	"strings"
)

// SetScheduler changes the scheduler policy (the KubeSchedulerConfiguration
// in force) of one profile:
//
//	set scheduler [--profile NAME] scoringStrategy=MostAllocated
//	set scheduler [--profile NAME] weight PLUGIN=N
//	set scheduler [--profile NAME] disable PLUGIN
//	set scheduler [--profile NAME] enable PLUGIN
//	set scheduler [--profile NAME] shape=0:0,100:10 resources=cpu:1,memory:1
//	set scheduler [--profile NAME] hardPodAffinityWeight=N ignorePreferredTermsOfExistingPods=true
//	set scheduler add-profile NAME
//	set scheduler reset
type SetScheduler struct {
	// Profile is the scheduler name ("" ⇒ the first profile).
	Profile string
	// Action is "set" (Fields), "weight" (Plugin, Weight), "enable",
	// "disable" (Plugin), "add-profile" (Profile: a new profile with the
	// defaults) or "reset" (back to the scenario's policy).
	Action string
	Plugin string
	Weight int32
	Fields []KV
}

// Verb implements Command.
func (SetScheduler) Verb() string { return "set scheduler" }

// String implements Command (the canonical form parses back).
func (c SetScheduler) String() string {
	parts := []string{"set scheduler"}
	if c.Profile != "" {
		parts = append(parts, "--profile="+quoteIfNeeded(c.Profile))
	}
	switch c.Action {
	case "add-profile":
		return join("set scheduler", "add-profile", quoteIfNeeded(c.Profile))
	case "weight":
		parts = append(parts, "weight", c.Plugin+"="+strconv.Itoa(int(c.Weight)))
	case "enable", "disable":
		parts = append(parts, c.Action, c.Plugin)
	case "reset":
		parts = append(parts, "reset")
	default:
		parts = append(parts, kvs(c.Fields, "")...)
	}
	return join(parts...)
}

// SchedulerFields are the field names `set scheduler` takes as key=value
// (completion lists them).
var SchedulerFields = []string{
	"scoringStrategy", "resources", "shape", "hardPodAffinityWeight",
	"ignorePreferredTermsOfExistingPods", "percentageOfNodesToScore",
}

// ScoringStrategies are scoringStrategy's values.
var ScoringStrategies = []string{"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"}

var setSchedulerVerb = verbSpec{
	usage: "set scheduler [--profile NAME] scoringStrategy=LeastAllocated|MostAllocated|RequestedToCapacityRatio [shape=U:S,...] [resources=cpu:W,memory:W] | weight PLUGIN=N | enable PLUGIN | disable PLUGIN | hardPodAffinityWeight=N | ignorePreferredTermsOfExistingPods=true|false | percentageOfNodesToScore=N | add-profile NAME | reset",
	help:  "change the scheduler policy (a KubeSchedulerConfiguration profile) from now on",
	flags: map[string]flagKind{"profile": valueFlag},
	args:  []ArgKind{ArgField},
	build: buildSetScheduler,
}

func buildSetScheduler(a *args) (Command, error) {
	c := SetScheduler{}
	c.Profile, _ = a.flag("profile")
	if len(a.pos) == 0 {
		return nil, fmt.Errorf("say what to change, e.g. scoringStrategy=MostAllocated, weight PodTopologySpread=5 or disable ImageLocality")
	}
	switch a.pos[0] {
	case "reset":
		if len(a.pos) != 1 {
			return nil, fmt.Errorf("reset takes nothing more")
		}
		c.Action = "reset"
		return c, nil
	case "add-profile":
		if len(a.pos) != 2 || c.Profile != "" {
			return nil, fmt.Errorf("add-profile takes one scheduler name, e.g. add-profile batch-scheduler")
		}
		c.Action, c.Profile = "add-profile", a.pos[1]
		return c, checkName(c.Profile)
	case "enable", "disable":
		if len(a.pos) != 2 || strings.Contains(a.pos[1], "=") {
			return nil, fmt.Errorf("%s takes one plugin name, e.g. %s ImageLocality", a.pos[0], a.pos[0])
		}
		c.Action, c.Plugin = a.pos[0], a.pos[1]
		return c, nil
	case "weight":
		if len(a.pos) != 2 {
			return nil, fmt.Errorf("weight takes PLUGIN=N, e.g. weight PodTopologySpread=5")
		}
		name, v, ok := strings.Cut(a.pos[1], "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("weight %q: give PLUGIN=N, e.g. weight PodTopologySpread=5", a.pos[1])
		}
		// a plugin's weight as a file may set it: an int32 ≥ 0 (0 means 1,
		// as upstream's framework reads it; profile_merge.go)
		n, err := apiInt32("weight "+name, v, 0, atLeastZero)
		if err != nil {
			return nil, err
		}
		c.Action, c.Plugin, c.Weight = "weight", name, n
		return c, nil
	}
	c.Action = "set"
	for _, w := range a.pos {
		k, v, ok := strings.Cut(w, "=")
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("%q: give key=value (keys: %s)", w, strings.Join(SchedulerFields, ", "))
		}
		kv := KV{Key: k, Value: v}
		known := false
		for _, f := range SchedulerFields {
			known = known || f == kv.Key
		}
		if !known {
			return nil, fmt.Errorf("unknown field %q: fields are %s", kv.Key, strings.Join(SchedulerFields, ", "))
		}
		c.Fields = append(c.Fields, kv)
	}
	return c, nil
}
