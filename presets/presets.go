// Package presets embeds the lab's workshop scenarios: each file is a
// scenario with a lesson (see README.md, "Scenario files").
package presets

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.yaml
var files embed.FS

// Default is the preset `podlab` opens with no arguments.
const Default = "spread-basics"

// Names lists the presets, sorted, without the .yaml suffix.
func Names() []string {
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".yaml") {
			out = append(out, strings.TrimSuffix(e.Name(), ".yaml"))
		}
	}
	sort.Strings(out)
	return out
}

// Read returns a preset's file.
func Read(name string) ([]byte, error) {
	b, err := files.ReadFile(strings.TrimSuffix(name, ".yaml") + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("no preset %q; presets are %s", name, strings.Join(Names(), ", "))
	}
	return b, nil
}
