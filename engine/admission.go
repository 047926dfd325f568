package engine

import (
	"podlab.dev/podlab/engine/admission"
	"podlab.dev/podlab/engine/api"
)

// DefaultAdmit is the admission the engine runs when Config.Admit is
// nil: the API server's (admission.AdmitPod — defaulting, the Priority
// and DefaultTolerationSeconds plugins, PrepareForCreate) with the
// engine's PriorityClasses.
func DefaultAdmit(e *Engine, p *api.Pod) error {
	return admission.AdmitPod(p, e.classes)
}
