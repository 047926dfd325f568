package command

import (
	"fmt"
	"strings"
)

// ProbeFault: break pod NAME readiness|liveness / heal pod NAME.
type ProbeFault struct {
	Pod   string
	Probe string // "readiness" or "liveness"; "" with Heal
	Heal  bool
}

// Verb implements Command.
func (c ProbeFault) Verb() string {
	if c.Heal {
		return "heal pod"
	}
	return "break pod"
}

// String implements Command.
func (c ProbeFault) String() string { return join(c.Verb(), quoteIfNeeded(c.Pod), c.Probe) }

// podNameArg takes NAME, pod/NAME, NAMESPACE/NAME or pod/NAMESPACE/NAME:
// the session asks for NAMESPACE/NAME when a name is in several
// namespaces, so a pod command must take it.
func podNameArg(pos []string) (string, []string, error) {
	if len(pos) == 0 {
		return "", nil, fmt.Errorf("missing pod name")
	}
	w := pos[0]
	if prefix, rest, ok := strings.Cut(w, "/"); ok && CanonicalKind(prefix) != "" {
		if CanonicalKind(prefix) != "pod" {
			return "", nil, fmt.Errorf("%q is not a pod; give NAME or pod/NAME", w)
		}
		w = rest
	}
	if err := checkObjectName("pod", w); err != nil {
		return "", nil, err
	}
	return w, pos[1:], nil
}

func buildBreakPod(a *args) (Command, error) {
	n, rest, err := podNameArg(a.pos)
	if err != nil {
		return nil, err
	}
	if len(rest) == 0 {
		return nil, fmt.Errorf("which probe? give readiness or liveness")
	}
	switch rest[0] {
	case "readiness", "liveness":
	default:
		return nil, fmt.Errorf("probe %q: give readiness or liveness", rest[0])
	}
	return ProbeFault{Pod: n, Probe: rest[0]}, noMorePositional(rest[1:])
}

func buildHealPod(a *args) (Command, error) {
	n, rest, err := podNameArg(a.pos)
	if err != nil {
		return nil, err
	}
	return ProbeFault{Pod: n, Heal: true}, noMorePositional(rest)
}
