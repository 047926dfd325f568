package command

import "fmt"

// Ungate: ungate pod NAME [GATE]... — remove scheduling gates from a
// pod's spec.schedulingGates (none named: all of them).
type Ungate struct {
	Pod   string
	Gates []string
}

// Verb implements Command.
func (Ungate) Verb() string { return "ungate pod" }

// String implements Command.
func (c Ungate) String() string {
	parts := []string{c.Verb(), quoteIfNeeded(c.Pod)}
	for _, g := range c.Gates {
		parts = append(parts, quoteIfNeeded(g))
	}
	return join(parts...)
}

var ungateVerb = verbSpec{
	usage: "ungate pod NAME [GATE]...",
	help:  "remove scheduling gates from a pending pod (none named: all); with none left it is queued and scheduled",
	args:  []ArgKind{ArgPod, ArgGate},
	build: buildUngate,
}

func buildUngate(a *args) (Command, error) {
	n, rest, err := podNameArg(a.pos)
	if err != nil {
		return nil, err
	}
	c := Ungate{Pod: n}
	seen := map[string]bool{}
	for _, g := range rest {
		// a gate's name is a qualified name (validateSchedulingGates)
		if checkLabelKey(g) != nil {
			return nil, fmt.Errorf("scheduling gate %q: give a qualified name such as example.com/foo", g)
		}
		if seen[g] {
			return nil, fmt.Errorf("scheduling gate %q given twice", g)
		}
		seen[g] = true
		c.Gates = append(c.Gates, g)
	}
	return c, nil
}
