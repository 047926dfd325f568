package check

import (
	"fmt"
	"strconv"
	"strings"
)

// Error is a parse or evaluation error at a byte offset of the expression.
type Error struct {
	Pos int
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("col %d: %s", e.Pos+1, e.Msg) }

// ValueKind is the type of a Value.
type ValueKind int

// Value kinds.
const (
	Num ValueKind = iota
	Str
	Bool
	List
)

func (k ValueKind) String() string {
	return [...]string{"number", "text", "true/false", "list"}[k]
}

// Value is what an expression evaluates to.
type Value struct {
	Kind ValueKind
	N    float64
	S    string
	B    bool
	L    []Value
}

// NumV, StrV and BoolV build values.
func NumV(n float64) Value { return Value{Kind: Num, N: n} }

// StrV builds a text value.
func StrV(s string) Value { return Value{Kind: Str, S: s} }

// BoolV builds a boolean value.
func BoolV(b bool) Value { return Value{Kind: Bool, B: b} }

func (v Value) String() string {
	switch v.Kind {
	case Num:
		return strconv.FormatFloat(v.N, 'f', -1, 64)
	case Str:
		if v.S == "" {
			return `""`
		}
		return v.S
	case Bool:
		return strconv.FormatBool(v.B)
	}
	parts := make([]string, len(v.L))
	for i, x := range v.L {
		parts[i] = x.String()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// ArgKind is the shape of a function argument.
type ArgKind int

// Argument shapes.
const (
	ArgRef      ArgKind = iota // kind/name, e.g. deployment/web
	ArgWord                    // a bare word: zone, pods, Evicted
	ArgSelector                // key=value or key!=value
	ArgExpr                    // a nested expression or number
)

// Arg is one function argument.
type Arg struct {
	Kind ArgKind
	// Ref: RefKind/Name. Word: Word. Selector: Key Op Value.
	RefKind, Name string
	Word          string
	Key, Op, Val  string
	Expr          Expr
	Pos           int
}

func (a Arg) String() string {
	switch a.Kind {
	case ArgRef:
		return a.RefKind + "/" + a.Name
	case ArgWord:
		return a.Word
	case ArgSelector:
		return a.Key + a.Op + selectorValue(a.Val)
	}
	if _, ok := a.Expr.(*binary); ok && startsWithWord(a.Expr) {
		return "(" + a.Expr.String() + ")"
	}
	return a.Expr.String()
}

// Expr is a parsed expression.
type Expr interface {
	String() string
	eval(env Env) (Value, error)
}

type binary struct {
	op   string
	l, r Expr
	pos  int
}

type notExpr struct{ x Expr }

type callExpr struct {
	name string
	// lane is "a" or "b" for skew@b(…): the function asked of one lane of
	// a forked lab ("" ⇒ the lab, or lane a of a fork).
	lane string
	args []Arg
	pos  int
}

type literal struct{ v Value }

type listExpr struct{ items []Expr }

// The normal form prints only the parentheses the grammar needs, so it
// never nests deeper than the text it came from (MaxDepth counts
// parentheses and negations): || binds loosest, then &&, then a negation,
// then comparisons, whose operands are plain values.
func (b *binary) String() string {
	switch b.op {
	case "||":
		// left-associated: a || chain on the left reads back the same
		return b.l.String() + " || " + parenUnless(b.r, precAnd)
	case "&&":
		return parenUnless(b.l, precAnd) + " && " + parenUnless(b.r, precNot)
	}
	return parenUnless(b.l, precValue) + " " + b.op + " " + parenUnless(b.r, precValue)
}

func (n *notExpr) String() string { return "!" + parenUnless(n.x, precNot) }

// Binding strengths, loosest first.
const (
	precOr = iota
	precAnd
	precNot // a negation and, below it, a comparison
	precValue
)

func precedence(e Expr) int {
	switch x := e.(type) {
	case *binary:
		switch x.op {
		case "||":
			return precOr
		case "&&":
			return precAnd
		}
		return precNot // a comparison reads as a negation's operand
	case *notExpr:
		return precNot
	}
	return precValue
}

// parenUnless parenthesises e when it binds looser than the place it is in.
func parenUnless(e Expr, min int) string {
	if precedence(e) < min {
		return "(" + e.String() + ")"
	}
	return e.String()
}

// startsWithWord reports an expression whose text begins with a bare word;
// as a function argument that would read back as a word or a selector.
func startsWithWord(e Expr) bool {
	for {
		switch x := e.(type) {
		case *binary:
			e = x.l
			continue
		case *literal:
			return x.v.Kind == Bool || (x.v.Kind == Str && plainWord(x.v.S))
		}
		return false
	}
}

func (c *callExpr) String() string {
	parts := make([]string, len(c.args))
	for i, a := range c.args {
		parts[i] = a.String()
	}
	name := c.name
	if c.lane != "" {
		name += "@" + c.lane
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}
func (l *literal) String() string {
	if l.v.Kind != Str {
		return l.v.String()
	}
	if plainWord(l.v.S) {
		return l.v.S
	}
	if strings.Contains(l.v.S, `"`) {
		return "'" + l.v.S + "'"
	}
	return `"` + l.v.S + `"`
}

// plainWord reports text that lexes back as the same bare word.
func plainWord(s string) bool {
	// text with a slash could read back as a kind/name reference
	if s == "" || isNumberText(s) || strings.Contains(s, "/") {
		return false
	}
	switch strings.ToLower(s) {
	case "and", "or", "not", "in", "true", "false":
		return false
	}
	if funcNameSet[s] {
		return false
	}
	for _, r := range s {
		if !wordRune(r) {
			return false
		}
	}
	return true
}
func (l *listExpr) String() string {
	parts := make([]string, len(l.items))
	for i, x := range l.items {
		parts[i] = x.String()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// selectorValue prints a selector's value so that it lexes back the same.
func selectorValue(v string) string {
	if plainWord(v) || isNumberText(v) {
		return v
	}
	return (&literal{v: StrV(v)}).String()
}
