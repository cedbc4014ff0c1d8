package tree

// PunctTag reports whether tag is one of the punctuation tags that
// disco-dop's proper.prm deletes before evaluation (DELETE_LABEL):
//
//	NEGRA/TIGER  $,  $(  $[  $.
//	Alpino       PUNCT punct LET LET() LET[] let let() let[]
//	Penn         ,  :  `  ``  ''  .
//
// The empty-element tag -NONE-, which proper.prm also deletes, is not
// punctuation.
func PunctTag(tag string) bool {
	switch tag {
	case "$,", "$(", "$[", "$.",
		"PUNCT", "punct", "LET", "LET()", "LET[]", "let", "let()", "let[]",
		",", ":", "`", "``", "''", ".":
		return true
	}
	return false
}

// PunctWord reports whether word is one of the words that disco-dop's
// proper.prm deletes whatever their tag (DELETE_WORD), or -LRB- / -RRB-,
// which proper.prm counts as "(" and ")" (EQ_WORD).
func PunctWord(word string) bool {
	switch word {
	case ".", ",", ":", ";", "'", "`", "\"", "``", "''", "-", "(", ")", "/", "&", "$",
		"!", "!!!", "?", "??", "???", "..", "...", "«", "»",
		"-LRB-", "-RRB-":
		return true
	}
	return false
}

// IsPunct reports whether tok is punctuation: its tag is a punctuation tag
// (PunctTag) or its word a punctuation word (PunctWord).
func IsPunct(tok Token) bool { return PunctTag(tok.Tag) || PunctWord(tok.Word) }

// ReattachPunct returns a copy of t in which punctuation hanging from the
// virtual root is attached inside the tree, the way the
// *.punctmoved.discbracket files of the Alpino data were made from the raw
// ones (it reproduces all 7136 trees of train, dev and test). The rule:
//
// Punctuation tokens (IsPunct) whose parent is Root are placed one at a time,
// from left to right. A token at position p goes to the smallest phrasal node
// X such that X surrounds p (X covers a word before p and a word after p) and
// X covers every neighbour of p, p-1 and p+1, that is not itself root
// punctuation still waiting to be placed (tokens placed earlier count, at
// their new place). Among equally small candidates the deepest wins, then
// the first in t.Nodes. Without a candidate the token stays at Root: so
// sentence-initial and sentence-final punctuation stay there.
//
// In effect a token between two words goes to the lowest node covering both;
// a token next to other root punctuation goes to the lowest node around it
// that covers its one word neighbour. Other tokens are not moved.
//
// t must be valid (see Validate). Cost O((P * len(t.Nodes) + len(t.Tokens)) *
// depth) for P punctuation tokens and trees of the given depth.
func ReattachPunct(t *Tree) *Tree {
	out := t.Clone()
	n, m := len(out.Tokens), len(out.Nodes)
	pending := make([]bool, n)
	found := false
	for i, tok := range out.Tokens {
		if tok.Parent == Root && IsPunct(tok) {
			pending[i] = true
			found = true
		}
	}
	if !found {
		return out
	}
	// Current extent (first and last word) and size of every node's yield.
	first, last, size := make([]int, m), make([]int, m), make([]int, m)
	for k := range first {
		first[k], last[k] = n, -1
	}
	addWord := func(p, i int) {
		for steps := 0; p != Root && steps <= m; p, steps = out.Nodes[p].Parent, steps+1 {
			first[p] = min(first[p], i)
			last[p] = max(last[p], i)
			size[p]++
		}
	}
	for i, tok := range out.Tokens {
		addWord(tok.Parent, i)
	}
	depth := make([]int, m)
	for k := range out.Nodes {
		for p, steps := out.Nodes[k].Parent, 0; p != Root && steps <= m; p, steps = out.Nodes[p].Parent, steps+1 {
			depth[k]++
		}
	}
	// covers reports whether node k dominates word i (at its current place).
	covers := func(k, i int) bool {
		for p, steps := out.Tokens[i].Parent, 0; p != Root && steps <= m; p, steps = out.Nodes[p].Parent, steps+1 {
			if p == k {
				return true
			}
		}
		return false
	}
	for p := range out.Tokens {
		if !pending[p] {
			continue
		}
		pending[p] = false
		best := Root
		for k := range out.Nodes {
			if size[k] == 0 || first[k] >= p || last[k] <= p {
				continue
			}
			if p > 0 && !pending[p-1] && !covers(k, p-1) {
				continue
			}
			if p+1 < n && !pending[p+1] && !covers(k, p+1) {
				continue
			}
			if best == Root || size[k] < size[best] || (size[k] == size[best] && depth[k] > depth[best]) {
				best = k
			}
		}
		if best != Root {
			out.Tokens[p].Parent = best
			addWord(best, p)
		}
	}
	return out
}
