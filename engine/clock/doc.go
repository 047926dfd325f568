// Package clock is the engine's discrete-event core: virtual time
// (api.Time) and a queue of pending actions ordered by (time, sequence), so
// actions due at the same instant run in the order they were scheduled and
// every run with the same inputs replays identically.
//
// It never sleeps and never reads the wall clock. Actions are plain values
// (not closures) so a Clock can be copied for undo: the owner supplies the
// function that performs them. Randomness, where needed, comes from a
// seeded source the owner keeps (see Rand).
//
// It imports engine/api only.
package clock
