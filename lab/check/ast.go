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
	return grouped(a.Expr)
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
	args []Arg
	pos  int
}

type literal struct{ v Value }

type listExpr struct{ items []Expr }

func (b *binary) String() string { return grouped(b.l) + " " + b.op + " " + grouped(b.r) }
func (n *notExpr) String() string {
	if _, ok := n.x.(*binary); ok {
		return "!(" + n.x.String() + ")"
	}
	return "!" + n.x.String()
}

// grouped parenthesises a nested binary expression, so the normal form
// keeps the structure whatever the operators' precedence.
func grouped(e Expr) string {
	switch e.(type) {
	case *binary, *notExpr:
		// a negation is not a comparison operand: keep its parentheses
		return "(" + e.String() + ")"
	}
	return e.String()
}
func (c *callExpr) String() string {
	parts := make([]string, len(c.args))
	for i, a := range c.args {
		parts[i] = a.String()
	}
	return c.name + "(" + strings.Join(parts, ", ") + ")"
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
