package manifest

import (
	"encoding/json"
	"errors"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// yamlNode parses one item of `kubectl get -o yaml` — the text of a "- "
// List entry starting at the first column of line `line` — straight into
// the yaml.Node tree yaml.v3 builds for it (the entry's mapping: kinds,
// values, tags, styles and line:col positions), without YAML's general
// scanner, which costs most of a YAML import. It knows the YAML kubectl
// prints: block mappings and sequences (sequences under a key at the
// key's indentation), plain and quoted scalars on one line, and flow
// collections on one line. Anything else — comments, anchors, aliases,
// tags, block scalars, scalars folded over lines, tabs, deep nesting —
// returns errYAMLShape, and the caller parses the item with yaml.v3 (the
// authority, also for error messages). TestYAMLNodeMatchesYAMLParser and
// FuzzYAMLNode hold it to yaml.v3's trees.
func yamlNode(data []byte, line int) (*yaml.Node, error) {
	p := &yamlParser{data: data, line: line}
	if !p.at("- ") || !simpleText(data) {
		return nil, errYAMLShape
	}
	p.advance(2)
	n := p.blockValueInline(0, 2, 1)
	if p.err != nil {
		return nil, p.err
	}
	p.skipBlankLines()
	if p.i != len(p.data) {
		return nil, errYAMLShape // a second entry, or less indented text
	}
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, errYAMLShape
	}
	return n, nil
}

var errYAMLShape = errors.New("not in the shape kubectl prints")

// simpleText reports whether text is valid UTF-8 of printable characters
// and newlines only: what yaml.v3 rejects (control characters) or reads
// specially (tabs, carriage returns, NEL and the Unicode line and
// paragraph separators as line breaks, byte order marks) is left to it.
func simpleText(text []byte) bool {
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(text[i:])
		switch {
		case r == utf8.RuneError, r < 0xA0, r == 0x2028, r == 0x2029, r == 0xFEFF, r >= 0xD800 && r < 0xE000, r == 0xFFFE, r == 0xFFFF:
			return false
		}
		i += n
	}
	return true
}

// yamlMaxDepth bounds the nesting the fast parser follows (deeper items
// take yaml.v3, whose depth is then checked against Options.MaxDepth).
const yamlMaxDepth = 40

// yamlParser's data has passed simpleText: it is valid UTF-8, and so is
// every scalar cut from it at ASCII delimiters (not checked again).
type yamlParser struct {
	data []byte
	i    int // offset
	line int // line of data[i]
	col  int // 0-based column of data[i], in characters
	err  error
	nodeSlab
}

// nodeSlab allocates the nodes of one item's tree (yamlParser and
// jsonParser): an item has hundreds of nodes, all dropped together once
// it is decoded, so one allocation per 128 of them saves most of the
// parser's allocations.
type nodeSlab []yaml.Node

// node returns a copy of n allocated from the slab.
func (s *nodeSlab) node(n yaml.Node) *yaml.Node {
	if len(*s) == cap(*s) {
		*s = make([]yaml.Node, 0, 128)
	}
	*s = append(*s, n)
	return &(*s)[len(*s)-1]
}

func (p *yamlParser) fail() {
	if p.err == nil {
		p.err = errYAMLShape
	}
}

func (p *yamlParser) at(s string) bool {
	return len(p.data)-p.i >= len(s) && string(p.data[p.i:p.i+len(s)]) == s
}

func (p *yamlParser) peek() byte {
	if p.i >= len(p.data) {
		return 0
	}
	return p.data[p.i]
}

// advance moves n bytes along the current line (no newline inside).
func (p *yamlParser) advance(n int) {
	for _, b := range p.data[p.i : p.i+n] {
		if b&0xC0 != 0x80 {
			p.col++
		}
	}
	p.i += n
}

func (p *yamlParser) skipSpaces() {
	for p.i < len(p.data) && p.data[p.i] == ' ' {
		p.i++
		p.col++
	}
}

