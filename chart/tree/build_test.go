package tree_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

func TestFromConstituents(t *testing.T) {
	tests := []struct {
		name  string
		words []string
		tags  []string
		cons  []tree.Labelled
		want  string
	}{
		{
			name:  "continuous",
			words: []string{"the", "dog", "barks", "."},
			tags:  []string{"DT", "NN", "VB", "."},
			cons:  []tree.Labelled{lab("S", 0, 3), lab("NP", 0, 2)},
			want:  "(ROOT (S (NP (DT 0=the) (NN 1=dog)) (VB 2=barks)) (. 3=.))",
		},
		{
			name:  "discontinuous",
			words: []string{"is", "John", "rich", "?"},
			tags:  []string{"VB", "NP", "JJ", "?"},
			cons:  []tree.Labelled{lab("VP", 0, 1, 2, 3), lab("S", 0, 3)},
			want:  "(ROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John)) (? 3=?))",
		},
		{
			name:  "unary chain label",
			words: []string{"is", "it", "?"},
			tags:  []string{"VB", "NN", "."},
			cons:  []tree.Labelled{lab("SBARQ/SQ/VP", 0, 2)},
			want:  "(ROOT (SBARQ (SQ (VP (VB 0=is) (NN 1=it)))) (. 2=?))",
		},
		{
			name:  "block degree 3 is accepted",
			words: []string{"a", "b", "c", "d", "e"},
			tags:  []string{"A", "B", "C", "D", "E"},
			cons:  []tree.Labelled{lab("S", 0, 5), lab("X", 0, 1, 2, 3, 4, 5)},
			want:  "(ROOT (S (X (A 0=a) (C 2=c) (E 4=e)) (B 1=b) (D 3=d)))",
		},
		{
			name:  "disconnected: two roots and a root word",
			words: []string{"a", "b", "c", "d"},
			tags:  []string{"A", "B", "C", "D"},
			cons:  []tree.Labelled{lab("Y", 3, 4), lab("X", 0, 1, 2, 3)},
			want:  "(ROOT (X (A 0=a) (C 2=c)) (B 1=b) (Y (D 3=d)))",
		},
		{
			name:  "gap filler nested in a discontinuous constituent's parent",
			words: []string{"a", "b", "c", "d", "e"},
			tags:  []string{"A", "B", "C", "D", "E"},
			cons:  []tree.Labelled{lab("T", 0, 5), lab("P", 0, 4), lab("D", 0, 1, 3, 4), lab("F", 1, 3)},
			want:  "(ROOT (T (P (D (A 0=a) (D 3=d)) (F (B 1=b) (C 2=c))) (E 4=e)))",
		},
		{
			name:  "touching blocks are one block",
			words: []string{"a", "b"},
			tags:  []string{"A", "B"},
			cons:  []tree.Labelled{lab("X", 0, 1, 1, 2)},
			want:  "(ROOT (X (A 0=a) (B 1=b)))",
		},
		{
			name:  "nil tags, no constituents",
			words: []string{"a", "b"},
			want:  "(ROOT ( 0=a) ( 1=b))",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tree.FromConstituents(tc.words, tc.tags, tc.cons)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if err := got.Validate(); err != nil {
				t.Fatalf("invalid tree: %v", err)
			}
			if g := bracket(got); g != tc.want {
				t.Errorf("got  %s\nwant %s", g, tc.want)
			}
			checkBottomUp(t, got)
		})
	}
}

// checkBottomUp checks that every node comes after its children and that
// nodes are numbered 500, 501, ... in order.
func checkBottomUp(t *testing.T, tr *tree.Tree) {
	t.Helper()
	for i, n := range tr.Nodes {
		if n.Num != 500+i {
			t.Errorf("node %d (%s): Num %d, want %d", i, n.Label, n.Num, 500+i)
		}
		if n.Parent != tree.Root && n.Parent <= i {
			t.Errorf("node %d (%s): parent %d comes before it", i, n.Label, n.Parent)
		}
	}
}

