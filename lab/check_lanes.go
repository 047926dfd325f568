package lab

import (
	"fmt"
	"math"

	"podlab.dev/podlab/lab/check"
)

// Lane implements check.LaneEnv: skew@b(…) asks lane b of the fork this
// session is a lane of.
func (c *checkEnv) Lane(name string) (check.Env, error) {
	if c.s.fork == nil {
		return nil, fmt.Errorf("the lab is not forked (fork splits it into lanes a and b)")
	}
	s := c.s.fork.Lane(name)
	if s == nil {
		return nil, fmt.Errorf("no lane %q", name)
	}
	return &checkEnv{s: s}, nil
}

// overTime is max_over_time / min_over_time: the extreme of a series the
// lab records (metrics.go) over the session's history. pending(w) and
// running(w) read the workload's pending/running series, pending(pods)
// and running(pods) the cluster's, skew(w, key) the workload's skew per
// topology key.
func overTime(agg func(a, b float64) float64) checkFunc {
	return func(c *checkEnv, args []check.Arg) (check.Value, error) {
		name, lane, inner, ok := args[0].Call()
		if !ok {
			return check.Value{}, fmt.Errorf("expected a function call")
		}
		s := c.s
		if lane != "" {
			env, err := c.Lane(lane)
			if err != nil {
				return check.Value{}, err
			}
			s = env.(*checkEnv).s
		}
		m := s.Metrics()
		if m == nil {
			return check.Value{}, fmt.Errorf("the lab records no history here")
		}
		labels, err := seriesLabels(s, name, inner)
		if err != nil {
			return check.Value{}, err
		}
		sr := m.Get(name, labels)
		if sr == nil || sr.Len() == 0 {
			// never recorded: a workload with no pods ever pending
			return check.NumV(0), nil
		}
		// read in place: Points would copy the whole history on every
		// evaluation of the check
		v := sr.point(0).V
		for i := 1; i < sr.Len(); i++ {
			v = agg(v, sr.point(i).V)
		}
		return check.NumV(v), nil
	}
}

// seriesLabels maps a check call to the labels of its metrics series.
func seriesLabels(s *Session, name string, args []check.Arg) (map[string]string, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("%s needs a workload", name)
	}
	a := args[0]
	if a.Kind == check.ArgWord && a.Word == "pods" {
		if len(args) > 1 {
			return nil, fmt.Errorf("the recorded history of %s(pods) has no selectors: use a workload", name)
		}
		return nil, nil
	}
	ns, wname, err := s.resolve(a.RefKind, a.Name)
	if err != nil {
		return nil, err
	}
	w := Workload{Kind: a.RefKind, Namespace: ns, Name: wname}.Ref()
	if name == "skew" {
		if len(args) < 2 {
			return nil, fmt.Errorf("skew needs a topology key")
		}
		return map[string]string{"workload": w, "key": expandTopologyKey(wordOrText(args[1]), s.zoneLabel())}, nil
	}
	if len(args) > 1 {
		return nil, fmt.Errorf("the recorded history of %s(%s) has no selectors", name, w)
	}
	return map[string]string{"workload": w}, nil
}

var (
	maxOverTime = overTime(math.Max)
	minOverTime = overTime(math.Min)
)
