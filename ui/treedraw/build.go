package treedraw

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/discspan/discspan/chart/tree"
)

// skeleton returns the nodes to draw for t, without positions: the words,
// the tags when opt.ShowTags, the phrases with merged unary chains split,
// and the virtual root when several nodes hang from it. Parent, Children
// (by leftmost word), Words, Blocks and Discontinuous are set. It also
// returns the phrase and root nodes in the order to place them: lower
// nodes first, then narrower ones, then by leftmost word.
func skeleton(t *tree.Tree, opt Options) (nodes []Node, order []int, err error) {
	if err := t.Validate(); err != nil {
		return nil, nil, fmt.Errorf("treedraw: %w", err)
	}
	n := len(t.Tokens)
	size := n + len(t.Nodes) + 1
	if opt.ShowTags {
		size += n
	}
	nodes = make([]Node, 0, size)
	for i, tok := range t.Tokens {
		nodes = append(nodes, Node{Kind: Word, Index: i, Label: tok.Word, Col: 2 * i, Parent: -1})
	}
	if opt.ShowTags {
		for i, tok := range t.Tokens {
			nodes = append(nodes, Node{Kind: Tag, Index: i, Label: tok.Tag, Row: 1, Col: 2 * i, Parent: -1})
			nodes[i].Parent = n + i
		}
	}
	// top[j] and bottom[j] are the drawn nodes of the ends of the chain of
	// tree node j.
	top := make([]int, len(t.Nodes))
	bottom := make([]int, len(t.Nodes))
	for j, tn := range t.Nodes {
		top[j] = len(nodes)
		for k, part := range splitChain(tn.Label) {
			parent := -1
			if k > 0 {
				parent = len(nodes) - 1
			}
			nodes = append(nodes, Node{Kind: Phrase, Index: j, Part: k, Label: part, Parent: parent})
		}
		bottom[j] = len(nodes) - 1
	}
	// Attach the tops of chains and the tokens (their tags when drawn).
	var rootKids []int
	attach := func(id, parent int) {
		if parent == tree.Root {
			rootKids = append(rootKids, id)
			return
		}
		nodes[id].Parent = bottom[parent]
	}
	for j, tn := range t.Nodes {
		attach(top[j], tn.Parent)
	}
	for i, tok := range t.Tokens {
		id := i
		if opt.ShowTags {
			id = n + i
		}
		attach(id, tok.Parent)
	}
	if len(rootKids) > 1 {
		r := len(nodes)
		nodes = append(nodes, Node{Kind: Root, Index: tree.Root, Label: opt.rootLabel(), Parent: -1})
		for _, k := range rootKids {
			nodes[k].Parent = r
		}
	}
	if err := fillYields(nodes, n); err != nil {
		return nil, nil, err
	}
	return nodes, placeOrder(nodes), nil
}

// splitChain splits a merged unary chain label "A/B" into its parts, top
// first; a label with an empty part is kept whole, as tree.SplitUnaries
// does.
func splitChain(label string) []string {
	if !strings.Contains(label, tree.ChainSep) {
		return []string{label}
	}
	parts := strings.Split(label, tree.ChainSep)
	if slices.Contains(parts, "") {
		return []string{label}
	}
	return parts
}

// fillYields sets Words, Blocks, Discontinuous and Children of every node.
// The first n nodes are the words. It fails for a phrase that covers no
// word, which has no place on the grid.
func fillYields(nodes []Node, n int) error {
	size := make([]int, len(nodes))
	for i := range n {
		for p := i; p >= 0; p = nodes[p].Parent {
			size[p]++
		}
	}
	for id := range nodes {
		nodes[id].Words = make([]int, 0, size[id])
	}
	for i := range n {
		for p := i; p >= 0; p = nodes[p].Parent {
			nodes[p].Words = append(nodes[p].Words, i)
		}
	}
	for id := range nodes {
		nd := &nodes[id]
		if len(nd.Words) == 0 {
			return fmt.Errorf("treedraw: node %d (%q) covers no word", nd.Index, nd.Label)
		}
		nd.Blocks = tree.Blocks(nd.Words)
		nd.Discontinuous = len(nd.Blocks) > 1
		if nd.Parent >= 0 {
			nodes[nd.Parent].Children = append(nodes[nd.Parent].Children, id)
		}
	}
	for id := range nodes {
		slices.SortFunc(nodes[id].Children, func(a, b int) int {
			return cmp.Compare(nodes[a].Words[0], nodes[b].Words[0])
		})
	}
	return nil
}

// placeOrder returns the phrase and root nodes sorted by height (the
// longest path down to a word), then by the distance between their first
// and last word, then by their first word.
func placeOrder(nodes []Node) []int {
	height := make([]int, len(nodes))
	var order []int
	for id := range nodes {
		if k := nodes[id].Kind; k == Phrase || k == Root {
			order = append(order, id)
		}
	}
	// Relax heights along the parent links from every word; a walk stops
	// where an earlier one already gave a greater height.
	for id := range nodes {
		if nodes[id].Kind != Word {
			continue
		}
		for c, p := id, nodes[id].Parent; p >= 0; c, p = p, nodes[p].Parent {
			h := height[c] + 1
			if height[p] >= h {
				break
			}
			height[p] = h
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		na, nb := &nodes[a], &nodes[b]
		if c := cmp.Compare(height[a], height[b]); c != 0 {
			return c
		}
		wa := na.Words[len(na.Words)-1] - na.Words[0]
		wb := nb.Words[len(nb.Words)-1] - nb.Words[0]
		if c := cmp.Compare(wa, wb); c != 0 {
			return c
		}
		return cmp.Compare(na.Words[0], nb.Words[0])
	})
	return order
}
