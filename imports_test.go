package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The import rules of docs/architecture.md are law; this test makes them
// so. It parses the package table, lists the real import graph with
// `go list -deps -json ./...`, and checks every package of the main module
// against the row that covers it.

const (
	modulePath   = "podlab.dev/podlab"
	architecture = "docs/architecture.md"
)

// importRule is one row of the package table.
type importRule struct {
	pattern string // the first column as a Go package pattern, module-relative
	line    int    // line in docs/architecture.md, for messages
	cell    string // the "must not import" column as written
	// allowOnly switches the rule to an allowlist ("anything but …");
	// otherwise patterns are forbidden.
	allowOnly bool
	allowStd  bool
	patterns  []string
}

// parseImportRules reads the table that starts with the header
// "| package | owns | must not import |".
func parseImportRules(doc string) ([]importRule, error) {
	var rules []importRule
	in := false
	for i, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "| package | owns | must not import |") {
			in = true
			continue
		}
		if !in || strings.HasPrefix(line, "|---") {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			if len(rules) > 0 {
				break
			}
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 3 {
			return nil, errors.New(architecture + ":" + strconv.Itoa(i+1) + ": a row needs three cells: | `package` | owns | must not import |")
		}
		names := backquoted(cells[0])
		if len(names) == 0 {
			return nil, errors.New(architecture + ":" + strconv.Itoa(i+1) + ": the first cell needs the package in backquotes")
		}
		r := importRule{pattern: names[0], line: i + 1, cell: strings.TrimSpace(cells[2])}
		r.allowOnly = strings.HasPrefix(r.cell, "anything but")
		r.allowStd = r.allowOnly && strings.Contains(r.cell, "the standard library")
		r.patterns = backquoted(r.cell)
		if !r.allowOnly && len(r.patterns) == 0 && !strings.HasPrefix(r.pattern, "conformance") {
			return nil, errors.New(architecture + ":" + strconv.Itoa(i+1) + ": the rule for `" + r.pattern + "` names no package (write `pkg/...` patterns or \"anything but …\")")
		}
		rules = append(rules, r)
	}
	if len(rules) == 0 {
		return nil, errors.New(architecture + ": no package table (| package | owns | must not import |)")
	}
	return rules, nil
}

// backquoted returns the `…` spans of s, with a trailing "/*" read as the
// Go pattern "/...".
func backquoted(s string) []string {
	var out []string
	parts := strings.Split(s, "`")
	for i := 1; i < len(parts); i += 2 {
		p := strings.TrimSuffix(parts[i], "/*")
		if p != parts[i] {
			p += "/..."
		}
		out = append(out, p)
	}
	return out
}

// matches reports whether an import path matches a table pattern:
// module-relative unless its first element has a dot, "x/..." matching x
// and everything below, "." the module root.
func matches(pattern, path string) bool {
	abs := pattern
	if first, _, _ := strings.Cut(pattern, "/"); !strings.Contains(first, ".") || pattern == "." {
		abs = modulePath + "/" + pattern
		if pattern == "." {
			abs = modulePath
		}
	}
	if base, ok := strings.CutSuffix(abs, "/..."); ok {
		return path == base || strings.HasPrefix(path, base+"/")
	}
	return path == abs
}

// ruleFor picks the most specific row for a package: an exact row, else
// the longest "/..." row that covers it.
func ruleFor(rules []importRule, pkg string) (importRule, bool) {
	best, found := importRule{}, false
	for _, r := range rules {
		if !matches(r.pattern, pkg) {
			continue
		}
		exact := !strings.HasSuffix(r.pattern, "/...")
		if !found || exact || (strings.HasSuffix(best.pattern, "/...") && len(r.pattern) > len(best.pattern)) {
			best, found = r, true
		}
		if exact {
			break
		}
	}
	return best, found
}

// violates returns why importing imp breaks r, or "".
func (r importRule) violates(imp string, std bool) string {
	if r.allowOnly {
		if std && r.allowStd {
			return ""
		}
		for _, p := range r.patterns {
			if matches(p, imp) {
				return ""
			}
		}
		return "its row allows only: " + r.cell
	}
	for _, p := range r.patterns {
		if matches(p, imp) {
			return "its row forbids `" + p + "`: " + r.cell
		}
	}
	return ""
}

// listedPackage is what we read of `go list -json`.
type listedPackage struct {
	ImportPath string
	Dir        string
	Standard   bool
	Imports    []string
}

