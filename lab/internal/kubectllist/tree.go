// Package kubectllist writes what `kubectl get nodes,pods,... -A -o yaml`
// (or `-o json`) prints for a cluster of a given size: a `kind: List` whose
// items carry managedFields, status, kubectl's last-applied-configuration
// annotation and owner references, laid out as kubectl lays them out. It
// exists for the import benchmarks and tests; nothing in the lab's runtime
// imports it.
package kubectllist

import (
	"bufio"
	"encoding/json"
	"io"
	"sort"
	"strconv"
	"strings"
)

// obj is a JSON object with its keys in insertion order; YAML output sorts
// them (kubectl's YAML printer goes through a map), JSON output keeps them
// (kubectl's JSON printer follows the Go struct order).
type obj []kv

type kv struct {
	k string
	v any
}

// list is a JSON array.
type list []any

func (o obj) set(k string, v any) obj { return append(o, kv{k, v}) }

// writer emits one tree as YAML or JSON.
type writer struct {
	w    *bufio.Writer
	json bool
}

func (w *writer) str(s string) { w.w.WriteString(s) }

func (w *writer) indent(n int) {
	for range n {
		w.w.WriteByte(' ')
	}
}

// --- JSON, as kubectl -o json: 4-space indentation.

func (w *writer) jsonValue(v any, ind int) {
	switch t := v.(type) {
	case obj:
		if len(t) == 0 {
			w.str("{}")
			return
		}
		w.str("{\n")
		for i, e := range t {
			w.indent(ind + 4)
			w.jsonString(e.k)
			w.str(": ")
			w.jsonValue(e.v, ind+4)
			if i < len(t)-1 {
				w.str(",")
			}
			w.str("\n")
		}
		w.indent(ind)
		w.str("}")
	case list:
		if len(t) == 0 {
			w.str("[]")
			return
		}
		w.str("[\n")
		for i, e := range t {
			w.indent(ind + 4)
			w.jsonValue(e, ind+4)
			if i < len(t)-1 {
				w.str(",")
			}
			w.str("\n")
		}
		w.indent(ind)
		w.str("]")
	default:
		w.scalarJSON(v)
	}
}

func (w *writer) jsonString(s string) {
	b, _ := json.Marshal(s)
	w.w.Write(b)
}

func (w *writer) scalarJSON(v any) {
	switch t := v.(type) {
	case nil:
		w.str("null")
	case string:
		w.jsonString(t)
	case int:
		w.str(strconv.Itoa(t))
	case int64:
		w.str(strconv.FormatInt(t, 10))
	case bool:
		w.str(strconv.FormatBool(t))
	}
}

// --- YAML, as kubectl -o yaml (sigs.k8s.io/yaml): sorted keys, block
// style, lists not indented under their key, multi-line strings as "|".

func sorted(o obj) obj {
	c := append(obj(nil), o...)
	sort.SliceStable(c, func(i, j int) bool { return c[i].k < c[j].k })
	return c
}

// yamlEntries writes the entries of a mapping whose first key goes at the
// current position (after "- " or at the start of a line) and the others
// at ind.
func (w *writer) yamlEntries(o obj, ind int, first bool) {
	for i, e := range sorted(o) {
		if i > 0 || !first {
			w.indent(ind)
		}
		w.yamlScalarString(e.k)
		w.str(":")
		w.yamlAfterKey(e.v, ind)
	}
}

// yamlAfterKey writes a mapping value after "key:".
func (w *writer) yamlAfterKey(v any, ind int) {
	switch t := v.(type) {
	case obj:
		if len(t) == 0 {
			w.str(" {}\n")
			return
		}
		w.str("\n")
		w.yamlEntries(t, ind+2, false)
	case list:
		if len(t) == 0 {
			w.str(" []\n")
			return
		}
		w.str("\n")
		w.yamlItems(t, ind)
	case string:
		if strings.Contains(t, "\n") {
			w.str(" |")
			if !strings.HasSuffix(t, "\n") {
				w.str("-")
			}
			w.str("\n")
			for _, l := range strings.SplitAfter(strings.TrimSuffix(t, "\n"), "\n") {
				w.indent(ind + 2)
				w.str(strings.TrimSuffix(l, "\n"))
				w.str("\n")
			}
			return
		}
		w.str(" ")
		w.yamlScalarString(t)
		w.str("\n")
	default:
		w.str(" ")
		w.scalarJSON(v)
		w.str("\n")
	}
}

func (w *writer) yamlItems(l list, ind int) {
	for _, e := range l {
		w.indent(ind)
		w.str("- ")
		switch t := e.(type) {
		case obj:
			if len(t) == 0 {
				w.str("{}\n")
				continue
			}
			w.yamlEntries(t, ind+2, true)
		case list:
			w.str("\n")
			w.yamlItems(t, ind+2)
		case string:
			w.yamlScalarString(t)
			w.str("\n")
		default:
			w.scalarJSON(e)
			w.str("\n")
		}
	}
}

// yamlScalarString writes s plain when YAML reads it back as the same
// string, else double-quoted (JSON escapes are valid YAML escapes).
func (w *writer) yamlScalarString(s string) {
	if plainSafe(s) {
		w.str(s)
		return
	}
	w.jsonString(s)
}

func plainSafe(s string) bool {
	if s == "" || strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@` 0123456789.+~") && s != "." {
		return false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") || strings.HasSuffix(s, " ") {
		return false
	}
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "y", "n", "on", "off", "null":
		return false
	}
	for _, r := range s {
		if r < ' ' || r > '~' {
			return false
		}
	}
	return true
}

// Write writes items as a kubectl List in YAML or JSON.
func write(out io.Writer, items []any, asJSON bool) error {
	w := &writer{w: bufio.NewWriterSize(out, 1<<20), json: asJSON}
	top := obj{}.set("apiVersion", "v1").set("items", list(items)).set("kind", "List").
		set("metadata", obj{}.set("resourceVersion", ""))
	if asJSON {
		w.jsonValue(top, 0)
		w.str("\n")
	} else {
		w.yamlEntries(top, 0, false)
	}
	return w.w.Flush()
}