func TestFromConstituentsOrder(t *testing.T) {
	got, err := tree.FromConstituents([]string{"a", "b", "c"}, []string{"A", "B", "C"},
		[]tree.Labelled{lab("S/VP", 0, 3), lab("NP", 1, 3)})
	if err != nil {
		t.Fatal(err)
	}
	want := []tree.Node{
		{Num: 500, Label: "NP", Parent: 1},
		{Num: 501, Label: "VP", Parent: 2},
		{Num: 502, Label: "S", Parent: tree.Root},
	}
	if !slices.EqualFunc(got.Nodes, want, nodeEqual) {
		t.Errorf("nodes: got %+v, want %+v", got.Nodes, want)
	}
	if p := []int{got.Tokens[0].Parent, got.Tokens[1].Parent, got.Tokens[2].Parent}; !slices.Equal(p, []int{1, 0, 0}) {
		t.Errorf("token parents: got %v, want [1 0 0]", p)
	}
}

func TestFromConstituentsErrors(t *testing.T) {
	words := []string{"a", "b", "c", "d"}
	tests := []struct {
		name    string
		tags    []string
		cons    []tree.Labelled
		wantErr string
	}{
		{"tags length", []string{"A"}, nil, "1 tags for 4 words"},
		{"empty label", nil, []tree.Labelled{lab("", 0, 2)}, "empty label"},
		{"empty chain part", nil, []tree.Labelled{lab("S//VP", 0, 2)}, "empty part"},
		{"no blocks", nil, []tree.Labelled{lab("X")}, "no blocks"},
		{"empty block", nil, []tree.Labelled{lab("X", 1, 1)}, "empty block"},
		{"reversed block", nil, []tree.Labelled{lab("X", 2, 1)}, "empty block"},
		{"out of range", nil, []tree.Labelled{lab("X", 2, 5)}, "out of range"},
		{"negative start", nil, []tree.Labelled{lab("X", -1, 2)}, "out of range"},
		{"unsorted blocks", nil, []tree.Labelled{lab("X", 2, 3, 0, 1)}, "unsorted or overlapping"},
		{"overlapping blocks", nil, []tree.Labelled{lab("X", 0, 2, 1, 3)}, "unsorted or overlapping"},
		{"same yield twice", nil, []tree.Labelled{lab("X", 0, 2), lab("Y", 0, 2)}, "cover the same words"},
		{"same discontinuous yield twice", nil, []tree.Labelled{lab("X", 0, 1, 2, 3), lab("X", 0, 1, 2, 3)}, "cover the same words"},
		{"partial overlap", nil, []tree.Labelled{lab("X", 0, 2), lab("Y", 1, 3)}, "overlap partly"},
		{"partial overlap of a gap", nil, []tree.Labelled{lab("X", 0, 1, 2, 3), lab("Y", 1, 3)}, "overlap partly"},
		{"partial overlap with a nested one", nil, []tree.Labelled{lab("S", 0, 4), lab("X", 0, 2), lab("Z", 0, 1), lab("Y", 1, 3)}, "overlap partly"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tree.FromConstituents(words, tc.tags, tc.cons)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("got error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

// TestFromConstituentsTreebank rebuilds every tree of the dev set from its
// targets: FromConstituents(Targets(MergeUnaries(t))) then SplitUnaries gives
// back the (label, yield) multiset of t, for every sentence without skipped
// constituents.
func TestFromConstituentsTreebank(t *testing.T) {
	for _, name := range []string{"dev.punctmoved.discbracket", "dev.discbracket", "train.punctmoved.discbracket"} {
		trees := readTrees(t, name)
		exact, skippedSents := 0, 0
		for _, in := range trees {
			cons, skipped := tree.Targets(tree.MergeUnaries(in))
			if len(skipped) > 0 {
				skippedSents++
				continue
			}
			built, err := tree.FromConstituents(in.Words(), in.Tags(), cons)
			if err != nil {
				t.Fatalf("%s line %s: %v", name, in.ID, err)
			}
			got := tree.SplitUnaries(built)
			if g, w := labelYields(got), labelYields(in); !slices.Equal(g, w) {
				t.Fatalf("%s line %s:\n got %v\nwant %v", name, in.ID, g, w)
			}
			if g, w := bracket(got), bracket(in); g != w {
				t.Fatalf("%s line %s:\n got %s\nwant %s", name, in.ID, g, w)
			}
			exact++
		}
		t.Logf("%s: %d trees rebuilt exactly, %d left out (block degree > 2)", name, exact, skippedSents)
	}
}
