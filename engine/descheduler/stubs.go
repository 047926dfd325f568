package descheduler

const (
	requiredAffinity  = "requiredDuringSchedulingIgnoredDuringExecution"
	preferredAffinity = "preferredDuringSchedulingIgnoredDuringExecution"
)

var podLifeTimeStates = []string{"Running", "Pending", "Succeeded", "Failed", "Unknown"}

func removeDuplicates(c *pluginCtx, args *DuplicatesArgs) error             { return nil }
func lowNodeUtilization(c *pluginCtx, args *LowNodeUtilizationArgs) error   { return nil }
func highNodeUtilization(c *pluginCtx, args *HighNodeUtilizationArgs) error { return nil }
func nodeTaints(c *pluginCtx, args *NodeTaintsArgs) error                   { return nil }
func nodeAffinity(c *pluginCtx, args *NodeAffinityArgs) error               { return nil }
func interPodAntiAffinity(c *pluginCtx, args *InterPodAntiAffinityArgs) error {
	return nil
}
func tooManyRestarts(c *pluginCtx, args *TooManyRestartsArgs) error { return nil }
func podLifeTime(c *pluginCtx, args *PodLifeTimeArgs) error         { return nil }
func failedPods(c *pluginCtx, args *FailedPodsArgs) error           { return nil }
