package manifest

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/api"
)

// decoder walks yaml.Node trees into api types. It records a diagnostic
// for every problem and keeps going, so one run reports all of them.
type decoder struct {
	file string
	opts Options

	errs  []Diagnostic
	warns []Diagnostic
	full  bool // error cap reached: stop decoding

	// object is `Kind "name"`, the prefix of the current object's messages.
	subject string
	// found collects validation findings made while decoding (where the
	// decoded value no longer shows them); object() reports them with the
	// validation errors.
	found []fieldError
	// failed holds the paths of the current object that did not decode, so
	// validation does not also report them as missing.
	failed map[string]bool
	// pos maps field paths of the current object ("spec.containers[0].name")
	// to the position of their value, for validation errors.
	pos map[string]Position

	times           []pendingTime
	managedFields   int
	generated       int
	droppedWarnings int
}

// pendingTime is an absolute timestamp waiting for the reference instant.
type pendingTime struct {
	t         time.Time
	set       func(api.Time)
	reference bool // may be chosen as the reference (not deletionTimestamp)
}

func (d *decoder) at(n *yaml.Node) Position {
	if n == nil {
		return Position{File: d.file, Line: 1, Col: 1}
	}
	line, col := n.Line, n.Column
	if line < 1 {
		line = 1
	}
	if col < 1 {
		col = 1
	}
	return Position{File: d.file, Line: line, Col: col}
}

func (d *decoder) diag(p Position, sev Severity, msg, hint string) {
	dg := Diagnostic{File: p.File, Line: p.Line, Col: p.Col, Severity: sev, Message: msg, Hint: hint}
	if sev == SeverityError {
		if len(d.errs) >= d.opts.maxErrors() {
			d.full = true
			return
		}
		d.errs = append(d.errs, dg)
		if len(d.errs) >= d.opts.maxErrors() {
			d.full = true
		}
		return
	}
	if len(d.warns) >= d.opts.maxWarnings() {
		d.droppedWarnings++
		return
	}
	d.warns = append(d.warns, dg)
}

// prefix qualifies a message with the current object, as kubectl does
// (`Pod "web" is invalid: spec…`).
func (d *decoder) prefix(msg string) string {
	if d.subject == "" {
		return msg
	}
	return d.subject + ": " + msg
}

// errorf reports a decoding error at node n, for field path p.
func (d *decoder) errorf(n *yaml.Node, p, hint, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if p != "" {
		msg = p + ": " + msg
		if d.failed != nil {
			d.failed[p] = true
		}
	}
	d.diag(d.at(n), SeverityError, d.prefix(msg), hint)
}

func (d *decoder) warnf(n *yaml.Node, hint, format string, args ...any) {
	d.diag(d.at(n), SeverityWarning, d.prefix(fmt.Sprintf(format, args...)), hint)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

func keyed(path, key string) string { return path + "[" + key + "]" }

// resolve follows aliases (their expansion is bounded by checkDocument).
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		return resolve(n.Content[0])
	}
	return n
}

func isNull(n *yaml.Node) bool {
	n = resolve(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!int", "!!float":
			return "number " + n.Value
		case "!!bool":
			return "boolean " + n.Value
		case "!!null":
			return "null"
		}
		return strconv.Quote(n.Value)
	}
	return "an unexpected node"
}

// pair is one key/value of a mapping after merge keys are expanded.
type pair struct {
	key     string
	keyNode *yaml.Node
	value   *yaml.Node
}

// pairs returns a mapping's entries in order, expanding YAML merge keys
// ("<<: *base", explicit keys win) and reporting duplicate keys as the API
// server's strict decoding does.
func (d *decoder) pairs(n *yaml.Node, path string) []pair {
	var out []pair
	seen := map[string]int{}
	var merged []pair
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			d.errorf(k, path, "", "mapping keys must be strings, got %s", describe(k))
			continue
		}
		if k.ShortTag() == "!!merge" {
			merged = append(merged, d.mergeSources(v, path)...)
			continue
		}
		if j, dup := seen[k.Value]; dup {
			d.errorf(k, join(path, k.Value), "remove one of them", "duplicate field %q (first at line %d)", k.Value, out[j].keyNode.Line)
			continue
		}
		seen[k.Value] = len(out)
		out = append(out, pair{key: k.Value, keyNode: k, value: v})
	}
	for _, m := range merged {
		if _, ok := seen[m.key]; ok {
			continue
		}
		seen[m.key] = len(out)
		out = append(out, m)
	}
	return out
}

func (d *decoder) mergeSources(v *yaml.Node, path string) []pair {
	v = resolve(v)
	var srcs []*yaml.Node
	switch v.Kind {
	case yaml.MappingNode:
		srcs = []*yaml.Node{v}
	case yaml.SequenceNode:
		for _, e := range v.Content {
			srcs = append(srcs, resolve(e))
		}
	}
	var out []pair
	for _, s := range srcs {
		if s == nil || s.Kind != yaml.MappingNode {
			d.errorf(v, path, "", "map merge requires a mapping or a list of mappings")
			return nil
		}
		out = append(out, d.pairs(s, path)...)
	}
	return out
}

