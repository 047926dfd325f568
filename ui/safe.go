package ui

import "podlab.dev/podlab/lab/textsafe"

// Every string that came from input (a scenario file, a command line, an
// object's name, an event message) goes through safe or safeText before it
// is drawn: an escape sequence in a scenario title must show as "^[[2J",
// not clear the screen. Strings the lab builds itself (styles, glyphs,
// numbers) need not.

// safe is textsafe.Line: one-line fields (names, titles, messages).
func safe(s string) string { return textsafe.Line(s) }

// safeText is textsafe.Text: prose whose line breaks are kept.
func safeText(s string) string { return textsafe.Text(s) }
