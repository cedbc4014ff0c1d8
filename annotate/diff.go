package annotate

import (
	"fmt"

	"github.com/discspan/discspan/chart/tree"
)

// Constituent is a labelled constituent of a tree: a node's label and
// yield.
type Constituent struct {
	Label string
	Yield Yield
	Node  int // index into the tree's Nodes
}

// Pair is a constituent of the reference tree matched by one of the other
// tree: node A of the first tree and node B of the second.
type Pair struct{ A, B int }

// DiffResult compares two analyses of a sentence: a, the reference (gold),
// and b.
type DiffResult struct {
	Matched []Pair        // constituents in both, in the node order of b
	OnlyA   []Constituent // constituents of a that b lacks, in node order
	OnlyB   []Constituent // constituents of b that a lacks, in node order
	// Precision, Recall and F1 of b against a, in percent; 0 when
	// undefined (no constituents), as chart/eval reports them.
	Precision, Recall, F1 float64
}

// Diff compares two trees of the same sentence by labelled constituents
// with the bracket semantics of evalb and chart/eval: every node that
// covers a word is a (label, yield) bracket, nodes of unary chains
// included and the virtual root excluded, and the brackets of the two
// trees are matched as multisets (among identical brackets the first nodes
// are paired). Labels are compared as they are and no word is deleted, so
// the scores are those of chart/eval with Params{Labeled: true,
// KeepFunctionTags: true}; evaluate with chart/eval for proper.prm scores.
// The trees must have the same number of words and valid parent links.
func Diff(a, b *tree.Tree) (*DiffResult, error) {
	if len(a.Tokens) != len(b.Tokens) {
		return nil, fmt.Errorf("annotate: diff: %d words against %d", len(a.Tokens), len(b.Tokens))
	}
	if err := a.Validate(); err != nil {
		return nil, fmt.Errorf("annotate: diff: first tree: %w", err)
	}
	if err := b.Validate(); err != nil {
		return nil, fmt.Errorf("annotate: diff: second tree: %w", err)
	}
	ca, cb := constituents(a), constituents(b)
	byKey := make(map[string][]int, len(ca))
	for k, c := range ca {
		key := Fixed{c.Label, c.Yield}.String()
		byKey[key] = append(byKey[key], k)
	}
	matchedA := make([]bool, len(ca))
	r := &DiffResult{}
	for _, c := range cb {
		key := Fixed{c.Label, c.Yield}.String()
		if list := byKey[key]; len(list) > 0 {
			byKey[key] = list[1:]
			matchedA[list[0]] = true
			r.Matched = append(r.Matched, Pair{ca[list[0]].Node, c.Node})
			continue
		}
		r.OnlyB = append(r.OnlyB, c)
	}
	for k, c := range ca {
		if !matchedA[k] {
			r.OnlyA = append(r.OnlyA, c)
		}
	}
	m, g, p := len(r.Matched), len(ca), len(cb)
	r.Precision, r.Recall = percent(m, p), percent(m, g)
	if m > 0 {
		r.F1 = 100 * 2 * float64(m) / float64(g+p)
	}
	return r, nil
}

// constituents returns the nodes of t that cover a word, in node order.
func constituents(t *tree.Tree) []Constituent {
	var out []Constituent
	for i, y := range t.Yields() {
		if len(y) > 0 {
			out = append(out, Constituent{Label: t.Nodes[i].Label, Yield: YieldOf(y), Node: i})
		}
	}
	return out
}

func percent(num, den int) float64 {
	if den == 0 {
		return 0
	}
	return 100 * float64(num) / float64(den)
}
