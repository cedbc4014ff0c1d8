package tree

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// FromConstituents builds the tree whose phrasal nodes are exactly cons, the
// inverse of Targets: words and tags give the tokens (tags may be nil), a
// label "A/B" becomes a unary chain with A on top, the parent of each
// constituent is the smallest constituent whose words strictly contain its
// words, and each word hangs from the smallest constituent that covers it,
// or from Root. Nodes are ordered bottom-up (every child before its parent;
// constituents by increasing size, then in SortLabelled order; chains bottom
// first) and numbered 500, 501, ... in that order. Edges are left empty.
//
// It returns an error when tags and words differ in length, a label or a
// chain part is empty, a constituent has no blocks or blocks that are empty,
// out of range, unsorted or overlapping, or when two constituents cover the
// same words or partly overlap (neither contains the other). Blocks that
// touch are accepted.
//
// Cost O(n + sum of constituent sizes + m log m) for n words and m
// constituents.
func FromConstituents(words, tags []string, cons []Labelled) (*Tree, error) {
	n := len(words)
	if tags != nil && len(tags) != n {
		return nil, fmt.Errorf("tree: %d tags for %d words", len(tags), n)
	}
	for k, c := range cons {
		if err := checkLabelled(c, n); err != nil {
			return nil, fmt.Errorf("tree: constituent %d (%s): %v", k, c, err)
		}
	}
	// Constituents by increasing size: every strict superset comes later.
	order := make([]int, len(cons))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmp.Compare(cons[a].Size(), cons[b].Size()); c != 0 {
			return c
		}
		return compareLabelled(cons[a], cons[b])
	})
	parent := make([]int, len(cons)) // index into cons, or Root
	for k := range parent {
		parent[k] = Root
	}
	tokOwner := make([]int, n) // smallest constituent covering each word
	top := make([]int, n)      // largest constituent processed so far covering each word
	for i := range top {
		tokOwner[i], top[i] = Root, Root
	}
	mark := make([]int, n) // mark[i] == k+1 when word i is in cons[k]
	for _, k := range order {
		c := cons[k]
		for _, b := range c.Blocks {
			for i := b.Start; i < b.End; i++ {
				mark[i] = k + 1
			}
		}
		for _, b := range c.Blocks {
			for i := b.Start; i < b.End; i++ {
				o := top[i]
				switch {
				case o == Root:
					tokOwner[i] = k
				case parent[o] == Root:
					// o is a maximal constituent so far; it must lie inside c.
					for _, ob := range cons[o].Blocks {
						for j := ob.Start; j < ob.End; j++ {
							if mark[j] != k+1 {
								return nil, fmt.Errorf("tree: constituents %s and %s overlap partly", cons[o], c)
							}
						}
					}
					if cons[o].Size() == c.Size() {
						return nil, fmt.Errorf("tree: constituents %s and %s cover the same words", cons[o], c)
					}
					parent[o] = k
				}
				top[i] = k
			}
		}
	}
	// Emit nodes bottom-up; chains bottom first.
	t := &Tree{Tokens: make([]Token, n)}
	bottom := make([]int, len(cons)) // node index of each constituent's bottom node
	topNode := make([]int, len(cons))
	for _, k := range order {
		parts := splitChain(cons[k].Label)
		for p := len(parts) - 1; p >= 0; p-- {
			idx := len(t.Nodes)
			if p == len(parts)-1 {
				bottom[k] = idx
			} else {
				t.Nodes[idx-1].Parent = idx
			}
			t.Nodes = append(t.Nodes, Node{Num: 500 + idx, Label: parts[p], Parent: Root})
		}
		topNode[k] = len(t.Nodes) - 1
	}
	for k, p := range parent {
		if p != Root {
			t.Nodes[topNode[k]].Parent = bottom[p]
		}
	}
	for i, w := range words {
		tok := Token{Word: w, Parent: Root}
		if tags != nil {
			tok.Tag = tags[i]
		}
		if o := tokOwner[i]; o != Root {
			tok.Parent = bottom[o]
		}
		t.Tokens[i] = tok
	}
	return t, nil
}

// checkLabelled reports what is wrong with a constituent of an n-word
// sentence, or nil.
func checkLabelled(c Labelled, n int) error {
	if c.Label == "" {
		return fmt.Errorf("empty label")
	}
	for _, part := range strings.Split(c.Label, ChainSep) {
		if part == "" {
			return fmt.Errorf("empty part in unary chain label")
		}
	}
	if len(c.Blocks) == 0 {
		return fmt.Errorf("no blocks")
	}
	for i, b := range c.Blocks {
		switch {
		case b.Start >= b.End:
			return fmt.Errorf("empty block [%d,%d)", b.Start, b.End)
		case b.Start < 0 || b.End > n:
			return fmt.Errorf("block [%d,%d) out of range for %d words", b.Start, b.End, n)
		case i > 0 && b.Start < c.Blocks[i-1].End:
			return fmt.Errorf("blocks unsorted or overlapping")
		}
	}
	return nil
}

// NoParseTag is the tag of every word of NoParse's tree (disco-dop's).
const NoParseTag = "NOPARSE"

// NoParse returns the tree written for a sentence a parser could not or
// would not parse: its words, each tagged NoParseTag, under the root
// alone, as disco-dop writes one. A parser's output then still has a tree
// for every sentence of its input, so that an evaluation pairs them and
// counts that sentence's constituents as missed.
func NoParse(words []string) *Tree {
	t := &Tree{Tokens: make([]Token, len(words))}
	for i, w := range words {
		t.Tokens[i] = Token{Word: w, Tag: NoParseTag, Parent: Root}
	}
	return t
}
