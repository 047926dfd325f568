// Package assets embeds what the terminal lab shows that is not code:
// colour themes, the help text and the concept cards.
package assets

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

//go:embed themes/*.yaml help.md cards/*.md
var files embed.FS

// Theme is a palette. Colours are "#rrggbb".
type Theme struct {
	Name string `yaml:"name"`
	// Dark tells whether the theme is meant for a dark background.
	Dark bool `yaml:"dark"`
	// Text colours.
	Fg     string `yaml:"fg"`
	Muted  string `yaml:"muted"`
	Accent string `yaml:"accent"`
	OK     string `yaml:"ok"`
	Warn   string `yaml:"warn"`
	Bad    string `yaml:"bad"`
	Border string `yaml:"border"`
	// Selected is the highlight of the item under the cursor.
	Selected   string `yaml:"selected"`
	SelectedBg string `yaml:"selectedBg"`
	// Bar is the filled part of allocation bars; BarEmpty the rest.
	Bar      string `yaml:"bar"`
	BarEmpty string `yaml:"barEmpty"`
	// Workloads colour pods per workload, in order of appearance.
	Workloads []string `yaml:"workloads"`
}

// ThemeNames lists the embedded themes.
func ThemeNames() []string {
	entries, _ := fs.ReadDir(files, "themes")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(out)
	return out
}

// LoadTheme returns an embedded theme by name.
func LoadTheme(name string) (Theme, error) {
	b, err := files.ReadFile("themes/" + name + ".yaml")
	if err != nil {
		return Theme{}, fmt.Errorf("no theme %q; themes are %s", name, strings.Join(ThemeNames(), ", "))
	}
	var t Theme
	if err := yaml.Unmarshal(b, &t); err != nil {
		return Theme{}, fmt.Errorf("theme %s: %w", name, err)
	}
	if len(t.Workloads) == 0 {
		return Theme{}, fmt.Errorf("theme %s has no workload colours", name)
	}
	return t, nil
}

// Help returns the help overlay's text (markdown-ish, plain lines).
func Help() string {
	b, _ := files.ReadFile("help.md")
	return string(b)
}

// Card is a short explanation of a concept shown beside a view.
type Card struct {
	Name  string
	Title string
	Body  string
}

// Cards returns the concept cards, sorted by name.
func Cards() []Card {
	entries, _ := fs.ReadDir(files, "cards")
	var out []Card
	for _, e := range entries {
		b, err := files.ReadFile("cards/" + e.Name())
		if err != nil {
			continue
		}
		text := string(b)
		title, body, _ := strings.Cut(text, "\n")
		out = append(out, Card{Name: strings.TrimSuffix(e.Name(), ".md"), Title: strings.TrimSpace(strings.TrimPrefix(title, "#")), Body: strings.TrimSpace(body)})
	}
	return out
}

// CardByName returns one card.
func CardByName(name string) (Card, bool) {
	for _, c := range Cards() {
		if c.Name == name {
			return c, true
		}
	}
	return Card{}, false
}
