package check

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

type tokKind int

const (
	tEOF tokKind = iota
	tWord
	tNumber
	tString
	tLParen
	tRParen
	tLBrack
	tRBrack
	tComma
	tOp // == != < <= > >= && || !
)

type token struct {
	kind tokKind
	text string
	pos  int // byte offset, 0-based
}

// wordRune: names, refs (deployment/web), label keys (app.kubernetes.io/name),
// selectors (app=web is split by the parser), quantities (1.5Gi), durations.
func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-_./%:@", r)
}

func lex(src string) ([]token, error) {
	var out []token
	i := 0
	for i < len(src) {
		r := rune(src[i])
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			i++
		case r == '(':
			out = append(out, token{tLParen, "(", i})
			i++
		case r == ')':
			out = append(out, token{tRParen, ")", i})
			i++
		case r == '[':
			out = append(out, token{tLBrack, "[", i})
			i++
		case r == ']':
			out = append(out, token{tRBrack, "]", i})
			i++
		case r == ',':
			out = append(out, token{tComma, ",", i})
			i++
		case r == '"' || r == '\'':
			j := strings.IndexRune(src[i+1:], r)
			if j < 0 {
				return nil, &Error{Pos: i, Msg: "unterminated string"}
			}
			out = append(out, token{tString, src[i+1 : i+1+j], i})
			i += j + 2
		case strings.HasPrefix(src[i:], "==") || strings.HasPrefix(src[i:], "!=") || strings.HasPrefix(src[i:], "<=") ||
			strings.HasPrefix(src[i:], ">=") || strings.HasPrefix(src[i:], "&&") || strings.HasPrefix(src[i:], "||"):
			out = append(out, token{tOp, src[i : i+2], i})
			i += 2
		case r == '<' || r == '>' || r == '!' || r == '=':
			out = append(out, token{tOp, string(r), i})
			i++
		case wordRune(r) || r >= utf8.RuneSelf:
			j := i
			for j < len(src) {
				rr, size := utf8.DecodeRuneInString(src[j:])
				if !wordRune(rr) {
					break
				}
				j += size
			}
			if j == i {
				rr, _ := utf8.DecodeRuneInString(src[i:])
				return nil, &Error{Pos: i, Msg: fmt.Sprintf("unexpected character %q", rr)}
			}
			text := src[i:j]
			kind := tWord
			if isNumberText(text) {
				kind = tNumber
			}
			out = append(out, token{kind, text, i})
			i = j
		default:
			return nil, &Error{Pos: i, Msg: fmt.Sprintf("unexpected character %q", r)}
		}
	}
	out = append(out, token{tEOF, "", len(src)})
	return out, nil
}

func isNumberText(s string) bool {
	if s == "" {
		return false
	}
	dot := false
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
		case r == '.' && !dot:
			dot = true
		case r == '-' && i == 0 && len(s) > 1:
		default:
			return false
		}
	}
	return true
}
