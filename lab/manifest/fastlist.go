package manifest

import (
	"bytes"
	"runtime"
	"strconv"
	"sync"

	"go.yaml.in/yaml/v3"
)

// fastListMin is the input size from which a `kubectl get -o yaml` List
// is decoded item by item (smaller files take the general path).
const fastListMin = 4 << 20

// fastListBatch is how many items are parsed (in parallel) before they
// are decoded (in order) and dropped: it bounds the parse trees alive.
const fastListBatch = 512

// listChunk is one item of a List: its bytes (managedFields blanked) and
// the line it starts on.
type listChunk struct {
	line    int
	node    *yaml.Node
	managed int // managedFields entries blanked
	err     error
}

// fastList decodes the shape `kubectl get … -o yaml` prints — one List
// document, keys in order apiVersion: v1, items:, kind: List, metadata:,
// every item a "- " entry at the first column — or `-o json` prints (the
// same List as one JSON object, split by a byte scanner), item by item:
// each item is parsed on its own (in parallel, in bounded batches, one
// batch ahead of the decoding) and decoded in file order, so the parse
// trees of a 150 MB cluster dump never exist all at once. Items are built
// straight into yaml.Node trees by parsers for the YAML and JSON kubectl
// prints (yamlnode.go, jsonnode.go); an item they do not take is parsed
// by yaml.v3. managedFields (often half the bytes) are blanked or skipped
// before parsing, keeping every line where it was so positions stay
// file:line:col (line:col in JSON). It reports false, having done
// nothing, when the input does not have that shape; the general path then
// decodes it.
func (d *decoder) fastList(data []byte, objs *Objects, threshold int) bool {
	if len(data) < threshold {
		return false
	}
	var starts []itemStart
	var cols []int // JSON items start mid-line
	switch {
	case bytes.HasPrefix(data, []byte("apiVersion: v1\nitems:\n")):
		s, tailKind, ok := listItemStarts(data)
		if !ok || tailKind != "List" {
			return false
		}
		starts = s
	case bytes.HasPrefix(data, jsonListPrefix):
		s, c, ok := jsonItemStarts(data)
		if !ok {
			return false
		}
		starts, cols = s, c
	default:
		return false
	}
	// The items are parsed in batches on every core, one batch ahead of
	// the decoding (in file order, on this goroutine): parsing and
	// decoding overlap, and at most two batches of parse trees exist.
	ahead := make(chan []listChunk, 1)
	parse := func(b int) {
		e := min(b+fastListBatch, len(starts))
		var c []int
		if cols != nil {
			c = cols[b:e]
		}
		ahead <- parseChunks(data, starts[b:e], c)
	}
	go parse(0)
	for b := 0; b < len(starts) && !d.full; b += fastListBatch {
		batch := <-ahead
		if next := b + fastListBatch; next < len(starts) {
			// on an early return this batch is parsed and dropped: the
			// channel's buffer takes it
			go parse(next)
		}
		for j := range batch {
			c := &batch[j]
			if c.err != nil {
				d.syntaxError(offsetYAMLError(c.err, c.line-1))
				return true
			}
			if err := d.checkDocument(c.node); err != nil {
				d.diag(d.at(err.node), SeverityError, err.msg, err.hint)
				continue
			}
			item := resolve(c.node)
			if cols == nil {
				// a YAML chunk is a one-element sequence: "- apiVersion: …"
				if item == nil || item.Kind != yaml.SequenceNode || len(item.Content) != 1 {
					d.diag(d.at(item), SeverityError, "expected one list item", "")
					continue
				}
				item = item.Content[0]
			}
			// as the general path, count managedFields of objects whose
			// metadata is decoded (modelled kinds)
			if h := readHeader(item); item.Kind == yaml.MappingNode {
				if k, ok := kinds[h.kind]; ok && h.apiVersion == k.apiVersion && len(objs.Order) < d.opts.maxObjects() {
					d.managedFields += c.managed
				}
			}
			d.object(item, objs, 1)
			if d.full {
				break
			}
			batch[j] = listChunk{} // the tree can go
		}
		if d.opts.Progress != nil {
			d.opts.Progress(min(b+fastListBatch, len(starts)), len(starts))
		}
	}
	return true
}

// parseChunks parses a batch of List items on every core: YAML items with
// yaml.v3 (managedFields blanked first), JSON items with jsonNode.
func parseChunks(data []byte, starts []itemStart, cols []int) []listChunk {
	batch := make([]listChunk, len(starts))
	for i := range starts {
		batch[i].line = starts[i].line
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				c, st := &batch[i], starts[i]
				var text []byte
				if cols == nil {
					text, c.managed = blankManagedFields(data[st.off:st.end])
					// built straight into nodes where it has the shape
					// kubectl prints (yamlnode.go); yaml.v3 otherwise
					if n, err := yamlNode(text, c.line); err == nil {
						// wrapped as yaml.v3 returns it, so depth limits
						// count the same
						seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: c.line, Column: 1, Content: []*yaml.Node{n}}
						c.node = &yaml.Node{Kind: yaml.DocumentNode, Line: c.line, Column: 1, Content: []*yaml.Node{seq}}
						continue
					}
				} else {
					// JSON: built straight into nodes (jsonnode.go)
					if n, m, err := jsonNode(data[st.off:st.end], c.line, cols[i]); err == nil {
						c.node, c.managed = n, m
						continue
					}
					// malformed: yaml.v3 on the item, padded to its
					// column so positions stay the file's
					item, n := blankJSONManagedFields(data[st.off:st.end])
					text = append(bytes.Repeat([]byte(" "), cols[i]-1), item...)
					c.managed = n
				}
				var doc yaml.Node
				if err := yaml.Unmarshal(text, &doc); err != nil {
					c.err = err
					continue
				}
				shiftLines(&doc, c.line-1)
				c.node = &doc
			}
		}()
	}
	for i := range batch {
		next <- i
	}
	close(next)
	wg.Wait()
	return batch
}

