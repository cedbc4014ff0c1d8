package oracle

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/decode"
)

// TestInFamilyAcceptsArgmax decodes random tensors by tree enumeration and
// checks that InFamily accepts the best tree (null nodes left out) in the
// variant and every larger one, and that TreeScore gives back its score.
func TestInFamilyAcceptsArgmax(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	above := map[decode.Variant][]decode.Variant{
		decode.Continuous: decode.Variants,
		decode.N4:         {decode.N3, decode.N4, decode.N5WN, decode.N5, decode.N6WN, decode.N6},
	}
	for _, v := range []decode.Variant{decode.Continuous, decode.N4} {
		for n := 1; n <= 6; n++ {
			for trial := range 8 {
				s := randScores(rng, n, 1+trial%3, trial%4 == 3)
				score, tree, err := bestTree(v, s)
				if err != nil {
					t.Fatal(err)
				}
				cs := labelled(s, tree)
				if got := TreeScore(s, cs); math.Abs(got-score) > tol {
					t.Fatalf("%v n=%d: TreeScore %v, BestTree %v", v, n, got, score)
				}
				for _, w := range above[v] {
					if err := InFamily(w, n, cs); err != nil {
						t.Fatalf("%v n=%d trial %d: best tree %v rejected by %v: %v", v, n, trial, cs, w, err)
					}
				}
			}
		}
	}
}

// TestN4Condition checks BestTree's tree-level description of the N4
// family against the deduction system on every laminar set of yields of at
// most two blocks, for up to 5 words: n4Condition accepts exactly what
// InFamily(N4) accepts, and InFamily(Continuous) exactly the sets of spans.
func TestN4Condition(t *testing.T) {
	for n := 1; n <= 5; n++ {
		in, out := 0, 0
		laminarSets(allYields(n, 2), func(tree []uint64) {
			cs := treeOf(tree)
			cond := n4Condition(n, tree)
			derived := InFamily(decode.N4, n, cs)
			if (cond == nil) != (derived == nil) {
				t.Errorf("n=%d %v: condition says %v, derivation says %v", n, cs, cond, derived)
			}
			if cond == nil {
				in++
			} else {
				out++
			}
			spans := true
			for _, y := range tree {
				spans = spans && len(blocksOf(y)) == 1
			}
			if err := InFamily(decode.Continuous, n, cs); spans != (err == nil) {
				t.Errorf("n=%d %v: InFamily(continuous) = %v", n, cs, err)
			}
		})
		t.Logf("n=%d: %d trees in the n4 family, %d laminar sets outside", n, in, out)
	}
}

// TestN4ConditionSample repeats TestN4Condition on one laminar set in 40
// for 6 words, where checking all 273,408 would take too long.
func TestN4ConditionSample(t *testing.T) {
	const n = 6
	count, checked := 0, 0
	laminarSets(allYields(n, 2), func(tree []uint64) {
		count++
		if count%40 != 0 {
			return
		}
		checked++
		cs := treeOf(tree)
		cond, derived := n4Condition(n, tree), InFamily(decode.N4, n, cs)
		if (cond == nil) != (derived == nil) {
			t.Errorf("n=%d %v: condition says %v, derivation says %v", n, cs, cond, derived)
		}
	})
	t.Logf("n=%d: checked %d of %d laminar sets", n, checked, count)
}

