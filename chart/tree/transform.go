package tree

import "strings"

// ChainSep separates the labels of a merged unary chain: "S/VP" is an S node
// whose only child is a VP node over the same words.
const ChainSep = "/"

// MergeUnaries returns a copy of t in which every unary chain of phrasal
// nodes is merged into one node labelled "TOP/.../BOTTOM". A node is unary
// when its only child is one phrasal node (and no word); a node whose only
// child is a word is a preterminal-like phrase and is left alone. The merged
// node takes the place, Num, edge, parent and other fields of the top node
// of the chain and the children of the bottom node; secondary edges that
// pointed at any node of the chain point at the merged node, and secondary
// edges leaving the lower nodes are dropped. The order of the remaining nodes
// is kept. Labels that already contain ChainSep are not escaped.
//
// t must be valid (see Validate). Cost O(len(t.Nodes) + len(t.Tokens)).
func MergeUnaries(t *Tree) *Tree {
	tokKids, nodeKids := t.Children()
	m := len(t.Nodes)
	// down[i] is the only child node of a unary node i, or -1.
	down := make([]int, m)
	absorbed := make([]bool, m)
	for i := range t.Nodes {
		down[i] = -1
		if len(tokKids[i]) == 0 && len(nodeKids[i]) == 1 {
			down[i] = nodeKids[i][0]
			absorbed[down[i]] = true
		}
	}
	// rep[i] is the new index of the merged node that i belongs to.
	rep := make([]int, m)
	newIdx := make([]int, m)
	tops := make([]int, 0, m)
	for i := range t.Nodes {
		if !absorbed[i] {
			newIdx[i] = len(tops)
			tops = append(tops, i)
		}
	}
	out := &Tree{ID: t.ID, BOSExtra: t.BOSExtra, Nodes: make([]Node, len(tops))}
	for k, top := range tops {
		labels := []string{t.Nodes[top].Label}
		rep[top] = k
		for c, steps := down[top], 0; c >= 0 && steps < m; c, steps = down[c], steps+1 {
			labels = append(labels, t.Nodes[c].Label)
			rep[c] = k
		}
		n := t.Nodes[top]
		n.Label = strings.Join(labels, ChainSep)
		out.Nodes[k] = n
	}
	mapIdx := func(p int) int {
		if p == Root {
			return Root
		}
		return rep[p]
	}
	for k := range out.Nodes {
		n := &out.Nodes[k]
		n.Parent = mapIdx(n.Parent)
		n.Sec = remapSec(n.Sec, mapIdx)
	}
	out.Tokens = make([]Token, len(t.Tokens))
	for i, tok := range t.Tokens {
		tok.Parent = mapIdx(tok.Parent)
		tok.Sec = remapSec(tok.Sec, mapIdx)
		out.Tokens[i] = tok
	}
	return out
}

// SplitUnaries returns a copy of t in which every node whose label is a
// merged chain "A/B/C" (see MergeUnaries) becomes a chain of nodes A over B
// over C. The top node keeps the node's fields and position in Nodes; the
// lower nodes follow it directly, with only a label, a parent and Num 0
// (unknown). The children of the merged node hang from the bottom node;
// secondary edges that pointed at it point at the top node. A label with an
// empty part (such as "A//B" or "/") is left as it is.
//
// t must be valid (see Validate). Cost O(len(t.Nodes) + len(t.Tokens)).
func SplitUnaries(t *Tree) *Tree {
	m := len(t.Nodes)
	top := make([]int, m)
	bottom := make([]int, m)
	out := &Tree{ID: t.ID, BOSExtra: t.BOSExtra, Nodes: make([]Node, 0, m)}
	for i, n := range t.Nodes {
		parts := splitChain(n.Label)
		top[i] = len(out.Nodes)
		n.Label = parts[0]
		n.Sec = append([]SecEdge(nil), n.Sec...)
		out.Nodes = append(out.Nodes, n)
		for _, lab := range parts[1:] {
			out.Nodes = append(out.Nodes, Node{Label: lab, Parent: len(out.Nodes) - 1})
		}
		bottom[i] = len(out.Nodes) - 1
	}
	toTop := func(p int) int {
		if p == Root {
			return Root
		}
		return top[p]
	}
	for i := range t.Nodes {
		n := &out.Nodes[top[i]]
		if n.Parent != Root {
			n.Parent = bottom[n.Parent]
		}
		n.Sec = remapSec(n.Sec, toTop)
	}
	out.Tokens = make([]Token, len(t.Tokens))
	for i, tok := range t.Tokens {
		if tok.Parent != Root {
			tok.Parent = bottom[tok.Parent]
		}
		tok.Sec = remapSec(tok.Sec, toTop)
		out.Tokens[i] = tok
	}
	return out
}

// splitChain splits a merged unary label at ChainSep; a label with an empty
// part comes back whole.
func splitChain(label string) []string {
	parts := strings.Split(label, ChainSep)
	for _, p := range parts {
		if p == "" {
			return []string{label}
		}
	}
	return parts
}

// remapSec returns a copy of sec with every parent index mapped by f.
func remapSec(sec []SecEdge, f func(int) int) []SecEdge {
	if len(sec) == 0 {
		return nil
	}
	out := make([]SecEdge, len(sec))
	for i, s := range sec {
		s.Parent = f(s.Parent)
		out[i] = s
	}
	return out
}

// StripFunctionTags cuts a label at the first '-' or '=' that is not its
// first character, as the standard evaluator does: "NP-SBJ=2" becomes "NP",
// "-NONE-" becomes "-NONE".
func StripFunctionTags(label string) string {
	for i := 1; i < len(label); i++ {
		if label[i] == '-' || label[i] == '=' {
			return label[:i]
		}
	}
	return label
}
