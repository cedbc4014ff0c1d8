package oracle

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/discspan/discspan/chart/decode"
)

// randYield draws the blocks of a random yield of n words: one block, or,
// when n >= 3 and half the time, two blocks with a gap.
func randYield(rng *rand.Rand, n int) [][2]int {
	if n >= 3 && rng.IntN(2) == 0 {
		cuts := rng.Perm(n + 1)[:4]
		for i := range cuts {
			for j := i + 1; j < len(cuts); j++ {
				if cuts[j] < cuts[i] {
					cuts[i], cuts[j] = cuts[j], cuts[i]
				}
			}
		}
		return [][2]int{{cuts[0], cuts[1]}, {cuts[2], cuts[3]}}
	}
	i := rng.IntN(n)
	return [][2]int{{i, i + 1 + rng.IntN(n-i)}}
}

// randConstraints draws one to three random requirements and forbidden
// yields.
func randConstraints(rng *rand.Rand, n, labels int) *decode.Constraints {
	c := &decode.Constraints{}
	for range 1 + rng.IntN(3) {
		if rng.IntN(2) == 0 {
			c.Require = append(c.Require, decode.Required{Label: rng.IntN(labels), Blocks: randYield(rng, n)})
		} else {
			c.Forbid = append(c.Forbid, decode.Forbidden{Blocks: randYield(rng, n)})
		}
	}
	return c
}

// TestConstrainedDeductionMatchesTrees compares the two constrained
// searches, derivations with requirement sets against filtered tree
// enumeration, on random scores and constraints.
func TestConstrainedDeductionMatchesTrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	finite, total := 0, 0
	for _, v := range []decode.Variant{decode.Continuous, decode.N4} {
		for n := 1; n <= 5; n++ {
			for trial := range 40 {
				s := randScores(rng, n, 1+trial%3, trial%3 == 2)
				c := randConstraints(rng, n, s.L)
				want := BestConstrainedDeduction(v, s, c)
				got, err := BestConstrainedTree(v, s, c)
				if err != nil {
					t.Fatal(err)
				}
				if got != want && math.Abs(got-want) > tol {
					t.Fatalf("%v n=%d trial %d %+v: trees %v, deduction %v", v, n, trial, c, got, want)
				}
				total++
				if !math.IsInf(want, -1) {
					finite++
				}
			}
		}
	}
	// Both outcomes must be well represented for the comparison to mean
	// something.
	if finite < total/4 || finite > total*3/4 {
		t.Errorf("%d of %d constraint sets satisfiable: the draw is too lopsided", finite, total)
	}
}

// TestConstrainedWithoutConstraints: no constraints is BestDeduction.
func TestConstrainedWithoutConstraints(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 2))
	for _, v := range latticeVariants {
		for trial := range 20 {
			s := randScores(rng, 1+trial%6, 2, trial%2 == 0)
			for _, c := range []*decode.Constraints{nil, {}} {
				if got, want := BestConstrainedDeduction(v, s, c), BestDeduction(v, s); math.Abs(got-want) > tol {
					t.Fatalf("%v trial %d: constrained %v, plain %v", v, trial, got, want)
				}
			}
		}
	}
}

func TestConstrainedCases(t *testing.T) {
	ill := []decode.Required{{Label: 0, Blocks: [][2]int{{0, 1}, {2, 3}}}, {Label: 1, Blocks: [][2]int{{1, 2}, {3, 4}}}}
	cases := []struct {
		name string
		v    decode.Variant
		c    decode.Constraints
		want float64
	}{
		// Every entry is -1: requirements cost their label's weight.
		{"nothing", decode.N6, decode.Constraints{}, 0},
		{"one continuous", decode.N4, decode.Constraints{Require: []decode.Required{{Label: 0, Blocks: [][2]int{{1, 3}}}}}, -1},
		{"one discontinuous", decode.N4, decode.Constraints{Require: ill[:1]}, -2},
		{"ill-nested pair n4", decode.N4, decode.Constraints{Require: ill}, math.Inf(-1)},
		{"ill-nested pair n5", decode.N5, decode.Constraints{Require: ill}, -4},
		{"ill-nested pair n6wn", decode.N6WN, decode.Constraints{Require: ill}, math.Inf(-1)},
		{"discontinuous in continuous", decode.Continuous, decode.Constraints{Require: ill[:1]}, math.Inf(-1)},
		{"crossing", decode.N6, decode.Constraints{Require: []decode.Required{
			{Label: 0, Blocks: [][2]int{{0, 2}}}, {Label: 0, Blocks: [][2]int{{1, 3}}}}}, math.Inf(-1)},
		{"two labels", decode.N6, decode.Constraints{Require: []decode.Required{
			{Label: 0, Blocks: [][2]int{{0, 2}}}, {Label: 1, Blocks: [][2]int{{0, 2}}}}}, math.Inf(-1)},
		{"same label twice", decode.N6, decode.Constraints{Require: []decode.Required{
			{Label: 1, Blocks: [][2]int{{0, 2}}}, {Label: 1, Blocks: [][2]int{{0, 2}}}}}, -1},
		{"required and forbidden", decode.N6, decode.Constraints{
			Require: []decode.Required{{Label: 0, Blocks: [][2]int{{0, 2}}}},
			Forbid:  []decode.Forbidden{{Blocks: [][2]int{{0, 2}}}}}, math.Inf(-1)},
	}
	s := decode.NewScores(4, 2)
	for _, t := range [][]float32{s.Cont, s.Disc, s.Gap} {
		for i := range t {
			t[i] = -1
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := BestConstrainedDeduction(c.v, s, &c.c); got != c.want {
				t.Errorf("BestConstrainedDeduction = %v, want %v", got, c.want)
			}
			if c.v != decode.N4 && c.v != decode.Continuous {
				return
			}
			if got, err := BestConstrainedTree(c.v, s, &c.c); err != nil || got != c.want {
				t.Errorf("BestConstrainedTree = %v, %v, want %v", got, err, c.want)
			}
		})
	}
}

func TestSatisfies(t *testing.T) {
	tree := []decode.Constituent{c(0, 0, 1, 2, 3), c(1, 0, 4)}
	cases := []struct {
		name string
		c    decode.Constraints
		ok   bool
	}{
		{"required present", decode.Constraints{Require: []decode.Required{{Label: 0, Blocks: [][2]int{{0, 1}, {2, 3}}}}}, true},
		{"wrong label", decode.Constraints{Require: []decode.Required{{Label: 1, Blocks: [][2]int{{0, 1}, {2, 3}}}}}, false},
		{"required absent", decode.Constraints{Require: []decode.Required{{Label: 0, Blocks: [][2]int{{1, 2}}}}}, false},
		{"forbidden absent", decode.Constraints{Forbid: []decode.Forbidden{{Blocks: [][2]int{{1, 2}}}}}, true},
		{"forbidden present", decode.Constraints{Forbid: []decode.Forbidden{{Blocks: [][2]int{{0, 4}}}}}, false},
	}
	for _, k := range cases {
		if err := Satisfies(tree, &k.c); (err == nil) != k.ok {
			t.Errorf("%s: Satisfies = %v, want ok=%v", k.name, err, k.ok)
		}
	}
}
