package command

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Error is a parse error with the usage of the verb it concerns.
type Error struct {
	Msg   string
	Usage string
}

func (e *Error) Error() string {
	if e.Usage == "" {
		return e.Msg
	}
	return e.Msg + " (usage: " + e.Usage + ")"
}

// MaxLineLength bounds a command line (the palette, --do, timelines).
const MaxLineLength = 64 << 10

// Parse parses one command line.
func Parse(line string) (Command, error) {
	if len(line) > MaxLineLength {
		return nil, &Error{Msg: fmt.Sprintf("command is %d bytes long; the limit is %d", len(line), MaxLineLength)}
	}
	words, err := tokenize(line)
	if err != nil {
		return nil, &Error{Msg: err.Error()}
	}
	if len(words) == 0 {
		return nil, &Error{Msg: "empty command; try `help` for the list of commands"}
	}
	verb := strings.ToLower(words[0])
	rest := words[1:]
	if twoWordPrefix(verb) {
		if len(rest) == 0 {
			return nil, usageError(verb, fmt.Sprintf("%s what?", verb))
		}
		verb += " " + strings.ToLower(rest[0])
		rest = rest[1:]
	}
	spec, ok := verbs[verb]
	if !ok {
		return nil, &Error{Msg: fmt.Sprintf("unknown command %q; commands are: %s", words[0], strings.Join(VerbNames(), ", "))}
	}
	a, err := parseArgs(rest, spec)
	if err != nil {
		return nil, &Error{Msg: err.Error(), Usage: spec.usage}
	}
	cmd, err := spec.build(a)
	if err != nil {
		return nil, &Error{Msg: err.Error(), Usage: spec.usage}
	}
	return cmd, nil
}

func usageError(verb, msg string) error {
	var usages []string
	for _, name := range VerbNames() {
		if strings.HasPrefix(name, verb+" ") || name == verb {
			usages = append(usages, verbs[name].usage)
		}
	}
	return &Error{Msg: msg, Usage: strings.Join(usages, " | ")}
}

// args are a command's positional words and flags.
type args struct {
	pos   []string
	flags map[string][]string
}

func (a *args) flag(name string) (string, bool) {
	v, ok := a.flags[name]
	if !ok || len(v) == 0 {
		return "", ok
	}
	return v[len(v)-1], true
}

func (a *args) has(name string) bool { _, ok := a.flags[name]; return ok }

func parseArgs(words []string, spec verbSpec) (*args, error) {
	a := &args{flags: map[string][]string{}}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if !strings.HasPrefix(w, "-") || w == "-" || isNumber(w) || (w[1] >= '0' && w[1] <= '9') {
			a.pos = append(a.pos, w)
			continue
		}
		name := strings.TrimLeft(w, "-")
		val, hasVal := "", false
		if eq := strings.IndexByte(name, '='); eq >= 0 {
			name, val, hasVal = name[:eq], name[eq+1:], true
		}
		if alias, ok := spec.short[name]; ok {
			name = alias
		}
		kind, known := spec.flags[name]
		if !known {
			return nil, fmt.Errorf("unknown flag --%s%s", name, flagList(spec))
		}
		switch kind {
		case boolFlag:
			if hasVal {
				b, err := strconv.ParseBool(val)
				if err != nil {
					return nil, fmt.Errorf("--%s takes true or false, not %q", name, val)
				}
				if !b {
					continue
				}
			}
			a.flags[name] = append(a.flags[name], "true")
		case valueFlag:
			if !hasVal {
				if i+1 >= len(words) {
					return nil, fmt.Errorf("--%s needs a value", name)
				}
				i++
				val = words[i]
			}
			a.flags[name] = append(a.flags[name], val)
		}
	}
	return a, nil
}

func isNumber(w string) bool {
	_, err := strconv.ParseFloat(w, 64)
	return err == nil
}

func flagList(spec verbSpec) string {
	if len(spec.flags) == 0 {
		return "; this command takes no flags"
	}
	var names []string
	for _, n := range sortedKeys(spec.flags) {
		names = append(names, "--"+n)
	}
	return "; flags are " + strings.Join(names, ", ")
}

