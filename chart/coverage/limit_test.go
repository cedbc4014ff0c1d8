package coverage

import (
	"testing"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

// flatTree returns a tree of n words under one S node.
func flatTree(n int) *tree.Tree {
	t := &tree.Tree{ID: "huge", Nodes: []tree.Node{{Label: "S", Parent: tree.Root}}}
	t.Tokens = make([]tree.Token, n)
	for i := range t.Tokens {
		t.Tokens[i] = tree.Token{Word: "w", Tag: "N", Parent: 0}
	}
	return t
}

// TestMaxWords: sentences over the word limit (here one of 274,000 words,
// whose gold scores alone would take hundreds of GB) are left out of the
// counts and counted in TooLong; the others are measured as without them.
func TestMaxWords(t *testing.T) {
	trees, err := treebank.ReadFile(dataFile(t, "dev.punctmoved.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	trees = trees[:20]
	base, err := Compute(trees, decode.N3, nil)
	if err != nil {
		t.Fatal(err)
	}
	short := 0
	for _, tr := range trees {
		if tr.Len() <= 10 {
			short++
		}
	}
	tests := []struct {
		name     string
		trees    []*tree.Tree
		maxWords int
		tooLong  int
	}{
		{"274k-word sentence, default limit", append([]*tree.Tree{flatTree(274000)}, trees...), 0, 1},
		{"own limit", append([]*tree.Tree{flatTree(11)}, trees...), 10, len(trees) + 1 - short},
		{"no limit", append([]*tree.Tree{flatTree(30)}, trees...), -1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Compute(tc.trees, decode.N3, &Options{MaxWords: tc.maxWords})
			if err != nil {
				t.Fatal(err)
			}
			if r.TooLong != tc.tooLong || r.Sentences != len(tc.trees) {
				t.Fatalf("%d sentences, %d too long; want %d, %d", r.Sentences, r.TooLong, len(tc.trees), tc.tooLong)
			}
			if tc.maxWords == 0 && (r.All != base.All || r.BDEq2 != base.BDEq2) {
				t.Errorf("counts %+v %+v, without the long sentence %+v %+v", r.All, r.BDEq2, base.All, base.BDEq2)
			}
			if tc.maxWords < 0 && r.All.Total != base.All.Total+1 {
				t.Errorf("total %d, want %d (the flat tree's S counted)", r.All.Total, base.All.Total+1)
			}
		})
	}
}
