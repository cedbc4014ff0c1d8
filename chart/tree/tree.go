// Package tree holds discontinuous constituency trees: the words of a
// sentence with their annotation (lemma, part-of-speech tag, morphology,
// function tag, secondary edges) and the phrasal nodes above them.
//
// A tree is stored the way the NEGRA export format stores it: every terminal
// and every phrasal node names its parent, so a constituent may cover any set
// of words and discontinuity needs no special structure. The virtual root
// (export parent 0, the ROOT bracket of discbracket files) is not a node: a
// parent index of Root means "attached to the virtual root".
//
// Spans use interstice indices: the span [i,j) covers words i..j-1.
package tree

import (
	"fmt"
	"sort"
)

// Root is the parent index of terminals and nodes attached to the virtual root.
const Root = -1

// SecEdge is a secondary edge: an extra labelled parent of a token or node.
type SecEdge struct {
	Label  string // edge label, e.g. "obj1"
	Parent int    // index into Tree.Nodes, or Root
}

// Token is one word of a sentence with its annotation. Empty strings stand for
// absent fields; formats write them as "--".
type Token struct {
	Word   string
	Lemma  string
	Tag    string // part-of-speech tag
	Morph  string
	Edge   string // function (edge) label towards the parent
	Parent int    // index into Tree.Nodes, or Root
	Sec    []SecEdge
	// Comment is a trailing comment kept for round trips (export "%" comments).
	Comment string
}

// Node is a phrasal node.
type Node struct {
	Num     int    // export node number (500..999); 0 when not known
	Label   string // phrase label, e.g. "NP"; may carry a merged unary chain "A/B"
	Lemma   string // export v4 lemma column of phrase lines (normally empty)
	Morph   string
	Edge    string // function label towards the parent
	Parent  int    // index into Tree.Nodes, or Root
	Sec     []SecEdge
	Comment string
}

// Tree is one sentence: tokens in sentence order and phrasal nodes.
type Tree struct {
	ID string // sentence id (the #BOS id of export files); may be empty
	// BOSExtra keeps what followed the id on the #BOS line, for round trips.
	BOSExtra string
	Tokens   []Token
	Nodes    []Node
}

// Len returns the number of words.
func (t *Tree) Len() int { return len(t.Tokens) }

// Words returns the words of the sentence.
func (t *Tree) Words() []string {
	w := make([]string, len(t.Tokens))
	for i, tok := range t.Tokens {
		w[i] = tok.Word
	}
	return w
}

// Tags returns the part-of-speech tags of the sentence.
func (t *Tree) Tags() []string {
	w := make([]string, len(t.Tokens))
	for i, tok := range t.Tokens {
		w[i] = tok.Tag
	}
	return w
}

// Clone returns a deep copy of t.
func (t *Tree) Clone() *Tree {
	c := &Tree{ID: t.ID, BOSExtra: t.BOSExtra}
	c.Tokens = make([]Token, len(t.Tokens))
	for i, tok := range t.Tokens {
		tok.Sec = append([]SecEdge(nil), tok.Sec...)
		c.Tokens[i] = tok
	}
	c.Nodes = make([]Node, len(t.Nodes))
	for i, n := range t.Nodes {
		n.Sec = append([]SecEdge(nil), n.Sec...)
		c.Nodes[i] = n
	}
	return c
}

// Validate checks that parent indices are in range and that the parent links
// form a forest (no cycles). It returns a descriptive error otherwise. Cost
// O(tokens + nodes + secondary edges), however deep the tree.
func (t *Tree) Validate() error {
	check := func(what string, idx, parent int) error {
		if parent != Root && (parent < 0 || parent >= len(t.Nodes)) {
			return fmt.Errorf("%s %d: parent index %d out of range (%d nodes)", what, idx, parent, len(t.Nodes))
		}
		return nil
	}
	for i, tok := range t.Tokens {
		if err := check("token", i, tok.Parent); err != nil {
			return err
		}
		for _, s := range tok.Sec {
			if err := check("token secondary edge of", i, s.Parent); err != nil {
				return err
			}
		}
	}
	for i, n := range t.Nodes {
		if err := check("node", i, n.Parent); err != nil {
			return err
		}
		for _, s := range n.Sec {
			if err := check("node secondary edge of", i, s.Parent); err != nil {
				return err
			}
		}
	}
	if i := cycleNode(len(t.Nodes), func(i int) int { return t.Nodes[i].Parent }); i >= 0 {
		return fmt.Errorf("node %d (%s): parent links form a cycle", i, t.Nodes[i].Label)
	}
	return nil
}

// cycleNode returns the first node (by index) of n whose parent links
// (parent(i), a node index or Root) lead into a cycle, or -1 when they all
// lead to Root. Each node's link is followed at most twice, so the cost is
// O(n) however deep the tree (following every node's links to the root
// would be O(n * depth): quadratic on a deep unary chain).
func cycleNode(n int, parent func(int) int) int {
	const (
		unseen = iota
		onPath // on the path being followed from the current start
		done   // leads to Root
	)
	state := make([]uint8, n)
	for i := range n {
		p := i
		for p != Root && state[p] == unseen {
			state[p] = onPath
			p = parent(p)
		}
		if p != Root && state[p] == onPath {
			return i
		}
		for p = i; p != Root && state[p] == onPath; p = parent(p) {
			state[p] = done
		}
	}
	return -1
}

// Children returns, for every node, the indices of its child tokens and child
// nodes, each in increasing order.
func (t *Tree) Children() (tokens [][]int, nodes [][]int) {
	tokens = make([][]int, len(t.Nodes))
	nodes = make([][]int, len(t.Nodes))
	for i, tok := range t.Tokens {
		if tok.Parent != Root {
			tokens[tok.Parent] = append(tokens[tok.Parent], i)
		}
	}
	for i, n := range t.Nodes {
		if n.Parent != Root {
			nodes[n.Parent] = append(nodes[n.Parent], i)
		}
	}
	return tokens, nodes
}

// Yields returns, for every node, the sorted word positions it dominates.
// Nodes that dominate no word get an empty yield.
func (t *Tree) Yields() [][]int {
	y := make([][]int, len(t.Nodes))
	for i, tok := range t.Tokens {
		for p, steps := tok.Parent, 0; p != Root && steps <= len(t.Nodes); p, steps = t.Nodes[p].Parent, steps+1 {
			y[p] = append(y[p], i)
		}
	}
	for i := range y {
		sort.Ints(y[i])
	}
	return y
}

// Span is a half-open interval [Start,End) of word positions.
type Span struct{ Start, End int }

// Blocks splits a sorted list of word positions into maximal runs of adjacent
// positions.
func Blocks(positions []int) []Span {
	var b []Span
	for idx, p := range positions {
		if idx > 0 && positions[idx-1] == p-1 {
			b[len(b)-1].End = p + 1
			continue
		}
		b = append(b, Span{p, p + 1})
	}
	return b
}

// BlockDegree returns the number of blocks of a sorted list of positions.
func BlockDegree(positions []int) int { return len(Blocks(positions)) }