// TestFamiliesMatchDeduction takes InFamily as the definition of every
// variant's family, enumerates all laminar sets of yields of at most two
// blocks for up to 5 words, and checks that the best of those the variant
// accepts scores what BestDeduction finds.
func TestFamiliesMatchDeduction(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for n := 1; n <= 5; n++ {
		var sets [][]decode.Constituent
		laminarSets(allYields(n, 2), func(tree []uint64) { sets = append(sets, treeOf(tree)) })
		for _, v := range latticeVariants {
			var family [][]decode.Constituent
			for _, cs := range sets {
				if InFamily(v, n, cs) == nil {
					family = append(family, cs)
				}
			}
			if n == 5 {
				t.Logf("%v, n=%d: %d of %d laminar sets", v, n, len(family), len(sets))
			}
			for trial := range 6 {
				s := randScores(rng, n, 1+trial%3, trial%3 == 2)
				best := 0.0
				for _, cs := range family {
					score := 0.0
					for _, c := range cs {
						it, _ := itemOf(mustYield(t, n, c))
						score += itemWeight(s, it)
					}
					best = math.Max(best, score)
				}
				if want := BestDeduction(v, s); math.Abs(best-want) > tol {
					t.Fatalf("%v n=%d trial %d: best tree of the family %v, BestDeduction %v", v, n, trial, best, want)
				}
			}
		}
	}
}

func mustYield(t *testing.T, n int, c decode.Constituent) uint64 {
	y, err := yieldOf(n, c)
	if err != nil {
		t.Fatal(err)
	}
	return y
}

// TestN4ConditionSiblingWords pins down why gap fillers must include the
// words that hang from the parent directly: a single discontinuous
// constituent whose gap is a bare word is an n4 tree.
func TestN4ConditionSiblingWords(t *testing.T) {
	tree := []uint64{0b101}
	if err := n4Condition(3, tree); err != nil {
		t.Errorf("n4Condition: %v", err)
	}
	if err := InFamily(decode.N4, 3, treeOf(tree)); err != nil {
		t.Errorf("InFamily: %v", err)
	}
}

var (
	all      = decode.Variants
	fromN4   = []decode.Variant{decode.N3, decode.N4, decode.N5WN, decode.N5, decode.N6WN, decode.N6}
	fromN5WN = []decode.Variant{decode.N5WN, decode.N5, decode.N6WN, decode.N6}
	illOnly  = []decode.Variant{decode.N5, decode.N6}
	wrapOnly = []decode.Variant{decode.N6WN, decode.N6}
	n6Only   = []decode.Variant{decode.N6}
	none     = []decode.Variant{}
)