// mapping checks that n is a mapping (null counts as empty) and returns
// its entries.
func (d *decoder) mapping(n *yaml.Node, path string) ([]pair, bool) {
	n = resolve(n)
	if isNull(n) {
		return nil, false
	}
	if n.Kind != yaml.MappingNode {
		d.errorf(n, path, "", "expected a mapping, got %s", describe(n))
		return nil, false
	}
	return d.pairs(n, path), true
}

// fields decodes a mapping whose keys the schema knows: decoded keys go to
// f (null values are skipped, as absent), ignored keys are accepted
// silently, anything else is an unknown-field warning.
func (d *decoder) fields(n *yaml.Node, path string, s *schema, f func(key string, v *yaml.Node, p string)) {
	ps, _ := d.mapping(n, path)
	for _, kv := range ps {
		if d.full {
			return
		}
		p := join(path, kv.key)
		switch {
		case s.decoded[kv.key]:
			if isNull(kv.value) {
				continue
			}
			d.pos[p] = d.at(resolve(kv.value))
			f(kv.key, resolve(kv.value), p)
		case s.ignored[kv.key]:
		default:
			d.unknownField(kv.keyNode, p, kv.key, s)
		}
	}
}

func (d *decoder) unknownField(k *yaml.Node, p, key string, s *schema) {
	hint := ""
	if near := s.nearest(key); near != "" {
		hint = fmt.Sprintf("did you mean %q?", near)
	}
	d.warnf(k, hint, "unknown field %q", p)
}

// seq decodes a list, calling f for every element.
func (d *decoder) seq(n *yaml.Node, path string, f func(i int, e *yaml.Node, p string)) {
	n = resolve(n)
	if isNull(n) {
		return
	}
	if n.Kind != yaml.SequenceNode {
		d.errorf(n, path, "", "expected a list, got %s", describe(n))
		return
	}
	for i, e := range n.Content {
		if d.full {
			return
		}
		p := index(path, i)
		e = resolve(e)
		d.pos[p] = d.at(e)
		f(i, e, p)
	}
}

// yaml11Bools are the plain scalars YAML 1.1 reads as booleans. The API
// server's YAML decoding (sigs.k8s.io/yaml, goyaml.v2) is YAML 1.1, so
// there `name: n` is a boolean (an error) and `hostNetwork: yes` is true;
// the parser here is YAML 1.2, so the difference is made up by hand.
var yaml11Bools = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "on": true, "On": true, "ON": true,
	"n": false, "N": false, "no": false, "No": false, "NO": false, "off": false, "Off": false, "OFF": false,
}

// yaml11Bool reports whether n is an unquoted, untagged YAML 1.1 boolean
// that YAML 1.2 reads as a string.
func yaml11Bool(n *yaml.Node) (value, ok bool) {
	const notPlain = yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle | yaml.LiteralStyle | yaml.FoldedStyle | yaml.TaggedStyle
	if n.Kind != yaml.ScalarNode || n.Style&notPlain != 0 || n.ShortTag() != "!!str" {
		return false, false
	}
	value, ok = yaml11Bools[n.Value]
	return value, ok
}

func (d *decoder) str(n *yaml.Node, path string) string {
	n = resolve(n)
	if n.Kind != yaml.ScalarNode {
		d.errorf(n, path, "", "expected a string, got %s", describe(n))
		return ""
	}
	if _, ok := yaml11Bool(n); ok {
		d.errorf(n, path, fmt.Sprintf("quote it: %q", n.Value), "expected a string, got boolean %s (YAML 1.1, which Kubernetes reads)", n.Value)
		return ""
	}
	switch n.ShortTag() {
	case "!!str", "!!timestamp", "!!binary":
		return n.Value
	case "!!null":
		return ""
	}
	d.errorf(n, path, fmt.Sprintf("quote it: %q", n.Value), "expected a string, got %s", describe(n))
	return ""
}

func (d *decoder) integer(n *yaml.Node, path string, lo, hi int64) (int64, bool) {
	n = resolve(n)
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case "!!int":
			v, err := strconv.ParseInt(n.Value, 0, 64)
			if err == nil && v >= lo && v <= hi {
				return v, true
			}
			d.errorf(n, path, "", "integer %s is out of range [%d, %d]", n.Value, lo, hi)
			return 0, false
		case "!!float":
			f, err := strconv.ParseFloat(n.Value, 64)
			if err == nil && f == math.Trunc(f) && f >= float64(lo) && f <= float64(hi) {
				return int64(f), true
			}
		}
	}
	hint := ""
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
		if _, err := strconv.ParseInt(n.Value, 10, 64); err == nil {
			hint = "remove the quotes"
		}
	}
	d.errorf(n, path, hint, "expected an integer, got %s", describe(n))
	return 0, false
}

