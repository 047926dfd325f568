package engine

// PodMemoryUsage implements controllers.MemoryUsageSource: the modelled
// working set the kubelet's eviction manager also uses, as metrics-server
// would report it to the HorizontalPodAutoscaler.
func (c clusterAPI) PodMemoryUsage(namespace, name string) (int64, bool) {
	ps := c.e.pods.Get(namespace + "/" + name)
	if ps == nil {
		return 0, false
	}
	return ps.usage, true
}
