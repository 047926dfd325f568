package check

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxLength bounds an expression's size; MaxDepth its nesting.
const (
	MaxLength = 4096
	MaxDepth  = 32
)

// Check is a parsed check expression.
type Check struct {
	Source string
	root   Expr
}

// Parse parses a check expression and validates every function call's
// name, arity and argument shapes.
func Parse(src string) (*Check, error) {
	if len(src) > MaxLength {
		return nil, &Error{Msg: fmt.Sprintf("check is %d bytes; the limit is %d", len(src), MaxLength)}
	}
	return parse(src)
}

// parse is Parse without the length limit. The limit bounds what a user
// types; a normal form (String) may be longer than its source, since it
// spaces operators and commas, so tests read normal forms back with parse.
func parse(src string) (*Check, error) {
	if !utf8.ValidString(src) {
		return nil, &Error{Msg: "check is not valid UTF-8 text"}
	}
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	if p.peek().kind == tEOF {
		return nil, &Error{Msg: "empty check"}
	}
	e, err := p.orExpr(0)
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, &Error{Pos: t.pos, Msg: fmt.Sprintf("unexpected %q after the end of the expression", t.text)}
	}
	return &Check{Source: src, root: e}, nil
}

// String returns the normalised expression.
func (c *Check) String() string { return c.root.String() }

type parser struct {
	toks []token
	i    int
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) isWord(w string) bool {
	t := p.peek()
	return t.kind == tWord && strings.EqualFold(t.text, w)
}

func (p *parser) orExpr(depth int) (Expr, error) {
	if depth > MaxDepth {
		return nil, &Error{Pos: p.peek().pos, Msg: "expression nested too deeply"}
	}
	l, err := p.andExpr(depth)
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if (t.kind == tOp && t.text == "||") || p.isWord("or") {
			p.next()
			r, err := p.andExpr(depth)
			if err != nil {
				return nil, err
			}
			l = &binary{op: "||", l: l, r: r, pos: t.pos}
			continue
		}
		return l, nil
	}
}

func (p *parser) andExpr(depth int) (Expr, error) {
	l, err := p.unary(depth)
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if (t.kind == tOp && t.text == "&&") || p.isWord("and") {
			p.next()
			r, err := p.unary(depth)
			if err != nil {
				return nil, err
			}
			l = &binary{op: "&&", l: l, r: r, pos: t.pos}
			continue
		}
		return l, nil
	}
}

func (p *parser) unary(depth int) (Expr, error) {
	if depth > MaxDepth {
		return nil, &Error{Pos: p.peek().pos, Msg: "expression nested too deeply"}
	}
	t := p.peek()
	if (t.kind == tOp && t.text == "!") || p.isWord("not") {
		p.next()
		x, err := p.unary(depth + 1)
		if err != nil {
			return nil, err
		}
		return &notExpr{x: x}, nil
	}
	return p.comparison(depth)
}

var cmpOps = map[string]bool{"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true}

func (p *parser) comparison(depth int) (Expr, error) {
	// A function name on the left without its parentheses is a mistake,
	// not a text value (on the right, "running" may well be a value).
	if t := p.peek(); t.kind == tWord && p.toks[p.i+1].kind != tLParen {
		if f, ok := funcs[t.text]; ok {
			return nil, &Error{Pos: t.pos, Msg: fmt.Sprintf("%s is a function: write %s", t.text, f.Usage)}
		}
	}
	l, err := p.operand(depth)
	if err != nil {
		return nil, err
	}
	t := p.peek()
	switch {
	case t.kind == tOp && cmpOps[t.text]:
		p.next()
		r, err := p.operand(depth)
		if err != nil {
			return nil, err
		}
		return &binary{op: t.text, l: l, r: r, pos: t.pos}, nil
	case t.kind == tOp && t.text == "=":
		return nil, &Error{Pos: t.pos, Msg: "use == to compare"}
	case p.isWord("in"):
		p.next()
		r, err := p.operand(depth)
		if err != nil {
			return nil, err
		}
		return &binary{op: "in", l: l, r: r, pos: t.pos}, nil
	case p.isWord("not") && p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tWord && strings.EqualFold(p.toks[p.i+1].text, "in"):
		p.next()
		p.next()
		r, err := p.operand(depth)
		if err != nil {
			return nil, err
		}
		return &notExpr{x: &binary{op: "in", l: l, r: r, pos: t.pos}}, nil
	}
	return l, nil
}

func (p *parser) operand(depth int) (Expr, error) {
	t := p.next()
	switch t.kind {
	case tNumber:
		f, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			return nil, &Error{Pos: t.pos, Msg: fmt.Sprintf("bad number %q", t.text)}
		}
		return &literal{v: NumV(f)}, nil
	case tString:
		return &literal{v: StrV(t.text)}, nil
	case tLParen:
		e, err := p.orExpr(depth + 1)
		if err != nil {
			return nil, err
		}
		if c := p.next(); c.kind != tRParen {
			return nil, &Error{Pos: c.pos, Msg: "missing )"}
		}
		return e, nil
	case tLBrack:
		var items []Expr
		for p.peek().kind != tRBrack {
			x, err := p.operand(depth + 1)
			if err != nil {
				return nil, err
			}
			items = append(items, x)
			if p.peek().kind == tComma {
				p.next()
				continue
			}
			if p.peek().kind != tRBrack {
				return nil, &Error{Pos: p.peek().pos, Msg: "expected , or ] in the list"}
			}
		}
		p.next()
		return &listExpr{items: items}, nil
	case tWord:
		switch strings.ToLower(t.text) {
		case "true":
			return &literal{v: BoolV(true)}, nil
		case "false":
			return &literal{v: BoolV(false)}, nil
		}
		if p.peek().kind == tLParen {
			return p.call(t, depth)
		}
		return &literal{v: StrV(t.text)}, nil
	case tEOF:
		return nil, &Error{Pos: t.pos, Msg: "expression ends too early"}
	}
	return nil, &Error{Pos: t.pos, Msg: fmt.Sprintf("unexpected %q", t.text)}
}