func (d *decoder) int32(n *yaml.Node, path string) (int32, bool) {
	v, ok := d.integer(n, path, math.MinInt32, math.MaxInt32)
	return int32(v), ok
}

func (d *decoder) int64(n *yaml.Node, path string) (int64, bool) {
	return d.integer(n, path, math.MinInt64, math.MaxInt64)
}

func (d *decoder) int32p(n *yaml.Node, path string) *int32 {
	if v, ok := d.int32(n, path); ok {
		return &v
	}
	return nil
}

func (d *decoder) int64p(n *yaml.Node, path string) *int64 {
	if v, ok := d.int64(n, path); ok {
		return &v
	}
	return nil
}

func (d *decoder) boolean(n *yaml.Node, path string) bool {
	n = resolve(n)
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool" {
		v, _ := strconv.ParseBool(strings.ToLower(n.Value))
		return v
	}
	if v, ok := yaml11Bool(n); ok {
		return v
	}
	d.errorf(n, path, "use true or false", "expected a boolean, got %s", describe(n))
	return false
}

func (d *decoder) strp(n *yaml.Node, path string) *string {
	s := d.str(n, path)
	return &s
}

func (d *decoder) strings(n *yaml.Node, path string) []string {
	var out []string
	d.seq(n, path, func(_ int, e *yaml.Node, p string) {
		out = append(out, d.str(e, p))
	})
	return out
}

// stringMap decodes labels, annotations, nodeSelector and the like.
func (d *decoder) stringMap(n *yaml.Node, path string) map[string]string {
	ps, ok := d.mapping(n, path)
	if !ok {
		return nil
	}
	out := make(map[string]string, len(ps))
	for _, kv := range ps {
		p := keyed(path, kv.key)
		d.pos[p] = d.at(kv.keyNode)
		out[kv.key] = d.str(kv.value, p)
	}
	return out
}

// resourceList decodes requests/limits/capacity: names to quantities.
func (d *decoder) resourceList(n *yaml.Node, path string) api.ResourceList {
	ps, ok := d.mapping(n, path)
	if !ok {
		return nil
	}
	out := make(api.ResourceList, len(ps))
	for _, kv := range ps {
		p := keyed(path, kv.key)
		d.pos[p] = d.at(resolve(kv.value))
		if q, ok := d.quantity(kv.value, p); ok {
			out[kv.key] = q
		}
	}
	return out
}

func (d *decoder) quantity(n *yaml.Node, path string) (api.Quantity, bool) {
	n = resolve(n)
	if n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" || n.ShortTag() == "!!bool" {
		d.errorf(n, path, "e.g. 500m, 2, 128Mi, 1Gi", "expected a quantity, got %s", describe(n))
		return 0, false
	}
	q, err := api.ParseQuantity(n.Value)
	if err != nil {
		d.errorf(n, path, "", "%v", err)
		return 0, false
	}
	return q, true
}

// intOrString decodes an intstr.IntOrString: an integer or a string
// ("25%").
func (d *decoder) intOrString(n *yaml.Node, path string) *api.IntOrString {
	n = resolve(n)
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case "!!int":
			if v, ok := d.int32(n, path); ok {
				return &api.IntOrString{IntVal: v}
			}
			return nil
		case "!!str":
			return &api.IntOrString{IsString: true, StrVal: n.Value}
		}
	}
	d.errorf(n, path, `e.g. 1 or "25%"`, "expected an integer or a string, got %s", describe(n))
	return nil
}

// timestamp records an RFC 3339 time to be mapped onto the virtual clock
// once the reference instant is known.
func (d *decoder) timestamp(n *yaml.Node, path string, reference bool, set func(api.Time)) {
	s := d.str(n, path)
	if s == "" {
		return
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		d.errorf(n, path, "use RFC 3339, e.g. 2024-05-01T12:00:00Z", "invalid timestamp %q", s)
		return
	}
	d.times = append(d.times, pendingTime{t: t, set: set, reference: reference})
}

// resolveTimes maps every recorded timestamp to api.Time relative to the
// reference: Options.Reference, else the newest reference-eligible time.
func (d *decoder) resolveTimes() time.Time {
	ref := d.opts.Reference
	if ref.IsZero() {
		for _, pt := range d.times {
			if pt.reference && pt.t.After(ref) {
				ref = pt.t
			}
		}
		if ref.IsZero() && len(d.times) > 0 {
			ref = d.times[0].t
		}
	}
	for _, pt := range d.times {
		pt.set(api.Time(pt.t.Sub(ref)))
	}
	return ref
}

// sortedKeys returns m's keys in order (for deterministic messages).
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
