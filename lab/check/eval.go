package check

import (
	"fmt"
	"strings"
)

// Env supplies the cluster's side of a check.
type Env interface {
	// Call evaluates a function; args were validated against its Func.
	Call(name string, args []Arg) (Value, error)
	// InDomain reports whether a node (by name) belongs to a domain given
	// by name: the node itself, or a value of its zone (or other topology)
	// label.
	InDomain(node, domain string) (bool, error)
}

// LaneEnv is an Env of a forked lab: Lane answers for one lane ("a" or
// "b"), for calls written name@lane(…).
type LaneEnv interface {
	Lane(name string) (Env, error)
}

// Result is the outcome of a check with the values that decided it, for
// a lesson panel ("skew(deployment/web, zone) = 2, want <= 1").
type Result struct {
	OK     bool
	Detail string
}

// Eval evaluates the check; the expression must be true/false.
func (c *Check) Eval(env Env) (Result, error) {
	ev := &evaluator{env: env}
	v, err := ev.eval(c.root)
	if err != nil {
		return Result{}, err
	}
	if v.Kind != Bool {
		return Result{}, fmt.Errorf("the check is %s (%s), not true/false; compare it, e.g. %s == …", v.Kind, v, c.String())
	}
	return Result{OK: v.B, Detail: strings.Join(ev.details, "; ")}, nil
}

type evaluator struct {
	env     Env
	details []string
}

func (ev *evaluator) eval(e Expr) (Value, error) {
	switch x := e.(type) {
	case *binary:
		if x.op == "&&" || x.op == "||" {
			l, err := ev.evalBool(x.l)
			if err != nil {
				return Value{}, err
			}
			if x.op == "&&" && !l || x.op == "||" && l {
				return BoolV(l), nil
			}
			r, err := ev.evalBool(x.r)
			return BoolV(r), err
		}
		return ev.compare(x)
	case *notExpr:
		b, err := ev.evalBool(x.x)
		if err != nil {
			return Value{}, err
		}
		return BoolV(!b), nil
	}
	return e.eval(ev.env)
}

func (ev *evaluator) evalBool(e Expr) (bool, error) {
	v, err := ev.eval(e)
	if err != nil {
		return false, err
	}
	if v.Kind != Bool {
		return false, fmt.Errorf("%s is %s (%s), not true/false", e.String(), v.Kind, v)
	}
	return v.B, nil
}

func (ev *evaluator) compare(b *binary) (Value, error) {
	l, err := ev.eval(b.l)
	if err != nil {
		return Value{}, err
	}
	r, err := ev.eval(b.r)
	if err != nil {
		return Value{}, err
	}
	if _, isLit := b.l.(*literal); !isLit {
		ev.details = append(ev.details, fmt.Sprintf("%s = %s, want %s %s", b.l.String(), l, b.op, r))
	}
	if b.op == "in" {
		switch r.Kind {
		case List:
			for _, item := range r.L {
				if equal(l, item) {
					return BoolV(true), nil
				}
			}
			return BoolV(false), nil
		case Str:
			if l.Kind != Str {
				return Value{}, fmt.Errorf("%s is %s; `in DOMAIN` needs a node name", b.l.String(), l.Kind)
			}
			if l.S == "" {
				return BoolV(false), nil
			}
			ok, err := ev.env.InDomain(l.S, r.S)
			return BoolV(ok), err
		}
		return Value{}, fmt.Errorf("`in` needs a list [a, b] or a domain name on its right, not %s", r.Kind)
	}
	if l.Kind != r.Kind {
		return Value{}, fmt.Errorf("cannot compare %s (%s) with %s (%s)", b.l.String(), l.Kind, b.r.String(), r.Kind)
	}
	switch b.op {
	case "==":
		return BoolV(equal(l, r)), nil
	case "!=":
		return BoolV(!equal(l, r)), nil
	}
	if l.Kind != Num {
		return Value{}, fmt.Errorf("%s compares numbers; %s is %s", b.op, b.l.String(), l.Kind)
	}
	switch b.op {
	case "<":
		return BoolV(l.N < r.N), nil
	case "<=":
		return BoolV(l.N <= r.N), nil
	case ">":
		return BoolV(l.N > r.N), nil
	}
	return BoolV(l.N >= r.N), nil
}

func equal(a, b Value) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Num:
		return a.N == b.N
	case Str:
		return strings.EqualFold(a.S, b.S)
	case Bool:
		return a.B == b.B
	}
	if len(a.L) != len(b.L) {
		return false
	}
	for i := range a.L {
		if !equal(a.L[i], b.L[i]) {
			return false
		}
	}
	return true
}

func (b *binary) eval(env Env) (Value, error) { return (&evaluator{env: env}).eval(b) }

func (n *notExpr) eval(env Env) (Value, error) {
	v, err := (&evaluator{env: env}).eval(n.x)
	if err != nil {
		return Value{}, err
	}
	if v.Kind != Bool {
		return Value{}, fmt.Errorf("! needs true/false; %s is %s", n.x.String(), v.Kind)
	}
	return BoolV(!v.B), nil
}

func (c *callExpr) eval(env Env) (Value, error) {
	if c.lane != "" {
		le, ok := env.(LaneEnv)
		if !ok {
			return Value{}, fmt.Errorf("%s: lanes exist only in a forked lab", c.String())
		}
		var err error
		if env, err = le.Lane(c.lane); err != nil {
			return Value{}, fmt.Errorf("%s: %w", c.String(), err)
		}
	}
	v, err := env.Call(c.name, c.args)
	if err != nil {
		return Value{}, fmt.Errorf("%s: %w", c.String(), err)
	}
	if want := funcs[c.name].Returns; v.Kind != want {
		return Value{}, fmt.Errorf("%s returned %s, expected %s", c.String(), v.Kind, want)
	}
	return v, nil
}

func (l *literal) eval(Env) (Value, error) { return l.v, nil }

func (l *listExpr) eval(env Env) (Value, error) {
	out := Value{Kind: List}
	for _, x := range l.items {
		v, err := x.eval(env)
		if err != nil {
			return Value{}, err
		}
		out.L = append(out.L, v)
	}
	return out, nil
}

// Eval evaluates an ArgExpr argument (a nested expression or a number).
func (a Arg) Eval(env Env) (Value, error) {
	if a.Kind != ArgExpr {
		return Value{}, fmt.Errorf("%s is not an expression", a.String())
	}
	return (&evaluator{env: env}).eval(a.Expr)
}
