package admission

import "fmt"

// ForbiddenError is an admission rejection, printed as the API server's
// Forbidden status message (`pods "web" is forbidden: …`).
type ForbiddenError struct {
	// Pod is the pod's name.
	Pod string
	// Reason is the plugin's own message, e.g.
	// "no PriorityClass with name high was found".
	Reason string
}

func (e *ForbiddenError) Error() string {
	return fmt.Sprintf("pods %q is forbidden: %s", e.Pod, e.Reason)
}