// endOfLine consumes trailing spaces and the newline; anything else on
// the line fails.
func (p *yamlParser) endOfLine() {
	p.skipSpaces()
	switch {
	case p.i >= len(p.data):
	case p.data[p.i] == '\n':
		p.i++
		p.line++
		p.col = 0
	default:
		p.fail()
	}
}

// skipBlankLines moves to the first character of the next line with
// content and returns its indentation (-1 at the end of the text). Lines
// holding only spaces count as blank. It must be called at a line start.
func (p *yamlParser) skipBlankLines() int {
	for p.i < len(p.data) {
		j := p.i
		for j < len(p.data) && p.data[j] == ' ' {
			j++
		}
		if j < len(p.data) && p.data[j] != '\n' {
			if p.data[j] == '\t' || p.data[j] == '#' || p.data[j] == '\r' {
				p.fail()
				return -1
			}
			p.col = j - p.i
			p.i = j
			return p.col
		}
		if j >= len(p.data) {
			p.i = j
			return -1
		}
		p.i = j + 1
		p.line++
		p.col = 0
	}
	return -1
}

// nextIndent is skipBlankLines without moving.
func (p *yamlParser) nextIndent() int {
	i, line, col := p.i, p.line, p.col
	ind := p.skipBlankLines()
	p.i, p.line, p.col = i, line, col
	return ind
}

// blockValueInline parses the node that starts at the current position,
// mid-line (after "- " or at a line's first content): a mapping whose
// first key is here, a scalar, or a flow collection. parent is the
// indentation of the enclosing block (text after it must be indented no
// more than it, or it would continue a folded scalar); ind is this
// node's column.
func (p *yamlParser) blockValueInline(parent, ind, depth int) *yaml.Node {
	if depth > yamlMaxDepth {
		p.fail()
		return nil
	}
	switch c := p.peek(); c {
	case '{', '[':
		n := p.flow(depth)
		p.endOfLine()
		p.checkNoContinuation(parent)
		return n
	case '-':
		if p.at("- ") || p.at("-\n") {
			p.fail() // "- - x": a sequence in a sequence entry
			return nil
		}
	}
	line, col := p.line, p.col
	k := p.scalar(false)
	if p.err != nil {
		return nil
	}
	if p.peek() == ':' && (p.i+1 >= len(p.data) || p.data[p.i+1] == ' ' || p.data[p.i+1] == '\n') {
		return p.blockMapping(ind, k, line, col, depth)
	}
	p.endOfLine()
	p.checkNoContinuation(parent)
	return k
}

// checkNoContinuation fails when the next line with content is indented
// more than parent: it would continue the scalar just read.
func (p *yamlParser) checkNoContinuation(parent int) {
	if p.err == nil && p.nextIndent() > parent {
		p.fail()
	}
}

// blockMapping parses a block mapping at column ind whose first key, k,
// has just been read (the ':' is next).
func (p *yamlParser) blockMapping(ind int, k *yaml.Node, line, col, depth int) *yaml.Node {
	m := p.node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: line, Column: col + 1})
	for {
		// at the ':' after key k
		colonLine, colonCol := p.line, p.col
		p.advance(1)
		p.skipSpaces()
		var v *yaml.Node
		if p.peek() == '\n' || p.i >= len(p.data) {
			p.endOfLine()
			next := p.nextIndent()
			switch {
			case p.err != nil:
				return nil
			case next > ind:
				p.skipBlankLines()
				v = p.blockNode(ind, next, depth+1)
			case next == ind && p.nextIsDash():
				p.skipBlankLines()
				v = p.blockSequence(ind, ind, depth+1)
			default:
				// "key:" and nothing: null, positioned after the colon
				v = p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: colonLine, Column: colonCol + 2})
			}
		} else {
			switch p.peek() {
			case '|', '>', '&', '*', '!', '#', '%', '@', '`', '?':
				p.fail()
				return nil
			}
			v = p.blockValueInline(ind, p.col, depth+1)
			if v != nil && v.Kind == yaml.MappingNode && v.Style == 0 {
				p.fail() // "a: b: c" is not YAML
			}
		}
		if p.err != nil {
			return nil
		}
		m.Content = append(m.Content, k, v)
		next := p.nextIndent()
		if next < ind {
			return m
		}
		if next > ind {
			p.fail()
			return nil
		}
		p.skipBlankLines()
		if p.at("- ") || p.at("-\n") {
			p.fail() // a sequence entry where a key belongs
			return nil
		}
		k = p.scalar(false)
		if p.err != nil {
			return nil
		}
		if p.peek() != ':' || !(p.i+1 >= len(p.data) || p.data[p.i+1] == ' ' || p.data[p.i+1] == '\n') {
			p.fail()
			return nil
		}
	}
}

