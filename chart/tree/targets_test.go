package tree_test

import (
	"slices"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

// sp builds a span list from pairs start, end.
func sp(se ...int) []tree.Span {
	var out []tree.Span
	for i := 0; i+1 < len(se); i += 2 {
		out = append(out, tree.Span{Start: se[i], End: se[i+1]})
	}
	return out
}

func lab(label string, se ...int) tree.Labelled {
	return tree.Labelled{Label: label, Blocks: sp(se...)}
}

func labelledEqual(a, b []tree.Labelled) bool {
	return slices.EqualFunc(a, b, func(x, y tree.Labelled) bool {
		return x.Label == y.Label && slices.Equal(x.Blocks, y.Blocks)
	})
}

func TestTargets(t *testing.T) {
	tests := []struct {
		name          string
		in            string
		cons, skipped []tree.Labelled
	}{
		{
			name: "continuous",
			in:   "(ROOT (S (NP (DT 0=the) (NN 1=dog)) (VP (VB 2=barks) (RB 3=loud))) (. 4=.))",
			cons: []tree.Labelled{lab("S", 0, 4), lab("NP", 0, 2), lab("VP", 2, 4)},
		},
		{
			name: "discontinuous, block degree 2",
			in:   "(ROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John)) (? 3=?))",
			cons: []tree.Labelled{lab("S", 0, 3), lab("VP", 0, 1, 2, 3)},
		},
		{
			name:    "block degree 3 is skipped",
			in:      "(ROOT (S (X (A 0=a) (C 2=c) (E 4=e)) (B 1=b) (D 3=d)))",
			cons:    []tree.Labelled{lab("S", 0, 5)},
			skipped: []tree.Labelled{lab("X", 0, 1, 2, 3, 4, 5)},
		},
		{
			name: "merged unary chain is one target",
			in:   "(ROOT (SBARQ/SQ (VB 0=is) (NN 1=it)) (. 2=?))",
			cons: []tree.Labelled{lab("SBARQ/SQ", 0, 2)},
		},
		{
			name: "unmerged chain gives one target per node, sorted by label",
			in:   "(ROOT (SBARQ (SQ (VB 0=is) (NN 1=it))) (. 2=?))",
			cons: []tree.Labelled{lab("SBARQ", 0, 2), lab("SQ", 0, 2)},
		},
		{
			name: "order: first start, then larger first",
			in:   "(ROOT (A (B (C 0=c) (D 1=d)) (E (F 2=f) (G (H 3=h) (I 4=i)))) (J (K 5=k) (L 6=l)))",
			cons: []tree.Labelled{lab("A", 0, 5), lab("B", 0, 2), lab("E", 2, 5), lab("G", 3, 5), lab("J", 5, 7)},
		},
		{
			name: "no phrases",
			in:   "(ROOT (N 0=a) (N 1=b))",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cons, skipped := tree.Targets(mustParse(t, tc.in))
			if !labelledEqual(cons, tc.cons) {
				t.Errorf("cons: got %v, want %v", cons, tc.cons)
			}
			if !labelledEqual(skipped, tc.skipped) {
				t.Errorf("skipped: got %v, want %v", skipped, tc.skipped)
			}
		})
	}
}

func TestTargetsEmptyYield(t *testing.T) {
	// Node 1 (an empty element's phrase) covers no word and is ignored.
	in := &tree.Tree{
		Nodes:  []tree.Node{{Label: "S", Parent: tree.Root}, {Label: "NP", Parent: 0}},
		Tokens: []tree.Token{{Word: "a", Parent: 0}, {Word: "b", Parent: 0}},
	}
	cons, skipped := tree.Targets(in)
	if want := []tree.Labelled{lab("S", 0, 2)}; !labelledEqual(cons, want) || len(skipped) != 0 {
		t.Errorf("got %v / %v, want %v / none", cons, skipped, want)
	}
}

func TestLabelledString(t *testing.T) {
	tests := []struct {
		name string
		in   tree.Labelled
		want string
		size int
	}{
		{"continuous", lab("NP", 0, 2), "NP[0,2)", 2},
		{"discontinuous", lab("VP", 0, 1, 3, 5), "VP[0,1)+[3,5)", 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.in.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
			if got := tc.in.Size(); got != tc.size {
				t.Errorf("Size() = %d, want %d", got, tc.size)
			}
		})
	}
}

func TestCountTargets(t *testing.T) {
	trees := []*tree.Tree{
		mustParse(t, "(ROOT (S (NP (DT 0=the) (NN 1=dog)) (VB 2=barks)))"),
		mustParse(t, "(ROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John)) (? 3=?))"),
		mustParse(t, "(ROOT (S (X (A 0=a) (C 2=c) (E 4=e)) (B 1=b) (D 3=d)))"),
		mustParse(t, "(ROOT (N 0=a))"),
	}
	got := tree.CountTargets(trees)
	want := tree.TargetStats{Sentences: 4, Constituents: 6, Discontinuous: 2, Skipped: 1, SkippedSentences: 1, MaxBlockDegree: 3}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if s := got.String(); s == "" {
		t.Errorf("empty String()")
	}
}

// TestCountTargetsTreebank checks the counts against the numbers of
// ../../../shared/data/alpino-cdb/STATS.txt, which count the trees as they
// are (unary nodes not merged): per split, the share of discontinuous
// constituents (train 8.40%, dev 7.45%, test 8.35%), the constituents of
// block degree > 2 and the sentences that have one.
func TestCountTargetsTreebank(t *testing.T) {
	tests := []struct {
		file                      string
		disc                      int
		skipped, skippedSentences int
		maxBD                     int
	}{
		{"train.punctmoved.discbracket", 5005, 451, 370, 4},
		{"dev.punctmoved.discbracket", 530, 46, 37, 4},
		{"test.punctmoved.discbracket", 617, 61, 50, 4},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			trees := readTrees(t, tc.file)
			got := tree.CountTargets(trees)
			if got.Discontinuous != tc.disc || got.Skipped != tc.skipped || got.SkippedSentences != tc.skippedSentences || got.MaxBlockDegree != tc.maxBD {
				t.Errorf("got %+v, want %d discontinuous, %d skipped in %d sentences, max block degree %d", got, tc.disc, tc.skipped, tc.skippedSentences, tc.maxBD)
			}
			merged := make([]*tree.Tree, len(trees))
			for i, tr := range trees {
				merged[i] = tree.MergeUnaries(tr)
			}
			t.Logf("as is: %v", got)
			t.Logf("unaries merged: %v", tree.CountTargets(merged))
		})
	}
}

func TestDiscontinuous(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"continuous", "(ROOT (S (NP (DT 0=the) (NN 1=dog)) (VB 2=barks)))", nil},
		{
			"one gap, labels sorted",
			"(ROOT (S (VP (V 0=a) (V 2=c)) (N 1=b) (X (P 3=d) (P 5=f)) (Q 4=e)))",
			[]string{
				tree.Labelled{Label: "VP", Blocks: sp(0, 1, 2, 3)}.String(),
				tree.Labelled{Label: "X", Blocks: sp(3, 4, 5, 6)}.String(),
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := mustParse(t, tc.in).Discontinuous(); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
