package lab

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"

	"podlab.dev/podlab/presets"
)

// PresetInfo describes a built-in scenario for pickers and `podlab presets`.
type PresetInfo struct {
	Name        string
	Title       string
	Description string
	Steps       int
}

// Presets lists the built-in scenarios with their titles.
func Presets() []PresetInfo {
	var out []PresetInfo
	for _, name := range presets.Names() {
		info := PresetInfo{Name: name}
		if f, err := LoadPreset(name); err == nil && f.Scenario != nil {
			info.Title, info.Description = f.Scenario.Title, f.Scenario.Description
			if f.Scenario.Lesson != nil {
				info.Steps = len(f.Scenario.Lesson.Steps)
			}
		}
		out = append(out, info)
	}
	return out
}

// LoadPreset parses a built-in scenario.
func LoadPreset(name string) (*File, error) {
	data, err := presets.Read(name)
	if err != nil {
		return nil, err
	}
	return LoadFile(strings.TrimSuffix(name, ".yaml")+".yaml", data)
}

// OpenOrPreset opens a file, or a preset when no file of that name exists
// and a preset does ("-" is standard input).
func OpenOrPreset(path string, stdin io.Reader) (*File, error) {
	return OpenOrPresetWithProgress(path, stdin, nil)
}

// OpenOrPresetWithProgress is OpenOrPreset reporting a big import's
// progress (see LoadFileWithProgress).
func OpenOrPresetWithProgress(path string, stdin io.Reader, progress func(done, total int)) (*File, error) {
	if path != "-" {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			for _, n := range presets.Names() {
				if n == strings.TrimSuffix(path, ".yaml") {
					return LoadPreset(n)
				}
			}
		}
	}
	return openWithProgress(path, stdin, progress)
}