// familyCases are trees with the variants that can build them (all others
// must reject them) and, for the malformed ones, a word of the error.
var familyCases = []struct {
	name   string
	n      int
	cs     []decode.Constituent
	accept []decode.Variant
	errHas string
}{
	{"empty tree", 4, nil, all, ""},
	{"spans", 4, []decode.Constituent{c(1, 0, 4), c(2, 0, 2), c(0, 2, 3)}, all, ""},
	{"disc over a bare word", 3, []decode.Constituent{c(0, 0, 1, 2, 3)}, fromN4, ""},
	{"disc whose gap is a sibling span", 4, []decode.Constituent{c(0, 0, 1, 3, 4), c(1, 1, 3), c(2, 0, 4)}, fromN4, ""},
	{"disc with a disc child, gap inside the block", 5, []decode.Constituent{c(0, 0, 3, 4, 5), c(0, 0, 1, 2, 3)}, fromN4, ""},
	{"well-nested sibling discs", 5, []decode.Constituent{c(0, 0, 1, 4, 5), c(1, 1, 2, 3, 4)}, fromN4, ""},
	{"disc under a span, gap outside the span", 4, []decode.Constituent{c(0, 0, 1, 2, 3), c(1, 0, 3), c(2, 0, 4)}, fromN4, ""},
	{"disc with a disc child whose gap is outside (kept right)", 4,
		[]decode.Constituent{c(0, 0, 2, 3, 4), c(0, 1, 2, 3, 4)}, fromN5WN, ""},
	{"disc with a disc child whose gap is wider (shrink left)", 4,
		[]decode.Constituent{c(0, 0, 2, 3, 4), c(0, 0, 1, 3, 4)}, fromN5WN, ""},
	{"span over a disc whose gap is outside the span", 5,
		[]decode.Constituent{c(0, 0, 1, 3, 4), c(1, 2, 5)}, none, "overlap"},
	{"ill-nested pair", 4, []decode.Constituent{c(0, 0, 1, 2, 3), c(1, 1, 2, 3, 4)}, illOnly, ""},
	{"ill-nested pair under a span", 5, []decode.Constituent{c(0, 0, 1, 2, 3), c(1, 1, 2, 3, 4), c(2, 0, 4)}, illOnly, ""},
	{"wrapped", 5, []decode.Constituent{c(0, 0, 2, 3, 5), c(0, 0, 1, 4, 5), c(0, 1, 2, 3, 4)}, wrapOnly, ""},
	{"ill-nested gap centre", 5, []decode.Constituent{c(0, 0, 2, 3, 5), c(0, 0, 1, 3, 4), c(0, 1, 2, 4, 5)}, n6Only, ""},
	{"ill-nested gap right", 5, []decode.Constituent{c(0, 0, 3, 4, 5), c(0, 0, 1, 2, 3), c(0, 1, 2, 4, 5)}, n6Only, ""},
	{"ill-nested gap left", 5, []decode.Constituent{c(0, 0, 1, 2, 5), c(0, 0, 1, 3, 4), c(0, 2, 3, 4, 5)}, n6Only, ""},
	{"crossing spans", 3, []decode.Constituent{c(0, 0, 2), c(1, 1, 3)}, none, "overlap"},
	{"same yield twice", 3, []decode.Constituent{c(0, 0, 2), c(1, 0, 2)}, none, "same yield"},
	{"adjacent blocks", 3, []decode.Constituent{c(0, 0, 1, 1, 2)}, none, "not sorted with a gap"},
	{"unsorted blocks", 3, []decode.Constituent{c(0, 2, 3, 0, 1)}, none, "not sorted with a gap"},
	{"empty block", 3, []decode.Constituent{c(0, 1, 1)}, none, "empty"},
	{"outside the sentence", 3, []decode.Constituent{c(0, 0, 4)}, none, "outside"},
	{"three blocks", 5, []decode.Constituent{c(0, 0, 1, 2, 3, 4, 5)}, none, "3 blocks"},
	{"no blocks", 3, []decode.Constituent{{Label: 0}}, none, "0 blocks"},
	{"null label", 3, []decode.Constituent{c(-1, 0, 2)}, none, "label -1"},
}

func TestInFamily(t *testing.T) {
	for _, tc := range familyCases {
		t.Run(tc.name, func(t *testing.T) {
			for _, v := range decode.Variants {
				err := InFamily(v, tc.n, tc.cs)
				want := false
				for _, a := range tc.accept {
					want = want || a == v
				}
				if want != (err == nil) {
					t.Errorf("%v: InFamily = %v, want accepted: %v", v, err, want)
				}
				if err != nil && tc.errHas != "" && !strings.Contains(err.Error(), tc.errHas) {
					t.Errorf("%v: error %q does not mention %q", v, err, tc.errHas)
				}
			}
		})
	}
}

func TestTreeScore(t *testing.T) {
	s := decode.NewScores(4, 2)
	s.Cont[s.Index(0, 3, 1)] = 1.5   // [0,4) label 1
	s.Cont[s.Index(1, 2, 0)] = -0.25 // [1,3) label 0
	s.Disc[s.Index(0, 3, 0)] = 2     // extent words 0..3, label 0
	s.Gap[s.Index(1, 2, 0)] = -0.5   // gap words 1..2, label 0
	s.Gap[s.Index(1, 2, 1)] = 100    // another label: not counted
	cs := []decode.Constituent{c(1, 0, 4), c(0, 1, 3), c(0, 0, 1, 3, 4)}
	if got, want := TreeScore(s, cs), 1.5-0.25+2-0.5; got != want {
		t.Errorf("TreeScore = %v, want %v", got, want)
	}
	if got := TreeScore(s, nil); got != 0 {
		t.Errorf("TreeScore(empty) = %v, want 0", got)
	}
}
