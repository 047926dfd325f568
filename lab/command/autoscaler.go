package command

// AutoscalerStatus: autoscaler status — what the cluster autoscaler's last
// loop decided, group by group (read-only: it is not recorded in the
// history).
type AutoscalerStatus struct{}

// Verb implements Command.
func (AutoscalerStatus) Verb() string { return "autoscaler status" }

// String implements Command.
func (AutoscalerStatus) String() string { return "autoscaler status" }