func goList(t *testing.T) []listedPackage {
	t.Helper()
	// go test runs with the go command's own directory first in PATH
	cmd := exec.Command("go", "list", "-deps", "-json", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps -json ./...: %v\n%s", err, stderr.String())
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func TestImportsFollowArchitectureTable(t *testing.T) {
	doc, err := os.ReadFile(architecture)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := parseImportRules(string(doc))
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	var ours []listedPackage
	std := map[string]bool{}
	for _, p := range goList(t) {
		std[p.ImportPath] = p.Standard
		if strings.HasPrefix(p.ImportPath, "k8s.io/") {
			t.Errorf("the main module depends on %s: no k8s.io/* outside conformance/ (docs/architecture.md)", p.ImportPath)
		}
		if p.ImportPath == modulePath || strings.HasPrefix(p.ImportPath, modulePath+"/") {
			ours = append(ours, p)
		}
	}
	for _, p := range ours {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, modulePath), "/")
		if rel == "" {
			rel = "."
		}
		r, ok := ruleFor(rules, p.ImportPath)
		if !ok {
			t.Errorf("package %s has no row in %s: add a row `| \x60%s\x60 | what it owns | must not import … |` to its package table", p.ImportPath, architecture, rel)
			continue
		}
		used[r.pattern] = true
		for _, imp := range p.Imports {
			why := r.violates(imp, std[imp])
			if why == "" {
				continue
			}
			t.Errorf("package %s imports %s, which %s:%d does not allow (%s)", p.ImportPath, imp, architecture, r.line, why)
		}
	}
	for _, r := range rules {
		if used[r.pattern] {
			continue
		}
		// A row for a directory with its own go.mod is a separate module
		// (conformance/), outside this graph.
		dir := strings.TrimSuffix(r.pattern, "/...")
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			continue
		}
		t.Errorf("%s:%d: row `%s` matches no package of the module: remove or rename it", architecture, r.line, r.pattern)
	}
}

// TestImportRulesParse pins how a cell reads, so the table cannot drift
// into prose the test silently ignores.
func TestImportRulesParse(t *testing.T) {
	doc := "| package | owns | must not import |\n|---|---|---|\n" +
		"| `engine/api` | model | anything but the standard library |\n" +
		"| `engine/scheduler/plugins/*` | plugins | anything but the standard library, `engine/api` and `engine/scheduler/plugins/...` |\n" +
		"| `engine` | engine | `lab/...`, `ui/...` |\n" +
		"| `ui` | tui | anything but `lab` and `charm.land/...` |\n"
	rules, err := parseImportRules(doc)
	if err != nil {
		t.Fatal(err)
	}
	m := modulePath + "/"
	tests := []struct {
		pkg, imp string
		std      bool
		ok       bool
	}{
		{m + "engine/api", "fmt", true, true},
		{m + "engine/api", m + "engine/clock", false, false},
		{m + "engine/scheduler/plugins/nodename", m + "engine/api", false, true},
		{m + "engine/scheduler/plugins/nodename", m + "engine/scheduler/plugins/helper", false, true},
		{m + "engine/scheduler/plugins/nodename", m + "engine/scheduler", false, false},
		{m + "engine", m + "lab", false, false},
		{m + "engine", m + "lab/check", false, false},
		{m + "engine", m + "labx", false, true},
		{m + "engine", "fmt", true, true},
		{m + "ui", m + "lab", false, true},
		{m + "ui", m + "lab/manifest", false, false},
		{m + "ui", "charm.land/lipgloss/v2", false, true},
		{m + "ui", "fmt", true, false},
	}
	for _, tt := range tests {
		r, ok := ruleFor(rules, tt.pkg)
		if !ok {
			t.Fatalf("no rule for %s", tt.pkg)
		}
		if got := r.violates(tt.imp, tt.std) == ""; got != tt.ok {
			t.Errorf("%s importing %s: allowed = %v, want %v", tt.pkg, tt.imp, got, tt.ok)
		}
	}
	if _, ok := ruleFor(rules, m+"engine/descheduler"); ok {
		t.Errorf("engine/descheduler matched a row; a new package must get its own")
	}
	if _, err := parseImportRules("| package | owns | must not import |\n|---|---|---|\n| `x` | y | the engine root |\n"); err == nil {
		t.Errorf("a rule in prose only parsed")
	}
	if !slices.Equal(backquoted("`a/*`, `b`"), []string{"a/...", "b"}) {
		t.Errorf("backquoted = %q", backquoted("`a/*`, `b`"))
	}
}
