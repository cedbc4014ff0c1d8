package treebank

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/discspan/discspan/chart/tree"
)

// child is a child of a node or of the virtual root: a token or a node.
type child struct {
	node  bool // a node (else a token)
	idx   int  // index into Tree.Nodes or Tree.Tokens
	first int  // leftmost word; noWord for a node that dominates no word
}

// layout is the shape of a checked tree: the children of every node and of
// the virtual root, each list sorted by leftmost word, and how deep it nests.
type layout struct {
	first []int     // leftmost word of every node; noWord when it has none
	kids  [][]child // kids[i] for node i; kids[len(Nodes)] for the virtual root
	level []int     // nodes on the path from every node up to the root, itself included
	depth int       // the deepest nodeDepth or tokenDepth; 1 for a tree of nothing
}

// nodeDepth returns how many brackets of the tree's discbracket line
// enclose node i, its own included: the ROOT bracket and one for each node
// on its path up. MaxDepth bounds it.
func (l *layout) nodeDepth(i int) int { return 1 + l.level[i] }

// tokenDepth returns nodeDepth for a token whose parent is p: the brackets
// around its word, its preterminal included.
func (l *layout) tokenDepth(p int) int {
	if p == tree.Root {
		return 2
	}
	return 2 + l.level[p]
}

// checkDepth refuses a tree nested deeper than the readers take (MaxDepth
// levels): what is written must read back.
func (l *layout) checkDepth() error {
	if l.depth > MaxDepth {
		return fmt.Errorf("nested %d levels deep: %s", l.depth, depthLimitText())
	}
	return nil
}

// noWord is the leftmost word of a node that dominates no word: it sorts after
// every real word.
const noWord = int(^uint(0) >> 1)

// makeLayout checks that the parent links of t are in range and form a forest
// (in time linear in the size of t, unlike tree.Validate, and without
// recursion) and returns its layout. It does not check the depth: see
// layout.checkDepth.
func makeLayout(t *tree.Tree) (*layout, error) {
	n := len(t.Nodes)
	inRange := func(p int) bool { return p == tree.Root || (p >= 0 && p < n) }
	for i, tok := range t.Tokens {
		if !inRange(tok.Parent) {
			return nil, fmt.Errorf("token %d (%q): parent index %d out of range (%d nodes)", i, tok.Word, tok.Parent, n)
		}
		for _, s := range tok.Sec {
			if !inRange(s.Parent) {
				return nil, fmt.Errorf("token %d (%q): secondary parent index %d out of range (%d nodes)", i, tok.Word, s.Parent, n)
			}
		}
	}
	for i, nd := range t.Nodes {
		if !inRange(nd.Parent) {
			return nil, fmt.Errorf("node %d (%s): parent index %d out of range (%d nodes)", i, nd.Label, nd.Parent, n)
		}
		for _, s := range nd.Sec {
			if !inRange(s.Parent) {
				return nil, fmt.Errorf("node %d (%s): secondary parent index %d out of range (%d nodes)", i, nd.Label, s.Parent, n)
			}
		}
	}
	// Cycle check and levels, without recursion (a chain can be as long as
	// the tree): every node is visited once; state 1 marks the path being
	// followed, 2 the nodes known to lead to the root, whose level is set.
	state := make([]uint8, n)
	level := make([]int, n)
	var path []int
	for i := range n {
		path = path[:0]
		p := i
		for p != tree.Root && state[p] == 0 {
			state[p] = 1
			path = append(path, p)
			p = t.Nodes[p].Parent
		}
		if p != tree.Root && state[p] == 1 {
			return nil, fmt.Errorf("node %d (%s): parent links form a cycle", p, t.Nodes[p].Label)
		}
		above := 0 // level of p
		if p != tree.Root {
			above = level[p]
		}
		for k, q := range path { // path[0] is i, the last one a child of p
			state[q], level[q] = 2, above+len(path)-k
		}
	}

	l := &layout{first: make([]int, n), kids: make([][]child, n+1), level: level, depth: 1}
	for i := range n {
		l.depth = max(l.depth, l.nodeDepth(i))
	}
	for _, tok := range t.Tokens {
		l.depth = max(l.depth, l.tokenDepth(tok.Parent))
	}
	for i := range l.first {
		l.first[i] = noWord
	}
	// Tokens in increasing order: the first token to reach a node is its
	// leftmost word, and so are all the ancestors already marked.
	for i, tok := range t.Tokens {
		for p := tok.Parent; p != tree.Root && l.first[p] == noWord; p = t.Nodes[p].Parent {
			l.first[p] = i
		}
	}
	slot := func(p int) int {
		if p == tree.Root {
			return n
		}
		return p
	}
	// All child lists share one array.
	count := make([]int, n+1)
	for _, tok := range t.Tokens {
		count[slot(tok.Parent)]++
	}
	for _, nd := range t.Nodes {
		count[slot(nd.Parent)]++
	}
	all := make([]child, len(t.Tokens)+n)
	for s, c := range count {
		l.kids[s], all = all[:0:c], all[c:]
	}
	for i, tok := range t.Tokens {
		s := slot(tok.Parent)
		l.kids[s] = append(l.kids[s], child{idx: i, first: i})
	}
	for i, nd := range t.Nodes {
		s := slot(nd.Parent)
		l.kids[s] = append(l.kids[s], child{node: true, idx: i, first: l.first[i]})
	}
	for _, ks := range l.kids {
		slices.SortStableFunc(ks, func(a, b child) int { return cmp.Compare(a.first, b.first) })
	}
	return l, nil
}

// postOrder returns the node indices in post-order, visiting children in the
// order of their leftmost word. This is the order in which disco-dop numbers
// the nodes of an export file (and in which the Alpino files here are
// numbered): parents after their children.
func (l *layout) postOrder() []int {
	n := len(l.first)
	order := make([]int, 0, n)
	type frame struct{ slot, next int }
	stack := []frame{{slot: n}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		ks := l.kids[f.slot]
		for f.next < len(ks) && !ks[f.next].node {
			f.next++
		}
		if f.next < len(ks) {
			c := ks[f.next].idx
			f.next++
			stack = append(stack, frame{slot: c})
			continue
		}
		if f.slot != n {
			order = append(order, f.slot)
		}
		stack = stack[:len(stack)-1]
	}
	return order
}
