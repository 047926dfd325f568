package ui

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"

	"podlab.dev/podlab/assets"
)

// Styles holds every style the UI uses, built once per theme.
type Styles struct {
	Theme    assets.Theme
	NoColor  bool
	Base     lipgloss.Style
	Muted    lipgloss.Style
	Accent   lipgloss.Style
	Bold     lipgloss.Style
	OK       lipgloss.Style
	Warn     lipgloss.Style
	Bad      lipgloss.Style
	Title    lipgloss.Style
	Border   lipgloss.Style // border colour for boxes
	Selected lipgloss.Style
	Bar      lipgloss.Style
	BarEmpty lipgloss.Style
	Key      lipgloss.Style // key names in the footer
	Heading  lipgloss.Style

	workloads []lipgloss.Style
	// borderSide and borderSideActive are "│" rendered once in the border
	// colours (every box line uses them).
	borderSide, borderSideActive string
	// edges are box top and bottom lines already drawn (box): a frame
	// draws the same few boxes again. Owned by one Model, as the Styles
	// are; emptied when it grows past maxEdges (titles with counts vary).
	edges map[edgeKey][2]string
}

// edgeKey is what a box's top and bottom lines show.
type edgeKey struct {
	title  string
	w      int
	active bool
}

const maxEdges = 128

// NewStyles builds the styles of a theme; noColor drops colours (NO_COLOR)
// and keeps only bold/reverse, so glyph shapes carry the meaning.
func NewStyles(t assets.Theme, noColor bool) *Styles {
	c := func(hex string) color.Color {
		if noColor || hex == "" {
			return lipgloss.NoColor{}
		}
		return lipgloss.Color(hex)
	}
	s := &Styles{Theme: t, NoColor: noColor}
	s.Base = lipgloss.NewStyle().Foreground(c(t.Fg))
	s.Muted = lipgloss.NewStyle().Foreground(c(t.Muted))
	// without colour the focused box's border is bold: the focus still shows
	s.Accent = lipgloss.NewStyle().Foreground(c(t.Accent)).Bold(noColor)
	s.Bold = lipgloss.NewStyle().Bold(true).Foreground(c(t.Fg))
	s.OK = lipgloss.NewStyle().Foreground(c(t.OK))
	s.Warn = lipgloss.NewStyle().Foreground(c(t.Warn))
	s.Bad = lipgloss.NewStyle().Foreground(c(t.Bad)).Bold(noColor)
	s.Title = lipgloss.NewStyle().Bold(true).Foreground(c(t.Accent))
	s.Border = lipgloss.NewStyle().Foreground(c(t.Border))
	s.Heading = lipgloss.NewStyle().Bold(true).Foreground(c(t.Fg))
	if noColor {
		s.Selected = lipgloss.NewStyle().Reverse(true)
	} else {
		s.Selected = lipgloss.NewStyle().Foreground(c(t.Selected)).Background(c(t.SelectedBg)).Bold(true)
	}
	s.Bar = lipgloss.NewStyle().Foreground(c(t.Bar))
	s.BarEmpty = lipgloss.NewStyle().Foreground(c(t.BarEmpty))
	s.Key = lipgloss.NewStyle().Bold(true).Foreground(c(t.Accent))
	for _, w := range t.Workloads {
		s.workloads = append(s.workloads, lipgloss.NewStyle().Foreground(c(w)))
	}
	s.borderSide = s.Border.Render("│")
	s.borderSideActive = s.Accent.Render("│")
	return s
}

// helpStyles are the footer's and the help overlay's styles (bubbles/help).
func (s *Styles) helpStyles() help.Styles {
	return help.Styles{
		Ellipsis: s.Muted, ShortKey: s.Key, ShortDesc: s.Muted, ShortSeparator: s.Muted,
		FullKey: s.Key, FullDesc: s.Base, FullSeparator: s.Muted,
	}
}

// Workload returns the colour style of the i-th workload.
func (s *Styles) Workload(i int) lipgloss.Style {
	if i < 0 || len(s.workloads) == 0 {
		return s.Muted
	}
	return s.workloads[i%len(s.workloads)]
}
