package decode_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/decode/internal/oracle"
)

// scoreTensor draws a random score tensor. Kind "uniform" gives distinct
// values; kind "ties" draws from {-1, 0, 1} so that many derivations tie.
func scoreTensor(rng *rand.Rand, n, labels int, kind string) *decode.Scores {
	s := decode.NewScores(n, labels)
	for _, t := range [][]float32{s.Cont, s.Disc, s.Gap} {
		for x := range t {
			switch kind {
			case "ties":
				t[x] = float32(rng.IntN(3) - 1)
			default:
				t[x] = rng.Float32()*4 - 2.5
			}
		}
	}
	return s
}

// nearlyEqual reports whether two scores agree to 1e-4 relative (float32
// sums in another order).
func nearlyEqual(a, b float64) bool { return math.Abs(a-b) <= 1e-4*(1+math.Abs(a)) }

// TestExactAgainstDeduction proves every variant exact on small sentences:
// the optimised chart finds the best score of a naive search over every
// derivation of the variant's deduction system (written independently in
// internal/oracle), its tree is in the variant's family, and its
// constituents add up to its score.
func TestExactAgainstDeduction(t *testing.T) {
	rng := rand.New(rand.NewPCG(2020, 1))
	for _, v := range decode.Variants {
		for _, kind := range []string{"uniform", "ties"} {
			t.Run(fmt.Sprintf("%s/%s", v, kind), func(t *testing.T) {
				dec := decode.NewDecoder(nil)
				for trial := 0; trial < 150; trial++ {
					n := 1 + trial%6
					s := scoreTensor(rng, n, 1+trial%3, kind)
					d, err := dec.Decode(v, s)
					if err != nil {
						t.Fatal(err)
					}
					want := oracle.BestDeduction(v, s)
					if !nearlyEqual(float64(d.Score), want) {
						t.Fatalf("trial %d n=%d: chart %g, naive deduction %g", trial, n, d.Score, want)
					}
					cs := d.Constituents()
					if err := oracle.InFamily(v, n, cs); err != nil {
						t.Fatalf("trial %d n=%d: returned tree not in the %s family: %v", trial, n, v, err)
					}
					if got := oracle.TreeScore(s, cs); !nearlyEqual(got, float64(d.Score)) {
						t.Fatalf("trial %d n=%d: constituents add up to %g, score %g", trial, n, got, d.Score)
					}
				}
			})
		}
	}
}

// TestExactAgainstTreeEnumeration checks continuous, n3 and n4 against a
// plain enumeration of all trees of their families.
func TestExactAgainstTreeEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(2020, 2))
	for _, v := range []decode.Variant{decode.Continuous, decode.N3, decode.N4} {
		t.Run(v.String(), func(t *testing.T) {
			for trial := 0; trial < 60; trial++ {
				n := 1 + trial%5
				s := scoreTensor(rng, n, 2, "uniform")
				d, err := decode.Decode(v, s, nil)
				if err != nil {
					t.Fatal(err)
				}
				want, err := oracle.BestTree(v, s)
				if err != nil {
					t.Fatal(err)
				}
				if !nearlyEqual(float64(d.Score), want) {
					t.Fatalf("trial %d n=%d: chart %g, tree enumeration %g", trial, n, d.Score, want)
				}
			}
		})
	}
}

// TestDeterministicTies: decoding the same tie-heavy tensor twice gives the
// same tree.
func TestDeterministicTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, v := range decode.Variants {
		s := scoreTensor(rng, 7, 2, "ties")
		a, err := decode.Decode(v, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := decode.NewDecoder(nil).Decode(v, s)
		if fmt.Sprint(a.Constituents()) != fmt.Sprint(b.Constituents()) {
			t.Errorf("%s: two runs disagree: %v vs %v", v, a.Constituents(), b.Constituents())
		}
	}
}
