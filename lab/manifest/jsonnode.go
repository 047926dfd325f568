package manifest

import (
	"encoding/json"
	"errors"

	"go.yaml.in/yaml/v3"
)

// jsonNode parses one JSON value (a List item of `kubectl get -o json`)
// straight into the yaml.Node tree the decoder reads, as yaml.v3 would
// parse the same text — kinds, values, quoting, and line:col positions
// counted in characters from the item's place in the file — but without
// YAML's general scanner, which costs most of an import. A
// "managedFields" array becomes an empty sequence (its entries are
// counted, not built). Malformed input returns an error and the caller
// parses the text with yaml.v3 for its message.
func jsonNode(data []byte, line, col int) (n *yaml.Node, managed int, err error) {
	p := &jsonParser{data: data, line: line, col: col}
	p.skipSpace()
	n = p.value(0, "")
	if p.err == nil {
		p.skipSpace()
		if p.i != len(p.data) {
			p.fail()
		}
	}
	return n, p.managed, p.err
}

var errJSON = errors.New("malformed JSON")

type jsonParser struct {
	data      []byte
	i         int
	line, col int
	managed   int
	err       error
	nodeSlab  // node (yamlnode.go)
}

func (p *jsonParser) fail() {
	if p.err == nil {
		p.err = errJSON
	}
}

// advance consumes n bytes, keeping line and column (in characters).
func (p *jsonParser) advance(n int) {
	for _, b := range p.data[p.i : p.i+n] {
		switch {
		case b == '\n':
			p.line++
			p.col = 1
		case b&0xC0 != 0x80:
			p.col++
		}
	}
	p.i += n
}

func (p *jsonParser) skipSpace() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\r':
			p.i++
			p.col++
		case '\n':
			p.i++
			p.line++
			p.col = 1
		default:
			return
		}
	}
}

func (p *jsonParser) peek() byte {
	if p.i >= len(p.data) {
		return 0
	}
	return p.data[p.i]
}

// value parses a value at depth (the item is 0) under parentKey.
func (p *jsonParser) value(depth int, parentKey string) *yaml.Node {
	if p.err != nil {
		return nil
	}
	if depth > 10000 {
		p.fail()
		return nil
	}
	line, col := p.line, p.col
	switch c := p.peek(); {
	case c == '{':
		n := p.node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle, Line: line, Column: col})
		p.advance(1)
		p.skipSpace()
		if p.peek() == '}' {
			p.advance(1)
			return n
		}
		for p.err == nil {
			p.skipSpace()
			if p.peek() != '"' {
				p.fail()
				return nil
			}
			k := p.str()
			p.skipSpace()
			if p.peek() != ':' {
				p.fail()
				return nil
			}
			p.advance(1)
			p.skipSpace()
			var v *yaml.Node
			if depth == 1 && parentKey == "metadata" && k != nil && k.Value == "managedFields" && p.peek() == '[' {
				v = p.skipArray()
			} else {
				v = p.value(depth+1, k.Value)
			}
			n.Content = append(n.Content, k, v)
			p.skipSpace()
			switch p.peek() {
			case ',':
				p.advance(1)
			case '}':
				p.advance(1)
				return n
			default:
				p.fail()
			}
		}
		return nil
	case c == '[':
		n := p.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Line: line, Column: col})
		p.advance(1)
		p.skipSpace()
		if p.peek() == ']' {
			p.advance(1)
			return n
		}
		for p.err == nil {
			p.skipSpace()
			n.Content = append(n.Content, p.value(depth+1, ""))
			p.skipSpace()
			switch p.peek() {
			case ',':
				p.advance(1)
			case ']':
				p.advance(1)
				return n
			default:
				p.fail()
			}
		}
		return nil
	case c == '"':
		return p.str()
	default:
		// a number or true/false/null: a plain scalar, resolved by yaml
		// (ShortTag) exactly as the parser's would be
		j := p.i
		for j < len(p.data) {
			b := p.data[j]
			if b == ',' || b == '}' || b == ']' || b == ' ' || b == '\n' || b == '\r' || b == '\t' {
				break
			}
			j++
		}
		if j == p.i {
			p.fail()
			return nil
		}
		lit := string(p.data[p.i:j])
		if !json.Valid([]byte(lit)) {
			p.fail()
			return nil
		}
		p.advance(j - p.i)
		n := p.node(yaml.Node{Kind: yaml.ScalarNode, Value: lit, Line: line, Column: col})
		n.Tag = n.ShortTag()
		return n
	}
}

// str parses a JSON string into a double-quoted scalar.
func (p *jsonParser) str() *yaml.Node {
	line, col := p.line, p.col
	j, esc := p.i+1, false
	for ; j < len(p.data); j++ {
		b := p.data[j]
		if b == '\\' {
			esc = true
			j++
			continue
		}
		if b == '"' {
			break
		}
		if b < 0x20 {
			p.fail()
			return nil
		}
	}
	if j >= len(p.data) {
		p.fail()
		return nil
	}
	raw := p.data[p.i : j+1]
	var v string
	if !esc {
		v = string(raw[1 : len(raw)-1])
	} else if err := json.Unmarshal(raw, &v); err != nil {
		p.fail()
		return nil
	}
	p.advance(len(raw))
	return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: v, Line: line, Column: col})
}

// skipArray passes over a managedFields array, counting its entries, and
// returns it as an empty sequence.
func (p *jsonParser) skipArray() *yaml.Node {
	n := p.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Line: p.line, Column: p.col})
	start := p.i
	depth, inStr, esc := 0, false, false
	j := p.i
	for ; j < len(p.data); j++ {
		c := p.data[j]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '[', '{':
			if depth == 1 && c == '{' {
				p.managed++
			}
			depth++
		case ']', '}':
			depth--
		}
		if depth == 0 {
			break
		}
	}
	if depth != 0 {
		p.fail()
		return nil
	}
	p.advance(j + 1 - start)
	return n
}
