package check

// Ref is an object a check names: the function it is an argument of and
// the object's KIND/NAME (podlab validate looks them up without
// evaluating anything).
type Ref struct {
	Func       string // "skew", "cordoned", …
	Kind, Name string
	Pos        int // byte offset in the check
}

// Refs lists the KIND/NAME arguments of every call in the check, in
// source order.
func (c *Check) Refs() []Ref {
	var out []Ref
	var walk func(Expr)
	walk = func(e Expr) {
		switch e := e.(type) {
		case *binary:
			walk(e.l)
			walk(e.r)
		case *notExpr:
			walk(e.x)
		case *listExpr:
			for _, it := range e.items {
				walk(it)
			}
		case *callExpr:
			for _, a := range e.args {
				switch a.Kind {
				case ArgRef:
					out = append(out, Ref{Func: e.name, Kind: a.RefKind, Name: a.Name, Pos: a.Pos})
				case ArgExpr:
					walk(a.Expr)
				}
			}
		}
	}
	walk(c.root)
	return out
}
