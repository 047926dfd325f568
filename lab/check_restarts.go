package lab

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab/check"
)

// restarts is the check function restarts(pod/NAME | KIND/NAME): the
// restart counts of a pod's containers (init containers included), summed
// over a workload's pods; a pod that is gone counts 0.
func (c *checkEnv) restarts(a check.Arg) (check.Value, error) {
	var pods []*api.Pod
	if a.RefKind == "pod" {
		p, err := c.pod(a)
		if err != nil {
			return check.Value{}, err
		}
		if p != nil {
			pods = []*api.Pod{p}
		}
	} else {
		ps, err := c.selectPods([]check.Arg{a})
		if err != nil {
			return check.Value{}, err
		}
		pods = ps
	}
	var n int32
	for _, p := range pods {
		for _, list := range [][]api.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
			for _, cs := range list {
				n += cs.RestartCount
			}
		}
	}
	return check.NumV(float64(n)), nil
}
