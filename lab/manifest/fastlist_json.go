package manifest

import (
	"bytes"
	"encoding/json"
	"io"
)

// jsonListPrefix is how `kubectl get … -o json` starts a List: keys in
// order, four-space indentation.
var jsonListPrefix = []byte("{\n    \"apiVersion\": \"v1\",\n    \"items\": [")

// jsonItemStarts splits a kubectl JSON List into its items with
// encoding/json's tokenizer (fast, no tree): each item's byte range, line
// and column. It reports false when the input is not one List object
// whose keys after the items are kind "List" and metadata.
func jsonItemStarts(data []byte) (starts []itemStart, cols []int, ok bool) {
	if !bytes.HasPrefix(data, jsonListPrefix) {
		return nil, nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	want := []json.Token{json.Delim('{'), "apiVersion", "v1", "items", json.Delim('[')}
	for _, w := range want {
		tok, err := dec.Token()
		if err != nil || tok != w {
			return nil, nil, false
		}
	}
	line, lineStart, scanned := 1, 0, 0
	advance := func(to int) {
		for {
			i := bytes.IndexByte(data[scanned:to], '\n')
			if i < 0 {
				break
			}
			line++
			scanned += i + 1
			lineStart = scanned
		}
		scanned = to
	}
	for dec.More() {
		at := int(dec.InputOffset())
		for at < len(data) && (data[at] == ' ' || data[at] == '\n' || data[at] == '\r' || data[at] == '\t' || data[at] == ',') {
			at++
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, false
		}
		advance(at)
		starts = append(starts, itemStart{off: at, end: int(dec.InputOffset()), line: line})
		cols = append(cols, at-lineStart+1)
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim(']') {
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
