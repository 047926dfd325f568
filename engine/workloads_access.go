package engine

// Workloads returns the workload controllers registered with
// NewWorkloads — after Clone, the clone's own copy — or nil.
func (e *Engine) Workloads() *Workloads {
	for _, c := range e.controllers {
		if w, ok := c.(*Workloads); ok {
			return w
		}
	}
	return nil
}
