package treedraw

import (
	"fmt"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

// synthetic returns a tree over groups·5 words: every group of five words
// has an NP over its first three words and a PP over the last two (with an
// NP over the last word); for every pair of groups a VP takes the NP of the
// first and the PP of the second and an XP the PP of the first and the NP
// of the second, so both are discontinuous and cross; an S covers them
// all, and the last word, a full stop, hangs from the root.
func synthetic(groups int) *tree.Tree {
	t := &tree.Tree{}
	node := func(label string, parent int) int {
		t.Nodes = append(t.Nodes, tree.Node{Label: label, Parent: parent})
		return len(t.Nodes) - 1
	}
	word := func(tag string, parent int) {
		t.Tokens = append(t.Tokens, tree.Token{Word: fmt.Sprintf("w%d", len(t.Tokens)), Tag: tag, Parent: parent})
	}
	s := node("S", tree.Root)
	var vp, xp int
	for k := range groups {
		if k%2 == 0 || k == groups-1 && groups%2 == 1 {
			vp, xp = node("VP", s), node("XP", s)
		}
		np, pp := vp, xp
		if k%2 == 1 {
			np, pp = xp, vp
		}
		n := node("NP", np)
		word("DT", n)
		word("JJ", n)
		word("NN", n)
		p := node("PP", pp)
		word("IN", p)
		word("NN", node("NP", p))
	}
	// The last word's NP is the last node: drop it.
	t.Nodes = t.Nodes[:len(t.Nodes)-1]
	t.Tokens[len(t.Tokens)-1].Parent = tree.Root
	t.Tokens[len(t.Tokens)-1].Word, t.Tokens[len(t.Tokens)-1].Tag = ".", "PUNCT"
	return t
}

func TestSynthetic(t *testing.T) {
	tr := synthetic(12)
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	g, err := Layout(tr, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range checkGrid(tr, g) {
		t.Error(msg)
	}
}

func BenchmarkLayout_60(b *testing.B) {
	tr := synthetic(12)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Layout(tr, DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLayoutSVG_60(b *testing.B) {
	tr := synthetic(12)
	b.ReportAllocs()
	for b.Loop() {
		g, err := Layout(tr, DefaultOptions())
		if err != nil {
			b.Fatal(err)
		}
		_ = SVG(g, SVGOptions{})
	}
}

func BenchmarkText_60(b *testing.B) {
	g, err := Layout(synthetic(12), DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = Text(g)
	}
}
