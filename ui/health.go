package ui

import (
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab"
)

// Glyphs of running pods that are not healthy (the shape, not the
// colour, says it: lab.PodHealth decides).
const (
	glyphNotReady    = "◎"
	glyphCrashLoop   = "↻"
	legendPodHealth1 = glyphNotReady + " running, not ready (probe failing)"
	legendPodHealth2 = glyphCrashLoop + " crash-looping (CrashLoopBackOff)"
)

// runningGlyph is the glyph of a running pod.
func runningGlyph(p *api.Pod) string {
	switch lab.PodHealth(p) {
	case "crash-loop":
		return glyphCrashLoop
	case "not-ready":
		return glyphNotReady
	}
	return glyphRunning
}
