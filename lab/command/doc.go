// Package command parses podlab's one command language: the lines a user
// types in the TUI's palette, a scenario timeline lists, and `podlab run
// --do` takes. It is kubectl-shaped where kubectl has the verb (scale,
// cordon, drain, taint, label, delete, rollout, apply) and uses lab verbs
// where it has none (add zone, pressure, usage, advance, seed).
//
// Parsing is pure: it checks syntax and values, not whether the named
// objects exist (the lab does that against the running cluster, where it
// can list the names that do exist).
package command
