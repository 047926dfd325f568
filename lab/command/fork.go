package command

import "fmt"

// Fork: fork | fork close a|b. It acts on the lab session itself (split
// into lanes a and b, or end the split keeping one lane), not on the
// cluster: the TUI carries it out; a plain session refuses it.
type Fork struct {
	// Close is the lane to keep when ending a fork; "" splits.
	Close string
}

// Verb implements Command.
func (Fork) Verb() string { return "fork" }

// String implements Command.
func (c Fork) String() string {
	if c.Close != "" {
		return "fork close " + c.Close
	}
	return "fork"
}

var forkVerb = verbSpec{
	usage: "fork | fork close a|b",
	help:  "split the lab into lanes a and b at this instant (then @a/@b CMD for one lane), or end the split keeping a lane",
	args:  []ArgKind{ArgFree},
	build: func(a *args) (Command, error) {
		switch {
		case len(a.pos) == 0:
			return Fork{}, nil
		case len(a.pos) == 2 && a.pos[0] == "close" && (a.pos[1] == "a" || a.pos[1] == "b"):
			return Fork{Close: a.pos[1]}, nil
		}
		return nil, fmt.Errorf("fork takes nothing (split) or close a|b (end the split keeping that lane)")
	},
}
