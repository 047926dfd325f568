package textsafe

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// NewWriter returns a writer that passes every Write through Text before
// writing it to w: the headless commands write their text reports through
// it, so no input-derived string reaches the terminal raw even where a
// formatter forgot to clean a field. Each Write is cleaned on its own;
// callers write whole strings (fmt.Fprintf does), so a multi-byte rune or
// an escape sequence is never split between two writes. Our own text is
// safe, so the common case is a check and a pass-through.
func NewWriter(w io.Writer) io.Writer { return &writer{w: w, clean: Text} }

// NewJSONWriter returns a writer for the output of encoding/json.
// encoding/json already escapes C0 controls, U+2028 and U+2029, but writes
// C1 controls (U+0080–U+009F, which some terminals act on as CSI, OSC…)
// and bidirectional formatting characters raw. In JSON text such a rune
// can only occur inside a string, so replacing it by its \uXXXX escape is
// lossless: a decoder reads the same value.
func NewJSONWriter(w io.Writer) io.Writer { return &writer{w: w, clean: JSON} }

type writer struct {
	w     io.Writer
	clean func(string) string
}

// Write implements io.Writer. It reports len(p) on success, as the
// contract requires, although the cleaned text may be longer.
func (w *writer) Write(p []byte) (int, error) {
	s := string(p)
	if out := w.clean(s); out != s {
		if _, err := io.WriteString(w.w, out); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return w.w.Write(p)
}

// JSON escapes, as \uXXXX, the runes of JSON text that a terminal may act
// on and encoding/json leaves raw (see NewJSONWriter). Other text,
// including newlines between JSON values, is unchanged.
func JSON(s string) string {
	i := jsonSafePrefix(s)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for j := i; j < len(s); {
		r, size := utf8.DecodeRuneInString(s[j:])
		if jsonUnsafe(r) {
			h := strconv.FormatInt(int64(r), 16)
			b.WriteString(`\u`)
			b.WriteString(strings.Repeat("0", 4-len(h)))
			b.WriteString(h)
		} else {
			b.WriteString(s[j : j+size]) // bytes as they are, even invalid ones
		}
		j += size
	}
	return b.String()
}

func jsonSafePrefix(s string) int {
	for i, r := range s {
		if jsonUnsafe(r) {
			return i
		}
	}
	return len(s)
}

// jsonUnsafe is unsafeRune plus DEL, which encoding/json also writes raw.
// C0 controls are left alone: encoding/json escapes them inside strings,
// and outside strings they are the newlines and indentation of the
// layout, which an escape would make invalid JSON. Every rune here is
// below U+10000, so one \uXXXX escape holds it.
func jsonUnsafe(r rune) bool { return r == 0x7f || unsafeRune(r) }
