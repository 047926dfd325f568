package ui

// Glyphs of running pods that are not healthy (the shape, not the
// colour, says it: lab.LookOf decides).
const (
	glyphNotReady    = "◎"
	glyphCrashLoop   = "↻"
	legendPodHealth1 = glyphNotReady + " running, not ready (probe failing)"
	legendPodHealth2 = glyphCrashLoop + " crash-looping (CrashLoopBackOff)"
)