// splitKindName accepts "kind/name" or "kind name" at the start of pos.
func splitKindName(pos []string, allowed ...string) (kind, name string, rest []string, err error) {
	if len(pos) == 0 {
		return "", "", nil, fmt.Errorf("missing object: give KIND/NAME, e.g. %s/web", allowed[0])
	}
	first := pos[0]
	if i := strings.IndexByte(first, '/'); i >= 0 {
		kind, name, rest = first[:i], first[i+1:], pos[1:]
	} else {
		if len(pos) < 2 {
			return "", "", nil, fmt.Errorf("missing name after %q: give KIND/NAME, e.g. %s/web", first, allowed[0])
		}
		kind, name, rest = first, pos[1], pos[2:]
	}
	canon := CanonicalKind(kind)
	if canon == "" {
		return "", "", nil, fmt.Errorf("unknown kind %q; kinds here are %s", kind, strings.Join(allowed, ", "))
	}
	ok := false
	for _, k := range allowed {
		if k == canon {
			ok = true
		}
	}
	if !ok {
		return "", "", nil, fmt.Errorf("%s is not allowed here; kinds here are %s", canon, strings.Join(allowed, ", "))
	}
	if err := checkObjectName(canon, name); err != nil {
		return "", "", nil, err
	}
	return canon, name, rest, nil
}

// clusterScoped are the kinds without a namespace.
var clusterScoped = map[string]bool{"node": true, "priorityclass": true}

// checkObjectName accepts NAME, or NAMESPACE/NAME for a namespaced kind
// (the session resolves both; the UI names pods by namespace/name).
func checkObjectName(kind, name string) error {
	ns, n, qualified := strings.Cut(name, "/")
	if !qualified {
		return checkName(name)
	}
	if clusterScoped[kind] {
		return fmt.Errorf("invalid name %q: a %s has no namespace", name, kind)
	}
	if err := checkName(ns); err != nil {
		return fmt.Errorf("namespace: %w", err)
	}
	return checkName(n)
}

// nodeArg accepts "NAME" or "node/NAME" or "node NAME".
func nodeArg(pos []string) (string, []string, error) {
	if len(pos) == 0 {
		return "", nil, fmt.Errorf("missing node name")
	}
	w := pos[0]
	if strings.HasPrefix(w, "node/") || strings.HasPrefix(w, "nodes/") {
		w = w[strings.IndexByte(w, '/')+1:]
	} else if CanonicalKind(w) == "node" && len(pos) > 1 {
		pos = pos[1:]
		w = pos[0]
	}
	if err := checkName(w); err != nil {
		return "", nil, err
	}
	return w, pos[1:], nil
}

// checkName applies the DNS-subdomain shape Kubernetes object names have
// (IsDNS1123Subdomain: at most 253 characters, each '.'-separated part a
// label of lower-case letters, digits and '-' that starts and ends with a
// letter or digit; as upstream, a part may be longer than 63).
func checkName(n string) error {
	if n == "" {
		return fmt.Errorf("empty name")
	}
	if len(n) > 253 {
		return fmt.Errorf("name %q is longer than 253 characters", n[:20]+"…")
	}
	for i, r := range n {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.'
		if !ok {
			return fmt.Errorf("invalid name %q: names use lower-case letters, digits, '-' and '.'", n)
		}
		if (i == 0 || i == len(n)-1) && (r == '-' || r == '.') {
			return fmt.Errorf("invalid name %q: must start and end with a letter or digit", n)
		}
	}
	if !subdomainParts(n, 0) {
		return fmt.Errorf("invalid name %q: each '.'-separated part must be non-empty and start and end with a letter or digit", n)
	}
	return nil
}

func noMorePositional(rest []string) error {
	if len(rest) > 0 {
		return fmt.Errorf("unexpected %q", strings.Join(rest, " "))
	}
	return nil
}

func parseKV(s string) (KV, error) {
	if strings.HasSuffix(s, "-") && !strings.Contains(s, "=") {
		k := strings.TrimSuffix(s, "-")
		if err := checkLabelKey(k); err != nil {
			return KV{}, err
		}
		return KV{Key: k, Remove: true}, nil
	}
	i := strings.IndexByte(s, '=')
	if i <= 0 {
		return KV{}, fmt.Errorf("%q: expected key=value or key- (to remove)", s)
	}
	kv := KV{Key: s[:i], Value: s[i+1:]}
	if err := checkLabelKey(kv.Key); err != nil {
		return KV{}, err
	}
	if err := checkLabelValue(kv.Value); err != nil {
		return KV{}, err
	}
	return kv, nil
}

func checkLabelKey(k string) error {
	name := k
	if i := strings.LastIndexByte(k, '/'); i >= 0 {
		prefix := k[:i]
		name = k[i+1:]
		if prefix == "" || len(prefix) > 253 || !dnsSubdomain(prefix) {
			return fmt.Errorf("label key %q: the prefix must be a DNS subdomain (lower-case letters, digits, '-' and '.')", k)
		}
	}
	if name == "" || len(name) > 63 {
		return fmt.Errorf("label key %q: the name part must be 1–63 characters", k)
	}
	if !labelChars(name) {
		return fmt.Errorf("label key %q: use letters, digits, '-', '_' and '.', starting and ending with a letter or digit", k)
	}
	return nil
}