// nextIsDash reports whether the next line with content starts with "-"
// as a sequence entry.
func (p *yamlParser) nextIsDash() bool {
	i, line, col := p.i, p.line, p.col
	p.skipBlankLines()
	ok := p.at("- ") || p.at("-\n")
	p.i, p.line, p.col = i, line, col
	return ok
}

// blockNode parses the block node starting at the current position (the
// first content of a line, at column ind) under a parent at parent.
func (p *yamlParser) blockNode(parent, ind, depth int) *yaml.Node {
	if p.at("- ") || p.at("-\n") {
		return p.blockSequence(parent, ind, depth)
	}
	// only a mapping may start on a line of its own here; a scalar alone
	// on the next line is legal YAML kubectl does not print
	n := p.blockValueInline(parent, ind, depth)
	if n != nil && (n.Kind != yaml.MappingNode || n.Style != 0) {
		p.fail()
	}
	return n
}

// blockSequence parses "- " entries at column ind.
func (p *yamlParser) blockSequence(parent, ind, depth int) *yaml.Node {
	if depth > yamlMaxDepth {
		p.fail()
		return nil
	}
	s := p.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: p.line, Column: p.col + 1})
	for {
		if !p.at("- ") {
			p.fail() // "-" alone: an entry on the following lines
			return nil
		}
		p.advance(2)
		p.skipSpaces()
		if p.peek() == '\n' || p.i >= len(p.data) {
			p.fail()
			return nil
		}
		switch p.peek() {
		case '|', '>', '&', '*', '!', '#', '%', '@', '`', '?':
			p.fail()
			return nil
		}
		e := p.blockValueInline(ind, p.col, depth+1)
		if p.err != nil {
			return nil
		}
		s.Content = append(s.Content, e)
		next := p.nextIndent()
		if next < ind || next == ind && !p.nextIsDash() {
			return s
		}
		if next > ind {
			p.fail()
			return nil
		}
		p.skipBlankLines()
	}
}

// scalar reads a plain or quoted scalar on the current line. In flow
// context plain scalars also end at , [ ] { }.
func (p *yamlParser) scalar(flow bool) *yaml.Node {
	line, col := p.line, p.col+1
	switch p.peek() {
	case '"':
		return p.doubleQuoted(line, col)
	case '\'':
		return p.singleQuoted(line, col)
	case 0, '\n', ' ', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '%', '@', '`', '\t', '\r':
		p.fail()
		return nil
	case '-':
		if p.i+1 >= len(p.data) || p.data[p.i+1] == ' ' || p.data[p.i+1] == '\n' {
			p.fail()
			return nil
		}
	}
	start := p.i
	end := p.i // end of the last non-space character
	j := p.i
loop:
	for ; j < len(p.data); j++ {
		switch c := p.data[j]; c {
		case '\n':
			break loop
		case ':':
			if j+1 >= len(p.data) || p.data[j+1] == ' ' || p.data[j+1] == '\n' || flow && (p.data[j+1] == ',' || p.data[j+1] == '}' || p.data[j+1] == ']') {
				break loop
			}
		case '#':
			if p.data[j-1] == ' ' {
				p.fail() // a comment
				return nil
			}
		case '\t', '\r':
			p.fail()
			return nil
		case ',', '[', ']', '{', '}':
			if flow {
				break loop
			}
		}
		if c := p.data[j]; c != ' ' {
			end = j + 1
		}
	}
	text := p.data[start:end]
	p.advance(end - start)
	n := p.node(yaml.Node{Kind: yaml.ScalarNode, Value: string(text), Line: line, Column: col})
	n.Tag = "!!str"
	if mayResolve[text[0]] {
		n.Tag = ""
		n.Tag = n.ShortTag()
	}
	return n
}

