package command

// Deschedule: deschedule [--dry-run] — one descheduler pass now.
type Deschedule struct{ DryRun bool }

// Verb implements Command.
func (Deschedule) Verb() string { return "deschedule" }

func (c Deschedule) String() string {
	if c.DryRun {
		return "deschedule --dry-run"
	}
	return "deschedule"
}

var deschedulerVerb = verbSpec{
	usage: "deschedule [--dry-run]",
	help:  "run the descheduler once: evict what its policy picks (--dry-run lists what and why, changing nothing)",
	flags: map[string]flagKind{"dry-run": boolFlag},
	build: func(a *args) (Command, error) {
		return Deschedule{DryRun: a.has("dry-run")}, noMorePositional(a.pos)
	},
}
