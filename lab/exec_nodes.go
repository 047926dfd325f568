package lab

import (
	"fmt"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers"
	"podlab.dev/podlab/lab/command"
)

// The commands on nodes (and scale), split out of exec: each checks that
// its node exists, acts on the engine and says what it did.

func (s *Session) labelNode(c command.Label) (string, error) {
	if err := s.needNode(c.Node); err != nil {
		return "", err
	}
	for _, kv := range c.Labels {
		if err := s.eng.LabelNode(c.Node, kv.Key, kv.Value, kv.Remove); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("node/%s labeled", c.Node), nil
}

func (s *Session) taintNode(c command.Taint) (string, error) {
	if err := s.needNode(c.Node); err != nil {
		return "", err
	}
	for _, t := range c.Taints {
		var err error
		if t.Remove {
			err = s.eng.UntaintNode(c.Node, t.Key, t.Effect)
		} else {
			err = s.eng.TaintNode(c.Node, api.Taint{Key: t.Key, Value: t.Value, Effect: t.Effect})
		}
		if err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("node/%s tainted", c.Node), nil
}

func (s *Session) cordon(c command.Cordon) (string, error) {
	if err := s.needNode(c.Node); err != nil {
		return "", err
	}
	if c.Uncordon {
		return fmt.Sprintf("node/%s uncordoned", c.Node), s.eng.Uncordon(c.Node)
	}
	return fmt.Sprintf("node/%s cordoned", c.Node), s.eng.Cordon(c.Node)
}

func (s *Session) drain(c command.Drain) (string, error) {
	if err := s.needNode(c.Node); err != nil {
		return "", err
	}
	opts := engine.DrainOptions{IgnoreDaemonSets: c.IgnoreDaemonSets, Force: c.Force, Timeout: c.Timeout, GracePeriodSeconds: -1}
	if c.GracePeriod != nil {
		opts.GracePeriodSeconds = *c.GracePeriod
	}
	d, err := s.eng.Drain(c.Node, opts)
	if err != nil {
		return "", err
	}
	if d != nil && d.Err != "" {
		return "", fmt.Errorf("drain %s: %s", c.Node, d.Err)
	}
	return fmt.Sprintf("node/%s draining", c.Node), nil
}

func (s *Session) scale(c command.Scale) (string, error) {
	ns, name, err := s.resolve(c.Kind, c.Name)
	if err != nil {
		return "", err
	}
	if err := s.scaleBudget(c.Kind, ns, name, c.Replicas); err != nil {
		return "", err
	}
	if err := s.ctl.Do(func(m *controllers.Manager) error { return m.Scale(controllerKind(c.Kind), ns, name, c.Replicas) }); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s/%s scaled to %d", c.Kind, name, c.Replicas), nil
}

func (s *Session) pressure(c command.Pressure) (string, error) {
	if err := s.needNode(c.Node); err != nil {
		return "", err
	}
	if err := s.eng.SetNodePressure(c.Node, c.Percent, c.Off); err != nil {
		return "", err
	}
	if c.Off {
		return fmt.Sprintf("node/%s memory pressure off", c.Node), nil
	}
	return fmt.Sprintf("node/%s memory use set to %g%%", c.Node, c.Percent), nil
}

func (s *Session) nodeHealth(c command.NodeHealth) (string, error) {
	if err := s.needNode(c.Node); err != nil {
		return "", err
	}
	state := "Ready"
	if c.Fail {
		state = "NotReady"
		if c.Unreachable {
			state = "Unreachable"
		}
	}
	return fmt.Sprintf("node/%s is %s", c.Node, state), s.eng.SetNodeCondition(c.Node, state)
}