// mayResolve marks the first characters with which a plain scalar may
// resolve to something other than a string (yaml.v3's resolveTable:
// numbers, booleans, null, .inf/.nan, the merge key); for any other,
// yaml.v3's resolve returns !!str without looking further, and so does
// scalar, without its cost.
var mayResolve = func() (t [256]bool) {
	for _, c := range []byte("+-0123456789yYnNtTfFoO~<.") {
		t[c] = true
	}
	return t
}()

func (p *yamlParser) doubleQuoted(line, col int) *yaml.Node {
	j, esc := p.i+1, false
	for ; j < len(p.data); j++ {
		b := p.data[j]
		if b == '\\' {
			esc = true
			j++
			continue
		}
		if b == '"' || b == '\n' {
			break
		}
	}
	if j >= len(p.data) || p.data[j] != '"' {
		p.fail() // unterminated on this line: folded over lines
		return nil
	}
	raw := p.data[p.i : j+1]
	var v string
	if !esc {
		v = string(raw[1 : len(raw)-1])
	} else if err := json.Unmarshal(raw, &v); err != nil {
		// YAML escapes JSON lacks (\x41, \e, \N, …): yaml.v3 decodes them
		p.fail()
		return nil
	}
	p.advance(len(raw))
	return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: v, Line: line, Column: col})
}

func (p *yamlParser) singleQuoted(line, col int) *yaml.Node {
	var buf []byte
	j := p.i + 1
	for ; j < len(p.data); j++ {
		b := p.data[j]
		if b == '\n' {
			p.fail()
			return nil
		}
		if b == '\'' {
			if j+1 < len(p.data) && p.data[j+1] == '\'' {
				buf = append(buf, '\'')
				j++
				continue
			}
			break
		}
		buf = append(buf, b)
	}
	if j >= len(p.data) {
		p.fail()
		return nil
	}
	p.advance(j + 1 - p.i)
	return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.SingleQuotedStyle, Value: string(buf), Line: line, Column: col})
}

// flow parses a flow mapping or sequence on the current line.
func (p *yamlParser) flow(depth int) *yaml.Node {
	if depth > yamlMaxDepth {
		p.fail()
		return nil
	}
	open := p.peek()
	n := p.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Line: p.line, Column: p.col + 1})
	closer := byte(']')
	if open == '{' {
		n.Kind, n.Tag, closer = yaml.MappingNode, "!!map", '}'
	}
	p.advance(1)
	p.skipSpaces()
	if p.peek() == closer {
		p.advance(1)
		return n
	}
	for p.err == nil {
		p.skipSpaces()
		var v *yaml.Node
		switch p.peek() {
		case '{', '[':
			if open == '{' {
				p.fail() // a collection as a key
				return nil
			}
			v = p.flow(depth + 1)
		default:
			v = p.scalar(true)
		}
		if p.err != nil {
			return nil
		}
		p.skipSpaces()
		if open == '{' {
			if p.peek() != ':' || p.i+1 >= len(p.data) || p.data[p.i+1] != ' ' {
				p.fail() // a key without a value, or "k:v"
				return nil
			}
			p.advance(1)
			p.skipSpaces()
			var val *yaml.Node
			switch p.peek() {
			case '{', '[':
				val = p.flow(depth + 1)
			default:
				val = p.scalar(true)
			}
			if p.err != nil {
				return nil
			}
			n.Content = append(n.Content, v, val)
			p.skipSpaces()
		} else {
			if p.peek() == ':' {
				p.fail() // a single-pair mapping inside a flow sequence
				return nil
			}
			n.Content = append(n.Content, v)
		}
		switch p.peek() {
		case ',':
			p.advance(1)
			p.skipSpaces()
			if p.peek() == closer {
				p.fail() // a trailing comma
				return nil
			}
		case closer:
			p.advance(1)
			return n
		default:
			p.fail()
		}
	}
	return nil
}
