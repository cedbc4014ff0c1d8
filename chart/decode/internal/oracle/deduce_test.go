package oracle

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/discspan/discspan/chart/decode"
)

const tol = 1e-9

// latticeVariants are the variants with distinct rule sets (N3 is searched
// as N4).
var latticeVariants = []decode.Variant{decode.Continuous, decode.N4, decode.N5WN, decode.N5, decode.N6WN, decode.N6}

func TestBestDeductionSmall(t *testing.T) {
	s := decode.NewScores(1, 2)
	s.Cont[s.Index(0, 0, 1)] = 0.75
	for _, v := range decode.Variants {
		if got, want := BestDeduction(v, s), 0.75; got != want {
			t.Errorf("%v, one word: got %v, want %v (the axiom's label weight)", v, got, want)
		}
	}
	s.Cont[s.Index(0, 0, 1)] = -0.5
	if got := BestDeduction(decode.N6, s); got != 0 {
		t.Errorf("one word, negative scores: got %v, want 0 (null)", got)
	}
	if got := BestDeduction(decode.N6, decode.NewScores(0, 3)); got != 0 {
		t.Errorf("no words: got %v, want 0", got)
	}
	// Two words: [0,1] + [1,2] -> [0,2], each with its best label.
	s = decode.NewScores(2, 2)
	s.Cont[s.Index(0, 0, 0)] = 1
	s.Cont[s.Index(0, 0, 1)] = 2
	s.Cont[s.Index(1, 1, 0)] = -1
	s.Cont[s.Index(0, 1, 1)] = 0.5
	if got, want := BestDeduction(decode.N4, s), 2.5; got != want {
		t.Errorf("two words: got %v, want %v", got, want)
	}
}

// TestBestTreeMatchesDeduction compares plain tree enumeration with the
// deduction search, for the variants whose families BestTree knows.
func TestBestTreeMatchesDeduction(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, v := range []decode.Variant{decode.Continuous, decode.N3, decode.N4} {
		maxN := 6
		if v == decode.Continuous {
			maxN = 7
		}
		for n := 1; n <= maxN; n++ {
			for labels := 1; labels <= 3; labels++ {
				for trial := range 12 {
					s := randScores(rng, n, labels, trial%3 == 2)
					want := BestDeduction(v, s)
					got, err := BestTree(v, s)
					if err != nil {
						t.Fatal(err)
					}
					if math.Abs(got-want) > tol {
						t.Fatalf("%v n=%d labels=%d trial %d: BestTree %v, BestDeduction %v", v, n, labels, trial, got, want)
					}
				}
			}
		}
	}
}

func TestBestTreeUnsupported(t *testing.T) {
	s := decode.NewScores(3, 1)
	for _, v := range []decode.Variant{decode.N5WN, decode.N5, decode.N6WN, decode.N6} {
		if _, err := BestTree(v, s); err == nil {
			t.Errorf("BestTree(%v) gave no error", v)
		}
	}
	if _, err := BestTree(decode.N4, decode.NewScores(7, 1)); err == nil {
		t.Errorf("BestTree(n4) on 7 words gave no error")
	}
}

// TestMonotone checks that a larger deduction system never scores less:
// continuous <= n4 <= n5wn <= n5 <= n6 and n5wn <= n6wn <= n6, and that n3
// and n4 agree.
func TestMonotone(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	order := [][2]decode.Variant{
		{decode.Continuous, decode.N4}, {decode.N4, decode.N5WN}, {decode.N5WN, decode.N5},
		{decode.N5, decode.N6}, {decode.N5WN, decode.N6WN}, {decode.N6WN, decode.N6},
	}
	strict := map[[2]decode.Variant]int{}
	for n := 1; n <= 6; n++ {
		trials := 10
		if n >= 5 {
			trials = 30 // wrapped needs three discontinuous nodes: rare
		}
		for labels := 1; labels <= 3; labels++ {
			for trial := range trials {
				s := randScores(rng, n, labels, trial%3 == 2)
				got := map[decode.Variant]float64{}
				for _, v := range decode.Variants {
					got[v] = BestDeduction(v, s)
				}
				if got[decode.N3] != got[decode.N4] {
					t.Fatalf("n=%d: n3 %v != n4 %v", n, got[decode.N3], got[decode.N4])
				}
				for _, p := range order {
					if got[p[0]] > got[p[1]]+tol {
						t.Fatalf("n=%d labels=%d trial %d: %v scores %v > %v scores %v", n, labels, trial, p[0], got[p[0]], p[1], got[p[1]])
					}
					if got[p[0]] < got[p[1]]-tol {
						strict[p]++
					}
				}
			}
		}
	}
	// Random scores should show every step of the lattice mattering.
	for _, p := range order {
		if strict[p] == 0 {
			t.Errorf("%v never scored below %v: the tensors do not exercise the difference", p[0], p[1])
		}
	}
}

