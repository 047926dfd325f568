package lab

import (
	"bytes"
	"strings"
)

// splitDocs separates the YAML documents for which match is true from the
// rest. Both halves keep the original line numbers (the other half's lines
// are blanked; the separators of matched documents stay in both).
//
// It works on byte offsets, never on a slice of lines: a 300 MB cluster
// dump has ten million lines, and a [][]byte of them (24 bytes a line,
// three times over) once cost more memory than the whole import. When no
// document matches — every plain manifest file — matched is nil and rest
// is data itself, not a copy.
func splitDocs(data []byte, match func(doc []byte) bool) (matched, rest []byte, found bool) {
	type doc struct {
		start, end int
		match      bool
	}
	var docs []doc
	start := 0
	// separators start with "---" at a line's start: found with
	// bytes.Index, not by visiting every line
	for off := 0; off < len(data); {
		if off > 0 || !bytes.HasPrefix(data, []byte("---")) {
			from := max(off-1, 0) // from the newline ending the line before
			i := bytes.Index(data[from:], []byte("\n---"))
			if i < 0 {
				break
			}
			off = from + i + 1
		}
		end := lineEnd(data, off)
		if isDocSeparator(data[off:end]) {
			docs = append(docs, doc{start: start, end: off})
			start = off
		}
		off = end
	}
	docs = append(docs, doc{start: start, end: len(data)})
	for i := range docs {
		if docs[i].match = match(data[docs[i].start:docs[i].end]); docs[i].match {
			found = true
		}
	}
	if !found {
		return nil, data, false
	}
	matched = make([]byte, 0, len(data)/2)
	rest = make([]byte, 0, len(data))
	for _, d := range docs {
		text := data[d.start:d.end]
		if !d.match {
			matched = blankLines(matched, text)
			rest = append(rest, text...)
			continue
		}
		matched = append(matched, text...)
		for off := 0; off < len(text); {
			end := lineEnd(text, off)
			if l := text[off:end]; isDocSeparator(l) {
				rest = append(rest, l...)
			} else {
				rest = blankLines(rest, l)
			}
			off = end
		}
	}
	return matched, rest, true
}

// lineEnd is the offset just past the line starting at off (past its
// newline, or the end of data).
func lineEnd(data []byte, off int) int {
	if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(data)
}

// blankLines appends text's line endings ("\n" or "\r\n") to out: the
// lines, emptied, in the same number.
func blankLines(out, text []byte) []byte {
	for {
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			return out
		}
		if i > 0 && text[i-1] == '\r' {
			out = append(out, '\r')
		}
		out = append(out, '\n')
		text = text[i+1:]
	}
}

func isDocSeparator(l []byte) bool {
	if !bytes.HasPrefix(l, []byte("---")) {
		return false // the common case, without a conversion
	}
	s := strings.TrimRight(string(l), "\r\n")
	return s == "---" || strings.HasPrefix(s, "--- ") || strings.HasPrefix(s, "---\t")
}

// topLevelValue returns the value of the document's first line starting
// with key (at the first column: a top-level field), unquoted and without
// a trailing comment.
func topLevelValue(doc []byte, key string) (string, bool) {
	off := 0
	if !bytes.HasPrefix(doc, []byte(key)) {
		i := bytes.Index(doc, []byte("\n"+key))
		if i < 0 {
			return "", false
		}
		off = i + 1
	}
	l := doc[off:lineEnd(doc, off)]
	s := strings.TrimRight(string(l), "\r\n")
	return scalarValue(strings.TrimPrefix(s, key)), true
}

// scalarValue is a plain or quoted YAML scalar without its trailing
// comment: a comment starts at " #" or "\t#" outside quotes.
func scalarValue(s string) string {
	v := strings.TrimSpace(s)
	if len(v) > 0 && (v[0] == '"' || v[0] == '\'') {
		if end := strings.IndexByte(v[1:], v[0]); end >= 0 {
			return v[1 : end+1]
		}
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	} else if i := strings.Index(v, "\t#"); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v)
}
