package manifest

import (
	"fmt"
	"strings"
)

// Position is a place in an input file; lines and columns start at 1.
type Position struct {
	File      string
	Line, Col int
}

// String prints "file:line:col".
func (p Position) String() string {
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Severity grades a diagnostic.
type Severity int

// Severities, most severe first.
const (
	SeverityError Severity = iota
	SeverityWarning
	// SeverityInfo is a summary of something ignored on purpose
	// ("ignored 42 managedFields entries").
	SeverityInfo
)

func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	}
	return "info"
}

// Diagnostic is one error, warning or note with its position.
type Diagnostic struct {
	File      string
	Line, Col int
	Severity  Severity
	Message   string
	// Hint says how to fix it; may be empty.
	Hint string
}

// Pos returns the diagnostic's position.
func (d Diagnostic) Pos() Position { return Position{File: d.File, Line: d.Line, Col: d.Col} }

// String prints "file:line:col: message (hint)".
func (d Diagnostic) String() string {
	s := d.Pos().String() + ": " + shortenQuoted(d.Message)
	if d.Hint != "" {
		s += " (" + shortenQuoted(d.Hint) + ")"
	}
	return s
}

// Error is what Load returns when a manifest is invalid: every error found
// (up to the cap), in file order.
type Error struct {
	Diagnostics []Diagnostic
	// Warnings found before loading stopped (not part of Error()).
	Warnings []Diagnostic
}

// Error prints one diagnostic per line.
func (e *Error) Error() string {
	lines := make([]string, len(e.Diagnostics))
	for i, d := range e.Diagnostics {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}