// ruleCases reward a handful of constituents (each weighs 1, see reward)
// so that holding all of them needs one particular rule. want is the best
// score per variant, in decode.Variants order (continuous, n3, n4, n5wn,
// n5, n6wn, n6), reasoned out by hand; the variants that score
// len(targets) are exactly those whose family holds the whole target tree.
var ruleCases = []struct {
	name    string
	rule    decode.Rule
	n       int
	targets []decode.Constituent
	want    [7]float64
}{
	{"combine: nested spans", decode.Combine, 3,
		[]decode.Constituent{c(0, 0, 2), c(0, 0, 3)}, [7]float64{2, 2, 2, 2, 2, 2, 2}},
	{"create gap: one discontinuous constituent", decode.CreateGap, 3,
		[]decode.Constituent{c(0, 0, 1, 2, 3)}, [7]float64{0, 1, 1, 1, 1, 1, 1}},
	{"fill gap: a discontinuous child of a span", decode.FillGap, 4,
		[]decode.Constituent{c(0, 0, 1, 2, 3), c(0, 0, 3)}, [7]float64{1, 2, 2, 2, 2, 2, 2}},
	{"kept right: disc child extended leftwards", decode.KeptRight, 4,
		[]decode.Constituent{c(0, 0, 2, 3, 4), c(0, 1, 2, 3, 4)}, [7]float64{0, 1, 1, 2, 2, 2, 2}},
	{"kept left: disc child extended rightwards", decode.KeptLeft, 4,
		[]decode.Constituent{c(0, 0, 1, 2, 4), c(0, 0, 1, 2, 3)}, [7]float64{0, 1, 1, 2, 2, 2, 2}},
	{"shrink left: gap narrowed from the left", decode.ShrinkLeft, 4,
		[]decode.Constituent{c(0, 0, 2, 3, 4), c(0, 0, 1, 3, 4)}, [7]float64{0, 1, 1, 2, 2, 2, 2}},
	{"shrink right: gap narrowed from the right", decode.ShrinkRight, 4,
		[]decode.Constituent{c(0, 0, 1, 2, 4), c(0, 0, 1, 3, 4)}, [7]float64{0, 1, 1, 2, 2, 2, 2}},
	{"ill-nested no gap: interleaved pair", decode.IllNoGap, 4,
		[]decode.Constituent{c(0, 0, 1, 2, 3), c(0, 1, 2, 3, 4)}, [7]float64{0, 1, 1, 1, 2, 1, 2}},
	{"wrapped: disc made of two nested discs", decode.Wrapped, 5,
		[]decode.Constituent{c(0, 0, 2, 3, 5), c(0, 0, 1, 4, 5), c(0, 1, 2, 3, 4)}, [7]float64{0, 2, 2, 2, 2, 3, 3}},
	{"ill-nested gap centre", decode.IllGapCentre, 5,
		[]decode.Constituent{c(0, 0, 2, 3, 5), c(0, 0, 1, 3, 4), c(0, 1, 2, 4, 5)}, [7]float64{0, 1, 1, 2, 2, 2, 3}},
	{"ill-nested gap right", decode.IllGapRight, 5,
		[]decode.Constituent{c(0, 0, 3, 4, 5), c(0, 0, 1, 2, 3), c(0, 1, 2, 4, 5)}, [7]float64{0, 2, 2, 2, 2, 2, 3}},
	{"ill-nested gap left", decode.IllGapLeft, 5,
		[]decode.Constituent{c(0, 0, 1, 2, 5), c(0, 0, 1, 3, 4), c(0, 2, 3, 4, 5)}, [7]float64{0, 2, 2, 2, 2, 2, 3}},
}

// TestRuleCases checks each hand-built case in every variant, checks that
// taking the case's rule out of the smallest variant that has it loses the
// best tree, and that InFamily accepts the whole target tree exactly where
// the variant's score says it is reachable.
func TestRuleCases(t *testing.T) {
	covered := map[decode.Rule]bool{}
	for _, tc := range ruleCases {
		t.Run(tc.name, func(t *testing.T) {
			covered[tc.rule] = true
			s := reward(tc.n, tc.targets...)
			tree := withLabels(tc.targets)
			for _, v := range decode.Variants {
				want := tc.want[v]
				if got := BestDeduction(v, s); math.Abs(got-want) > tol {
					t.Errorf("%v: BestDeduction %v, want %v", v, got, want)
				}
				if got, err := BestTree(v, s); err == nil && math.Abs(got-want) > tol {
					t.Errorf("%v: BestTree %v, want %v", v, got, want)
				}
				err := InFamily(v, tc.n, tree)
				if reach := want == float64(len(tree)); reach != (err == nil) {
					t.Errorf("%v: InFamily(whole target tree) = %v, but the best score is %v of %d", v, err, want, len(tree))
				}
			}
			for _, v := range latticeVariants {
				if !slices.Contains(variantRules[v], tc.rule) {
					continue
				}
				var without []*rule
				for _, r := range rulesOf(v) {
					if r.id != tc.rule {
						without = append(without, r)
					}
				}
				if got := bestWith(without, s); got >= tc.want[v] {
					t.Errorf("%v without %v still scores %v (want < %v)", v, tc.rule, got, tc.want[v])
				}
				break
			}
		})
	}
	for id := decode.Combine; id <= decode.IllGapLeft; id++ {
		if !covered[id] {
			t.Errorf("no case for rule %v", id)
		}
	}
}
