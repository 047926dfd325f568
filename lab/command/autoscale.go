package command

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Autoscale: autoscale deployment|statefulset|replicaset/NAME --max=N
// [--min=N] [--cpu-percent=P] [--name=HPA], as kubectl autoscale: an
// autoscaling/v2 HorizontalPodAutoscaler named after the target.
type Autoscale struct {
	Kind, Name string
	Min        int32 // 0: the API default (1)
	Max        int32
	CPUPercent int32 // 0: no metric given (the API defaults to cpu 80%)
	HPAName    string
}

func (Autoscale) Verb() string { return "autoscale" }

func (c Autoscale) String() string {
	parts := []string{"autoscale", c.Kind + "/" + quoteIfNeeded(c.Name)}
	if c.Min > 0 {
		parts = append(parts, "--min="+strconv.Itoa(int(c.Min)))
	}
	parts = append(parts, "--max="+strconv.Itoa(int(c.Max)))
	if c.CPUPercent > 0 {
		parts = append(parts, "--cpu-percent="+strconv.Itoa(int(c.CPUPercent)))
	}
	if c.HPAName != "" {
		parts = append(parts, "--name="+quoteIfNeeded(c.HPAName))
	}
	return join(parts...)
}

func buildAutoscale(a *args) (Command, error) {
	kind, name, rest, err := splitKindName(a.pos, "deployment", "statefulset", "replicaset")
	if err != nil {
		return nil, err
	}
	c := Autoscale{Kind: kind, Name: name}
	// the HPA's int32 fields, with the API's bounds (validation.go
	// validateHorizontalPodAutoscalerSpec; HPAScaleToZero is off)
	num := func(flag string, lo int64, rule string) (int32, bool, error) {
		v, ok := a.flag(flag)
		if !ok {
			return 0, false, nil
		}
		n, err := apiInt32("--"+flag, v, lo, rule)
		return n, true, err
	}
	var has bool
	if c.Max, has, err = num("max", 1, aboveZero); err != nil {
		return nil, err
	}
	if !has {
		return nil, fmt.Errorf("--max is required: the upper limit for the number of pods")
	}
	if c.Min, _, err = num("min", 1, atLeastOne); err != nil {
		return nil, err
	}
	if c.Min > c.Max {
		return nil, fmt.Errorf("--max (%d) must be greater than or equal to --min (%d)", c.Max, c.Min)
	}
	if c.CPUPercent, _, err = num("cpu-percent", 1, aboveZero); err != nil {
		return nil, err
	}
	if v, ok := a.flag("name"); ok {
		if err := checkName(v); err != nil {
			return nil, err
		}
		c.HPAName = v
	}
	return c, noMorePositional(rest)
}

// parseUsage builds a Usage: memory=Q|P% for pods and workloads, or
// cpu=Q|P% with an optional `at DURATION` for a workload's load timeline.
func parseUsage(a *args) (Command, error) {
	kind, name, rest, err := splitKindName(a.pos, "pod", "deployment", "statefulset", "replicaset", "daemonset", "job")
	if err != nil {
		return nil, err
	}
	c := Usage{Kind: kind, Name: name}
	for len(rest) > 0 {
		w := rest[0]
		switch {
		case strings.HasPrefix(w, "memory="):
			c.Memory = strings.TrimPrefix(w, "memory=")
			if err := checkUsageValue("memory", c.Memory); err != nil {
				return nil, err
			}
			rest = rest[1:]
		case strings.HasPrefix(w, "cpu="):
			c.CPU = strings.TrimPrefix(w, "cpu=")
			if err := checkUsageValue("cpu", c.CPU); err != nil {
				return nil, err
			}
			rest = rest[1:]
		case w == "at":
			if len(rest) < 2 {
				return nil, fmt.Errorf("at needs a virtual time, e.g. at 2m")
			}
			d, err := parseDuration(rest[1])
			if err != nil {
				return nil, err
			}
			if d > 24*365*time.Hour {
				return nil, fmt.Errorf("at: at most a year of virtual time")
			}
			c.At = &d
			rest = rest[2:]
		default:
			return nil, fmt.Errorf("unexpected %q: give memory=Q|P%%, cpu=Q|P%% and optionally at DURATION", w)
		}
	}
	switch {
	case c.Memory == "" && c.CPU == "":
		return nil, fmt.Errorf("give memory=QUANTITY|P%% or cpu=QUANTITY|P%%")
	case c.Memory != "" && c.CPU != "":
		return nil, fmt.Errorf("give memory= or cpu=, one per command")
	case c.At != nil && c.CPU == "":
		return nil, fmt.Errorf("at schedules a cpu load change; memory use changes at once")
	case c.At != nil && kind == "pod":
		return nil, fmt.Errorf("at schedules a workload's cpu load; give deployment/NAME, statefulset/NAME or replicaset/NAME")
	case c.CPU != "" && (kind == "daemonset" || kind == "job"):
		return nil, fmt.Errorf("cpu use is modelled for pods, deployments, statefulsets and replicasets (what an HPA can scale)")
	}
	return c, nil
}

func checkUsageValue(res, v string) error {
	if v == "" {
		return fmt.Errorf("%s= needs a value", res)
	}
	if strings.HasSuffix(v, "%") {
		f, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
		if err != nil || !(f >= 0 && f <= 10000) { // NaN too
			return fmt.Errorf("%q: give a percentage from 0%% to 10000%%", v)
		}
	}
	return nil
}

func (c Usage) String() string {
	parts := []string{"usage", c.Kind + "/" + quoteIfNeeded(c.Name)}
	if c.Memory != "" {
		parts = append(parts, "memory="+c.Memory)
	}
	if c.CPU != "" {
		parts = append(parts, "cpu="+c.CPU)
	}
	if c.At != nil {
		parts = append(parts, "at", formatDuration(*c.At))
	}
	return join(parts...)
}
