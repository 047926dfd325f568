package lab

import (
	"sort"
	"testing"

	"podlab.dev/podlab/lab/check"
)

// The check language declares its functions (check.Funcs: usage, help,
// arity); the lab implements them (checkFuncs). Both lists must agree, so
// a declared function always works and an implemented one is documented.
func TestCheckFuncsImplementEveryDeclaredFunction(t *testing.T) {
	declared := map[string]bool{}
	for _, f := range check.Funcs() {
		declared[f.Name] = true
		if checkFuncs[f.Name] == nil {
			t.Errorf("check.Funcs declares %s, which checkFuncs does not implement", f.Name)
		}
	}
	var extra []string
	for name := range checkFuncs {
		if !declared[name] {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	for _, name := range extra {
		t.Errorf("checkFuncs implements %s, which check.Funcs does not declare", name)
	}
}
