package check

import (
	"fmt"
	"strings"
	"testing"
)

// fakeEnv answers calls from a table keyed by the call's text.
type fakeEnv struct {
	values map[string]Value
	zones  map[string]string // node → zone
}

func (f *fakeEnv) Call(name string, args []Arg) (Value, error) {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.String()
	}
	key := name + "(" + strings.Join(parts, ", ") + ")"
	v, ok := f.values[key]
	if !ok {
		return Value{}, fmt.Errorf("no value for %s", key)
	}
	return v, nil
}

func (f *fakeEnv) InDomain(node, domain string) (bool, error) {
	return node == domain || f.zones[node] == domain, nil
}

func env() *fakeEnv {
	return &fakeEnv{
		values: map[string]Value{
			"skew(deployment/web, zone)":                   NumV(2),
			"pending(deployment/web)":                      NumV(0),
			"count(pods, app=web, zone=zone-a)":            NumV(2),
			"count(pods, app!=web)":                        NumV(5),
			"evicted(pod/batch-1)":                         BoolV(true),
			"node(pod/web-0)":                              StrV("node-3"),
			"node(pod/ghost)":                              StrV(""),
			"phase(pod/x)":                                 StrV("Running"),
			"events(Evicted)":                              NumV(3),
			"time()":                                       NumV(42.5),
			"label(node/node-3, disk)":                     StrV("ssd"),
			"skew(deployment/web, kubernetes.io/hostname)": NumV(1),
		},
		zones: map[string]string{"node-3": "zone-b"},
	}
}

func TestEval(t *testing.T) {
	cases := []struct {
		src    string
		ok     bool
		detail string
	}{
		{"skew(deployment/web, zone) <= 1", false, "skew(deployment/web, zone) = 2, want <= 1"},
		{"skew(deploy/web, zone) == 2", true, ""},
		{"pending(deployment/web) == 0", true, ""},
		{"count(pods, app=web, zone=zone-a) == 2", true, ""},
		{"count(pods, app==web, zone=zone-a) == 2", true, ""},
		{"count(pods, app!=web) > 4", true, ""},
		{"evicted(pod/batch-1)", true, ""},
		{"!evicted(pod/batch-1)", false, ""},
		{"not evicted(pod/batch-1)", false, ""},
		{"node(pod/web-0) in zone-b", true, ""},
		{"node(pod/web-0) in zone-a", false, ""},
		{"node(pod/web-0) not in zone-a", true, ""},
		{"node(pod/web-0) in [node-1, node-3]", true, ""},
		{"node(pod/ghost) in zone-b", false, ""},
		{"node(pod/web-0) == node-3", true, ""},
		{`node(pod/web-0) == "node-3"`, true, ""},
		{"phase(pod/x) == Running", true, ""},
		{"phase(pod/x) == running", true, ""},
		{"phase(pod/x) != Pending && events(Evicted) >= 3", true, ""},
		{"skew(deployment/web, zone) <= 1 || evicted(pod/batch-1)", true, ""},
		{"skew(deployment/web, zone) <= 1 and evicted(pod/batch-1)", false, ""},
		{"(time() > 40) && label(node/node-3, disk) == ssd", true, ""},
		{"skew(deployment/web, kubernetes.io/hostname) <= 1", true, ""},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			chk, err := Parse(c.src)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			res, err := chk.Eval(env())
			if err != nil {
				t.Fatalf("Eval: %v", err)
			}
			if res.OK != c.ok {
				t.Fatalf("got %v (%s), want %v", res.OK, res.Detail, c.ok)
			}
			if c.detail != "" && res.Detail != c.detail {
				t.Fatalf("detail %q, want %q", res.Detail, c.detail)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"", "empty check"},
		{"skew(deployment/web) <= 1", "skew takes 2 arguments; usage: skew(deployment/NAME, zone|hostname|LABEL-KEY)"},
		{"skw(deployment/web, zone) <= 1", `unknown function "skw"; functions are cordoned, count,`},
		{"skew(pod/web, zone) <= 1", "skew: expected deployment/NAME or statefulset/NAME"},
		{"count(deployments) > 1", "count: expected pods or nodes, got deployments"},
		{"evicted(batch-1)", "evicted: expected pod/NAME, got batch-1"},
		{"pending(deployment/web) = 0", "use == to compare"},
		{"pending(deployment/web) == ", "expression ends too early"},
		{"pending(deployment/web", "expected , or ) in pending"},
		{"(evicted(pod/a)", "missing )"},
		{"evicted(pod/a) evicted(pod/b)", `unexpected "evicted" after the end`},
		{`phase(pod/x) == "Running`, "unterminated string"},
		{"phase(pod/x) == Running $", `unexpected character '$'`},
		{"skew <= 1", "skew is a function: write skew(deployment/NAME"},
		{"time(1) > 0", "time takes no arguments"},
		{"tainted(node/a, b, c)", "tainted takes 1 to 2 arguments"},
		{strings.Repeat("(", 40) + "true" + strings.Repeat(")", 40), "nested too deeply"},
		{strings.Repeat("x", MaxLength+1), "the limit is"},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			_, err := Parse(c.src)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v; want it to contain %q", err, c.want)
			}
		})
	}
}

func TestEvalErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"skew(deployment/web, zone)", "the check is number (2), not true/false"},
		{"phase(pod/x) < Running", "< compares numbers; phase(pod/x) is text"},
		{"skew(deployment/web, zone) == Running", "cannot compare"},
		{"skew(deployment/web, zone) in zone-a", "`in DOMAIN` needs a node name"},
		{"evicted(pod/nobody)", "no value for evicted(pod/nobody)"},
		{"!skew(deployment/web, zone)", "not true/false"},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			chk, err := Parse(c.src)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			_, err = chk.Eval(env())
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v; want it to contain %q", err, c.want)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"skew(deployment/web, zone) <= 1", "count(pods, app=web, zone=zone-a) == 2",
		"node(pod/web-0) in [a, b]", "!(evicted(pod/x) || phase(pod/y) == Running)", `label(node/n, "k") != ""`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		c, err := Parse(src)
		if err != nil {
			return
		}
		// the normalised form parses to the same normalised form; it may
		// be longer than its source (spaces after commas), so it is read
		// back without Parse's length limit, which bounds typed input only
		again, err := parse(c.String())
		if err != nil {
			t.Fatalf("normalised %q of %q does not parse: %v", c.String(), src, err)
		}
		if again.String() != c.String() {
			t.Fatalf("normal form unstable: %q -> %q", c.String(), again.String())
		}
	})
}

// The normal form prints only the parentheses the grammar needs: it reads
// back as the same structure and never nests deeper than its source.
func TestNormalForm(t *testing.T) {
	long := strings.Repeat("0 || ", 40) + "0"
	// 20 levels of parentheses, each holding an && inside an ||
	deep := strings.Repeat("a && b || (", 20) + "c" + strings.Repeat(")", 20)
	for _, c := range []struct{ in, want string }{
		{"a || b || c", "a || b || c"},
		{"a || (b || c)", "a || (b || c)"},
		{"a && b || c && d", "a && b || c && d"},
		{"(a || b) && c", "(a || b) && c"},
		{"a && (b && c)", "a && (b && c)"},
		{"!a && !(b || c)", "!a && !(b || c)"},
		{"!(a == b)", "!a == b"},
		{"(!a) == b", "(!a) == b"},
		{"(a == b) == c", "(a == b) == c"},
		{"x not in [a, b]", "!x in [a, b]"},
		{"count(pods, (true || x)) > 0", "count(pods, (true || x)) > 0"},
		{"count(pods, 1 == x) > 0", "count(pods, 1 == x) > 0"},
		{long, long},
	} {
		parsed, err := Parse(c.in)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if got := parsed.String(); got != c.want {
			t.Errorf("%q: normal form %q, want %q", c.in, got, c.want)
		}
	}
	for _, src := range []string{long, deep} {
		c, err := Parse(src)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if _, err := Parse(c.String()); err != nil {
			t.Errorf("normal form of %q does not read back: %v", src, err)
		}
	}
}