// checkZone checks a zone name, which is a value of the zone label (not
// an object name: zoneA is as valid in a command as in a Node's labels or
// the cluster shorthand; a generated node name that uses {zone} is
// checked as a name when the node is made).
func checkZone(z string) error {
	if z == "" {
		return fmt.Errorf("give a zone name")
	}
	if err := checkLabelValue(z); err != nil {
		return fmt.Errorf("zone %w", err)
	}
	return nil
}

func checkLabelValue(v string) error {
	if v == "" {
		return nil
	}
	if len(v) > 63 || !labelChars(v) {
		return fmt.Errorf("label value %q: up to 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit", v)
	}
	return nil
}

func labelChars(s string) bool {
	for i, r := range s {
		alnum := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		if !alnum && r != '-' && r != '_' && r != '.' {
			return false
		}
		if (i == 0 || i == len(s)-1) && !alnum {
			return false
		}
	}
	return true
}

var taintEffects = map[string]bool{"NoSchedule": true, "PreferNoSchedule": true, "NoExecute": true}

// ParseTaint reads one taint to add, key=value:Effect or key:Effect (the
// scenario's cluster shorthand uses it; the taint command also takes
// removals).
func ParseTaint(s string) (TaintSpec, error) { return parseTaint(s, false) }

func parseTaint(s string, allowRemove bool) (TaintSpec, error) {
	var t TaintSpec
	if strings.HasSuffix(s, "-") {
		if !allowRemove {
			return t, fmt.Errorf("%q: a taint to add is key=value:Effect", s)
		}
		t.Remove = true
		s = strings.TrimSuffix(s, "-")
	}
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		t.Effect = s[i+1:]
		s = s[:i]
		if !taintEffects[t.Effect] {
			return t, fmt.Errorf("taint effect %q: use NoSchedule, PreferNoSchedule or NoExecute", t.Effect)
		}
	} else if !t.Remove {
		return t, fmt.Errorf("taint %q needs an effect: key=value:NoSchedule|PreferNoSchedule|NoExecute", s)
	}
	if i := strings.IndexByte(s, '='); i >= 0 {
		t.Key, t.Value = s[:i], s[i+1:]
		if t.Remove {
			return t, fmt.Errorf("to remove a taint give key- or key:Effect-, not a value")
		}
		if err := checkLabelValue(t.Value); err != nil {
			return t, err
		}
	} else {
		t.Key = s
	}
	if err := checkLabelKey(t.Key); err != nil {
		return t, fmt.Errorf("taint key: %w", err)
	}
	return t, nil
}

func parseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		if n, err2 := strconv.ParseFloat(s, 64); err2 == nil && n >= 0 {
			// time.Duration holds about 292 years; beyond that the
			// conversion would wrap around to a negative value.
			if n*float64(time.Second) >= math.MaxInt64 {
				return 0, fmt.Errorf("duration %q is too long", s)
			}
			return time.Duration(n * float64(time.Second)), nil
		}
		return 0, fmt.Errorf("bad duration %q: use e.g. 30s, 2m, 1h30m", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("duration %q must not be negative", s)
	}
	return d, nil
}

func parseGrace(s string) (*int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("--grace-period takes whole seconds, not %q", s)
	}
	if n < -1 {
		return nil, fmt.Errorf("--grace-period %d: must be ≥ 0 (or -1 for the pod's own)", n)
	}
	if n == -1 {
		return nil, nil
	}
	return &n, nil
}

func parsePercent(s string) (float64, error) {
	if !strings.HasSuffix(s, "%") {
		return 0, fmt.Errorf("%q: give a percentage like 90%%", s)
	}
	f, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > 100 {
		return 0, fmt.Errorf("%q: the percentage must be between 0%% and 100%%", s)
	}
	return f, nil
}

// dnsSubdomain reports a lower-case RFC 1123 subdomain with parts of at
// most 63 characters (a label key's prefix).
func dnsSubdomain(s string) bool { return subdomainParts(s, 63) }

// subdomainParts reports whether every '.'-separated part of s is
// non-empty, made of lower-case letters, digits and '-', starts and ends
// with a letter or digit, and is at most maxPart long (0: any length).
func subdomainParts(s string, maxPart int) bool {
	for _, part := range strings.Split(s, ".") {
		if part == "" || maxPart > 0 && len(part) > maxPart {
			return false
		}
		for i, r := range part {
			alnum := r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
			if !alnum && (r != '-' || i == 0 || i == len(part)-1) {
				return false
			}
		}
	}
	return true
}

// twoWordPrefix reports a first word that only starts two-word verbs
// ("add zone", "break pod"), read from the verb table.
func twoWordPrefix(w string) bool {
	if _, single := verbs[w]; single {
		return false
	}
	for v := range verbs {
		if strings.HasPrefix(v, w+" ") {
			return true
		}
	}
	return false
}
