package manifest

import (
	"bytes"
	"encoding/json"
	"io"
)

// jsonListPrefix is how `kubectl get … -o json` starts a List: keys in
// order, four-space indentation.
var jsonListPrefix = []byte("{\n    \"apiVersion\": \"v1\",\n    \"items\": [")

// jsonItemStarts splits a kubectl JSON List into its items: each item's
// byte range, line and column. It reports false when the input is not one
// List object whose keys after the items are kind "List" and metadata.
//
// The items are found with a byte scanner that tracks strings and
// brackets, not with encoding/json's Decoder: the Decoder scans every
// item twice and copies it, which made this split, run before any item is
// decoded and on one core, a third of a 344 MB import. The scanner admits
// only JSON's characters between tokens (so a YAML flow item with quotes
// of its own takes the general path, as before); an item that is not
// valid JSON is still one bracketed range, which jsonNode rejects and
// yaml.v3 then reports with its position.
func jsonItemStarts(data []byte) (starts []itemStart, cols []int, ok bool) {
	if !bytes.HasPrefix(data, jsonListPrefix) {
		return nil, nil, false
	}
	i, line, lineStart := len(jsonListPrefix), 3, 0
	if j := bytes.LastIndexByte(data[:i], '\n'); j >= 0 {
		lineStart = j + 1
	}
	// space skips whitespace (and one comma when comma), counting lines.
	space := func() {
		for ; i < len(data); i++ {
			switch data[i] {
			case ' ', '\t', '\r':
			case '\n':
				line++
				lineStart = i + 1
			default:
				return
			}
		}
	}
	var stack []byte // open brackets of the current item
	for {
		space()
		if i >= len(data) {
			return nil, nil, false
		}
		if data[i] == ']' {
			i++
			break
		}
		if len(starts) > 0 {
			if data[i] != ',' {
				return nil, nil, false
			}
			i++
			space()
		}
		if i >= len(data) || data[i] != '{' {
			return nil, nil, false
		}
		st := itemStart{off: i, line: line}
		cols = append(cols, i-lineStart+1)
		stack = stack[:0]
	item:
		for ; i < len(data); i++ {
			switch c := data[i]; c {
			case '"':
				end := jsonStringEnd(data, i)
				if end < 0 {
					return nil, nil, false
				}
				i = end
			case '{', '[':
				stack = append(stack, c)
			case '}', ']':
				if len(stack) == 0 || stack[len(stack)-1] != c-2 { // '{'+2 == '}', '['+2 == ']'
					return nil, nil, false
				}
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					i++
					break item
				}
			case '\n':
				line++
				lineStart = i + 1
				// the indentation, in a tight loop: kubectl indents by
				// up to 30 spaces, a third of an -o json dump's bytes
				for i+1 < len(data) && data[i+1] == ' ' {
					i++
				}
			default:
				if !jsonPlain[c] {
					return nil, nil, false
				}
			}
		}
		if len(stack) != 0 {
			return nil, nil, false
		}
		st.end = i
		starts = append(starts, st)
	}
	// the tail, `, "kind": "List", "metadata": {…} }`: small, so checked
	// with encoding/json as one object
	space()
	if i >= len(data) || data[i] != ',' {
		return nil, nil, false
	}
	tail := append([]byte("{"), data[i+1:]...)
	dec := json.NewDecoder(bytes.NewReader(tail))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, false
	}
	kind := ""
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, false
		}
		switch key {
		case "kind":
			if err := json.Unmarshal(v, &kind); err != nil {
				return nil, nil, false
			}
		case "metadata":
		default:
			return nil, nil, false
		}
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return nil, nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, false
	}
	return starts, cols, kind == "List" && len(starts) > 0
}

// jsonPlain are the bytes JSON allows between strings and brackets:
// whitespace, separators, and the characters of numbers, true, false and
// null.
var jsonPlain = func() (t [256]bool) {
	for _, c := range []byte(" \t\r,:+-.0123456789eEtrufalsn") {
		t[c] = true
	}
	return t
}()

// jsonStringEnd returns the offset of the quote closing the string that
// opens at data[i], or -1 (unterminated, or a raw newline inside).
func jsonStringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); {
		k := bytes.IndexAny(data[j:], "\"\\\n")
		if k < 0 {
			return -1
		}
		j += k
		switch data[j] {
		case '"':
			return j
		case '\\':
			j += 2
		default: // a raw newline: not JSON
			return -1
		}
	}
	return -1
}

// blankJSONManagedFields empties an item's "managedFields": [...] (its
// content becomes spaces, newlines kept, so positions do not move) and
// counts its entries.
func blankJSONManagedFields(item []byte) ([]byte, int) {
	// kubectl's layout: an item's keys at 12 spaces, metadata's at 16
	key := []byte("\n                \"managedFields\": [")
	i := bytes.Index(item, key)
	if i < 0 {
		return item, 0
	}
	open := i + len(key) - 1
	// find the matching ']' outside strings
	depth, entries, end := 0, 0, -1
	inStr, esc := false, false
	for j := open; j < len(item) && end < 0; j++ {
		c := item[j]
		switch {
		case inStr:
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '[' || c == '{':
			if depth == 1 && c == '{' {
				entries++
			}
			depth++
		case c == ']' || c == '}':
			depth--
			if depth == 0 {
				end = j
			}
		}
	}
	if end < 0 {
		return item, 0 // malformed: the parser reports it
	}
	out := append([]byte(nil), item...)
	for j := open + 1; j < end; j++ {
		if out[j] != '\n' {
			out[j] = ' '
		}
	}
	return out, entries
}
