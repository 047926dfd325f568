package manifest

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// limitError is a document rejected before decoding.
type limitError struct {
	node      *yaml.Node
	msg, hint string
}

// checkDocument bounds what decoding a document can cost. The parser keeps
// aliases as pointers, so a few lines can stand for billions of nodes
// ("billion laughs"); the decoder would expand them. Here the expanded size
// and depth are computed with memoisation, in time linear in the document,
// and the document is rejected when it expands beyond
// aliasBudgetFactor × its own node count + aliasBudgetBase nodes, nests
// deeper than MaxDepth, or contains an alias to its own ancestor.
func (d *decoder) checkDocument(doc *yaml.Node) *limitError {
	raw, aliases, deep := scanTree(doc, d.opts.maxDepth())
	if deep != nil {
		return &limitError{node: deep, msg: fmt.Sprintf("document nests deeper than %d levels", d.opts.maxDepth()), hint: "Kubernetes objects are far shallower; is this a real manifest?"}
	}
	if !aliases {
		return nil // the common case: the tree is all there is
	}
	c := &expansion{
		budget:  int64(aliasBudgetFactor)*raw + aliasBudgetBase,
		maxDept: d.opts.maxDepth(),
		size:    map[*yaml.Node]int64{},
		height:  map[*yaml.Node]int{},
		active:  map[*yaml.Node]bool{},
	}
	_, _, err := c.visit(doc, 0)
	return err
}

// scanTree counts the nodes of the tree without following aliases,
// reports whether it has any, and returns the first node nested deeper
// than maxDepth. It is iterative: the parser accepts nesting far deeper
// than a recursive walk should go.
func scanTree(n *yaml.Node, maxDepth int) (count int64, aliases bool, deep *yaml.Node) {
	type item struct {
		n     *yaml.Node
		depth int
	}
	stack := []item{{n, 0}}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		count++
		if top.depth > maxDepth {
			return count, aliases, top.n
		}
		if top.n.Kind == yaml.AliasNode {
			aliases = true
		}
		for _, ch := range top.n.Content {
			stack = append(stack, item{ch, top.depth + 1})
		}
	}
	return count, aliases, nil
}

type expansion struct {
	budget  int64
	maxDept int
	size    map[*yaml.Node]int64
	height  map[*yaml.Node]int
	active  map[*yaml.Node]bool
}

// visit returns the expanded size and height of n reached at depth.
func (c *expansion) visit(n *yaml.Node, depth int) (int64, int, *limitError) {
	if s, ok := c.size[n]; ok {
		if depth+c.height[n] > c.maxDept {
			return 0, 0, &limitError{node: n, msg: fmt.Sprintf("document nests deeper than %d levels", c.maxDept), hint: "Kubernetes objects are far shallower; is this a real manifest?"}
		}
		return s, c.height[n], nil
	}
	if depth > c.maxDept {
		return 0, 0, &limitError{node: n, msg: fmt.Sprintf("document nests deeper than %d levels", c.maxDept), hint: "Kubernetes objects are far shallower; is this a real manifest?"}
	}
	if c.active[n] {
		return 0, 0, &limitError{node: n, msg: "alias refers to a node that contains it", hint: "an anchor cannot be used inside itself"}
	}
	c.active[n] = true
	defer delete(c.active, n)
	var size int64 = 1
	height := 0
	children := n.Content
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		children = []*yaml.Node{n.Alias}
	}
	for _, ch := range children {
		s, h, err := c.visit(ch, depth+1)
		if err != nil {
			return 0, 0, err
		}
		size += s
		if size > c.budget {
			return 0, 0, &limitError{node: n, msg: fmt.Sprintf("document expands to more than %d nodes through aliases", c.budget), hint: "aliases (*name) may not multiply a document; write the objects out"}
		}
		height = max(height, h+1)
	}
	c.size[n], c.height[n] = size, height
	return size, height, nil
}
