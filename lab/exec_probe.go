package lab

import (
	"fmt"

	"podlab.dev/podlab/lab/command"
)

// probeFault runs `break pod NAME readiness|liveness` and `heal pod NAME`:
// from now on the probe fails (or behaves as the pod's annotations say).
func (s *Session) probeFault(c command.ProbeFault) (string, error) {
	ns, name, err := s.resolve("pod", c.Pod)
	if err != nil {
		return "", err
	}
	key := ns + "/" + name
	if c.Heal {
		if err := s.eng.HealProbes(key); err != nil {
			return "", err
		}
		return fmt.Sprintf("pod/%s probes healed", name), nil
	}
	if err := s.eng.BreakProbe(key, c.Probe); err != nil {
		return "", err
	}
	return fmt.Sprintf("pod/%s %s probe failing", name, c.Probe), nil
}
