package tree_test

import (
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

func TestIsPunct(t *testing.T) {
	tests := []struct {
		name string
		tok  tree.Token
		want bool
	}{
		{"alpino let", tree.Token{Word: ",", Tag: "let"}, true},
		{"alpino LET()", tree.Token{Word: "x", Tag: "LET()"}, true},
		{"negra $(", tree.Token{Word: "x", Tag: "$("}, true},
		{"negra $[", tree.Token{Word: "x", Tag: "$["}, true},
		{"ptb quotes", tree.Token{Word: "x", Tag: "``"}, true},
		{"word with a noun tag", tree.Token{Word: "&", Tag: "spec"}, true},
		{"-LRB- word", tree.Token{Word: "-LRB-", Tag: "n"}, true},
		{"guillemet", tree.Token{Word: "«", Tag: "x"}, true},
		{"ordinary word", tree.Token{Word: "Jan", Tag: "spec"}, false},
		{"-NONE- is not punctuation", tree.Token{Word: "*T*", Tag: "-NONE-"}, false},
		{"word starting with an apostrophe", tree.Token{Word: "'68", Tag: "tw"}, false},
		{"four dots", tree.Token{Word: "....", Tag: "n"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tree.IsPunct(tc.tok); got != tc.want {
				t.Errorf("IsPunct(%+v) = %v, want %v", tc.tok, got, tc.want)
			}
		})
	}
}

func TestReattachPunct(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{
			name: "between two words of one phrase",
			in:   "(ROOT (S (NP (N 0=a) (N 2=b)) (V 3=c)) (let 1=,))",
			want: "(ROOT (S (NP (N 0=a) (let 1=,) (N 2=b)) (V 3=c)))",
		},
		{
			name: "fills a clause's gap; final period stays",
			in:   "(ROOT (S (V 0=is) (A 1=ok) (CP (C 3=because) (V 4=so))) (let 2=,) (let 5=.))",
			want: "(ROOT (S (V 0=is) (A 1=ok) (let 2=,) (CP (C 3=because) (V 4=so))) (let 5=.))",
		},
		{
			name: "initial and final punctuation stay at the root",
			in:   "(ROOT (let 0=\") (S (N 1=a) (V 2=b)) (let 3=.))",
			want: "(ROOT (let 0=\") (S (N 1=a) (V 2=b)) (let 3=.))",
		},
		{
			name: "lowest node covering both neighbours, not the one next to it",
			in:   "(ROOT (CONJ (NP (N 0=a) (N 4=e)) (VG 1=and) (NP (N 2=c))) (let 3=,))",
			want: "(ROOT (CONJ (NP (N 0=a) (N 4=e)) (VG 1=and) (NP (N 2=c)) (let 3=,)))",
		},
		{
			name: "next to unplaced punctuation: lowest node around it with its word neighbour",
			in:   "(ROOT (S (NP (N 0=a) (N 4=e)) (V 3=d)) (let 1=\") (let 2=,))",
			want: "(ROOT (S (NP (N 0=a) (let 1=\") (N 4=e)) (let 2=,) (V 3=d)))",
		},
		{
			name: "left to right: placed punctuation counts at its new place",
			in:   "(ROOT (let 0=\") (DU (SMAIN (INF (N 1=a) (V 6=f)) (V 5=e)) (SV1 (V 4=zegt))) (let 2=\") (let 3=,) (let 7=.))",
			want: "(ROOT (let 0=\") (DU (SMAIN (INF (N 1=a) (let 2=\") (V 6=f)) (V 5=e)) (let 3=,) (SV1 (V 4=zegt))) (let 7=.))",
		},
		{
			name: "run of punctuation inside one phrase",
			in:   "(ROOT (S (N 0=a) (N 4=e)) (let 1=,) (let 2=\") (let 3=,))",
			want: "(ROOT (S (N 0=a) (let 1=,) (let 2=\") (let 3=,) (N 4=e)))",
		},
		{
			name: "punctuation word with another tag",
			in:   "(ROOT (S (N 0=a) (N 2=b)) (spec 1=&))",
			want: "(ROOT (S (N 0=a) (spec 1=&) (N 2=b)))",
		},
		{
			name: "root word that is not punctuation is not moved",
			in:   "(ROOT (S (N 0=a) (N 2=c)) (X 1=b))",
			want: "(ROOT (S (N 0=a) (N 2=c)) (X 1=b))",
		},
		{
			name: "next to a root word no phrase covers: stays",
			in:   "(ROOT (S (N 0=a) (N 3=d)) (X 1=b) (let 2=,))",
			want: "(ROOT (S (N 0=a) (N 3=d)) (X 1=b) (let 2=,))",
		},
		{
			name: "punctuation inside the tree is not moved",
			in:   "(ROOT (S (NP (N 0=a) (let 1=,)) (V 2=b)))",
			want: "(ROOT (S (NP (N 0=a) (let 1=,)) (V 2=b)))",
		},
		{
			name: "unary chain: the lowest node of equal size",
			in:   "(ROOT (S (VP (V 0=a) (V 2=b))) (let 1=,))",
			want: "(ROOT (S (VP (V 0=a) (let 1=,) (V 2=b))))",
		},
		{
			name: "no phrases at all",
			in:   "(ROOT (N 0=a) (let 1=,) (N 2=b))",
			want: "(ROOT (N 0=a) (let 1=,) (N 2=b))",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := mustParse(t, tc.in)
			before := bracket(in)
			got := tree.ReattachPunct(in)
			if err := got.Validate(); err != nil {
				t.Fatalf("invalid result: %v", err)
			}
			if g := bracket(got); g != tc.want {
				t.Errorf("ReattachPunct:\n got %s\nwant %s", g, tc.want)
			}
			if bracket(in) != before {
				t.Errorf("input modified")
			}
		})
	}
}

// TestReattachPunctTreebank compares ReattachPunct on the raw Alpino trees
// with the *.punctmoved.discbracket files, tree by tree.
func TestReattachPunctTreebank(t *testing.T) {
	for _, split := range []string{"train", "dev", "test"} {
		t.Run(split, func(t *testing.T) {
			raw := readTrees(t, split+".discbracket")
			moved := readTrees(t, split+".punctmoved.discbracket")
			if len(raw) != len(moved) {
				t.Fatalf("%d raw trees, %d moved trees", len(raw), len(moved))
			}
			agree := 0
			for i := range raw {
				got, want := bracket(tree.ReattachPunct(raw[i])), bracket(moved[i])
				if got == want {
					agree++
					continue
				}
				t.Errorf("line %d:\n got %s\nwant %s", i+1, got, want)
			}
			pct := 100 * float64(agree) / float64(len(raw))
			t.Logf("%s: ReattachPunct agrees with the punctmoved file on %d of %d trees (%.2f%%)", split, agree, len(raw), pct)
		})
	}
}