// itemStart is where one List item's text lies.
type itemStart struct {
	off, end, line int
}

// listItemStarts finds the items of a kubectl List: after the "items:"
// line, every line starting "- " opens an item; the items end at the
// first line at the first column that is neither an item, a continuation
// (indented), blank nor a comment; the keys after them must be kind and
// metadata. It returns the items and the kind's value.
func listItemStarts(data []byte) (starts []itemStart, kind string, ok bool) {
	off, line := 0, 1
	nextLine := func() (l []byte, at int) {
		at = off
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			l, off = data[off:], len(data)
		} else {
			l, off = data[off:off+i], off+i+1
		}
		line++
		return l, at
	}
	nextLine() // apiVersion: v1
	nextLine() // items:
	inItems := true
	for off < len(data) {
		lineNo := line
		l, at := nextLine()
		if inItems {
			switch {
			case bytes.HasPrefix(l, []byte("- ")):
				if n := len(starts); n > 0 {
					starts[n-1].end = at
				}
				starts = append(starts, itemStart{off: at, line: lineNo})
				continue
			case len(l) == 0 || l[0] == ' ' || l[0] == '#':
				if len(starts) == 0 && len(bytes.TrimSpace(l)) > 0 && l[0] != '#' {
					return nil, "", false
				}
				continue
			}
			if n := len(starts); n > 0 {
				starts[n-1].end = at
			}
			inItems = false
		}
		// the tail: kind: X and metadata (indented lines below it)
		switch {
		case bytes.HasPrefix(l, []byte("kind: ")):
			kind = string(bytes.TrimSpace(l[len("kind: "):]))
		case bytes.HasPrefix(l, []byte("metadata:")), len(l) == 0, l[0] == ' ', l[0] == '#':
		default:
			return nil, "", false
		}
	}
	if inItems {
		if n := len(starts); n > 0 {
			starts[n-1].end = len(data)
		}
	}
	return starts, kind, len(starts) > 0
}

// blankManagedFields returns an item's text with its metadata.managedFields
// entries replaced by empty lines (line numbers kept), and how many
// entries there were. The key stays, with a null value.
func blankManagedFields(item []byte) ([]byte, int) {
	// kubectl's layout: "    managedFields:" under "  metadata:"
	const key = "\n    managedFields:\n"
	k := bytes.Index(item, []byte(key))
	if k < 0 || !underMetadata(item[:k+1]) {
		return item, 0
	}
	i := k + len("\n    ")
	indent := 4
	out := make([]byte, 0, len(item))
	out = append(out, item[:i+len("managedFields:\n")]...)
	rest := item[i+len("managedFields:\n"):]
	entries, entryIndent := 0, -1
	for len(rest) > 0 {
		j := bytes.IndexByte(rest, '\n')
		var l []byte
		if j < 0 {
			l, j = rest, len(rest)-1
		} else {
			l = rest[:j]
		}
		ind := len(l) - len(bytes.TrimLeft(l, " "))
		body := l[ind:]
		inBlock := len(body) == 0 || ind > indent || (ind == indent && bytes.HasPrefix(body, []byte("- ")))
		if !inBlock {
			break
		}
		if bytes.HasPrefix(body, []byte("- ")) {
			if entryIndent < 0 {
				entryIndent = ind
			}
			if ind == entryIndent {
				entries++
			}
		}
		out = append(out, '\n')
		rest = rest[j+1:]
	}
	out = append(out, rest...)
	return out, entries
}

// underMetadata reports whether the last line of head indented less than
// four spaces is "  metadata:" (so a line after head at four spaces is a
// metadata field).
func underMetadata(head []byte) bool {
	for len(head) > 0 {
		head = head[:len(head)-1] // the newline ending the previous line
		j := bytes.LastIndexByte(head, '\n') + 1
		l := head[j:]
		head = head[:j]
		ind := len(l) - len(bytes.TrimLeft(l, " "))
		if len(l) == ind || ind >= 4 {
			continue
		}
		return string(l) == "  metadata:"
	}
	return false
}

// shiftLines moves every node of a chunk's parse tree down by off lines,
// to the chunk's place in the file.
func shiftLines(n *yaml.Node, off int) {
	if off == 0 {
		return
	}
	// Content forms a tree (an alias is a node of its own pointing at its
	// anchor through Alias, not Content), so every node is visited once.
	stack := []*yaml.Node{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x.Line += off
		stack = append(stack, x.Content...)
	}
}

// offsetYAMLError moves a parser error's "line N" by off.
func offsetYAMLError(err error, off int) error {
	m := yamlLine.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	n, _ := strconv.Atoi(m[1])
	return &yamlError{"yaml: line " + strconv.Itoa(n+off) + ": " + m[2]}
}

type yamlError struct{ msg string }

func (e *yamlError) Error() string { return e.msg }