func (p *parser) call(name token, depth int) (Expr, error) {
	fname, lane, hasLane := strings.Cut(name.text, "@")
	if hasLane && lane != "a" && lane != "b" {
		return nil, &Error{Pos: name.pos + len(fname), Msg: fmt.Sprintf("lane %q: a forked lab has lanes a and b (skew@a(…), pending@b(…))", lane)}
	}
	f, ok := funcs[fname]
	if !ok {
		return nil, &Error{Pos: name.pos, Msg: fmt.Sprintf("unknown function %q; functions are %s", fname, funcNames())}
	}
	p.next() // (
	c := &callExpr{name: fname, lane: lane, pos: name.pos}
	for p.peek().kind != tRParen {
		a, err := p.arg(depth)
		if err != nil {
			return nil, err
		}
		c.args = append(c.args, a)
		if p.peek().kind == tComma {
			p.next()
			continue
		}
		if p.peek().kind != tRParen {
			return nil, &Error{Pos: p.peek().pos, Msg: fmt.Sprintf("expected , or ) in %s", f.Usage)}
		}
	}
	p.next() // )
	if len(c.args) < f.MinArgs || (f.MaxArgs >= 0 && len(c.args) > f.MaxArgs) {
		return nil, &Error{Pos: name.pos, Msg: fmt.Sprintf("%s takes %s; usage: %s", f.Name, arity(f), f.Usage)}
	}
	if f.First != nil && len(c.args) > 0 {
		if err := f.First(c.args[0]); err != nil {
			return nil, &Error{Pos: c.args[0].Pos, Msg: fmt.Sprintf("%s: %v; usage: %s", f.Name, err, f.Usage)}
		}
	}
	return c, nil
}

func arity(f Func) string {
	switch {
	case f.MinArgs == f.MaxArgs && f.MinArgs == 0:
		return "no arguments"
	case f.MinArgs == f.MaxArgs && f.MinArgs == 1:
		return "1 argument"
	case f.MinArgs == f.MaxArgs:
		return fmt.Sprintf("%d arguments", f.MinArgs)
	case f.MaxArgs < 0:
		return fmt.Sprintf("at least %d argument(s)", f.MinArgs)
	}
	return fmt.Sprintf("%d to %d arguments", f.MinArgs, f.MaxArgs)
}

func (p *parser) arg(depth int) (Arg, error) {
	t := p.peek()
	if t.kind == tWord && p.i+1 < len(p.toks) {
		nt := p.toks[p.i+1]
		if nt.kind == tOp && (nt.text == "=" || nt.text == "==" || nt.text == "!=") {
			p.next()
			p.next()
			v := p.next()
			if v.kind != tWord && v.kind != tNumber && v.kind != tString {
				return Arg{}, &Error{Pos: v.pos, Msg: fmt.Sprintf("expected a value after %s%s", t.text, nt.text)}
			}
			op := nt.text
			if op == "==" {
				op = "="
			}
			return Arg{Kind: ArgSelector, Key: t.text, Op: op, Val: v.text, Pos: t.pos}, nil
		}
		if nt.kind != tLParen {
			if i := strings.IndexByte(t.text, '/'); i > 0 && !strings.Contains(t.text[:i], ".") && i < len(t.text)-1 {
				p.next()
				return Arg{Kind: ArgRef, RefKind: canonicalRefKind(t.text[:i]), Name: t.text[i+1:], Pos: t.pos}, nil
			}
			if !isNumberText(t.text) {
				p.next()
				return Arg{Kind: ArgWord, Word: t.text, Pos: t.pos}, nil
			}
		}
	}
	e, err := p.orExpr(depth + 1)
	if err != nil {
		return Arg{}, err
	}
	return Arg{Kind: ArgExpr, Expr: e, Pos: t.pos}, nil
}

var refAliases = map[string]string{
	"po": "pod", "pods": "pod", "deploy": "deployment", "deployments": "deployment",
	"sts": "statefulset", "statefulsets": "statefulset", "rs": "replicaset", "replicasets": "replicaset",
	"ds": "daemonset", "daemonsets": "daemonset", "jobs": "job", "no": "node", "nodes": "node", "pdbs": "pdb",
}

// canonicalRefKind maps kubectl's kind names and short names to the
// lab's kinds; anything else is left as written (it is then not a kind
// any function accepts, and the error quotes it as typed).
func canonicalRefKind(k string) string {
	lower := strings.ToLower(k)
	if c, ok := refAliases[lower]; ok {
		return c
	}
	switch lower {
	case "pod", "node", "deployment", "statefulset", "replicaset", "daemonset", "job", "cronjob", "pdb":
		return lower
	}
	return k
}
