package network

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/decode"
)

// TestHingeValues checks the hinge term and its subgradient on scores where
// the cost-augmented best tree is known.
func TestHingeValues(t *testing.T) {
	const L = 3
	cases := []struct {
		name    string
		n       int
		variant decode.Variant
		weight  float64
		// scores sets the scores given the gold root label (cont cell
		// (0, n-1), label 1).
		scores func(s [numKinds][]float64, n int)
		want   float64
	}{
		// All scores 0: the augmented scores are +1 for every item but the
		// gold root (-1), so the best tree has as many items as a tree of n
		// words can (2n-1: n words and n-1 binary nodes), none gold, and
		// the term is (2n-1) + 1 missed gold item - S(G)=0.
		{"zero scores, n3", 5, decode.N3, 1, func(s [numKinds][]float64, n int) {}, 10},
		{"zero scores, n6, weight 0.5", 6, decode.N6, 0.5, func(s [numKinds][]float64, n int) {}, 0.5 * 12},
		{"zero scores, continuous", 4, decode.Continuous, 2, func(s [numKinds][]float64, n int) {}, 2 * 8},
		// Every non-gold label far below 0 and the gold root high: the gold
		// tree wins by more than its margin, the term is 0.
		{"gold wins by a margin", 5, decode.N3, 1, func(s [numKinds][]float64, n int) {
			for k := range s {
				for i := range s[k] {
					s[k][i] = -5
				}
			}
			s[kindCont][(n-1)*L+1] = 3
		}, 0},
		// The gold root scores 0.5 and everything else -0.8: each non-gold
		// item gains 1 - 0.8 = 0.2 under the cost, so the best augmented
		// tree is again full, with a non-gold root label (-0.8 + 1): 2n-1
		// items worth 0.2, plus the missed gold item, minus S(G) = 0.5.
		{"margin violated by wrong labels", 4, decode.N3, 1, func(s [numKinds][]float64, n int) {
			for k := range s {
				for i := range s[k] {
					s[k][i] = -0.8
				}
			}
			s[kindCont][(n-1)*L+1] = 0.5
		}, 7*0.2 + 1 - 0.5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.n
			var s, d [numKinds][]float64
			for k := range s {
				s[k] = make([]float64, n*n*L)
				d[k] = make([]float64, n*n*L)
			}
			tc.scores(s, n)
			tg := NewTargets(n)
			tg.Cont[n-1] = 2 // root (0, n-1), label 1
			h := &Hinge{Weight: tc.weight, Variant: tc.variant}
			got, err := hingeLoss(h, s, &tg, n, L, 0.5, d, nil)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-tc.want) > 1e-5 {
				t.Fatalf("hinge %g, want %g", got, tc.want)
			}
			// The subgradient: +w·scale per picked cell, -w·scale on the
			// gold root; its entries sum to (items - 1)·w·scale.
			var sum float64
			for k := range d {
				for _, v := range d[k] {
					sum += v
				}
			}
			step := 0.5 * tc.weight
			switch {
			case tc.want == 0:
				if sum != 0 || d[kindCont][(n-1)*L+1] != 0 {
					t.Fatalf("gradient with a zero hinge: sum %g", sum)
				}
			default:
				if g := d[kindCont][(n-1)*L+1]; g != -step {
					t.Errorf("gold root gradient %g, want %g", g, -step)
				}
				// Discontinuous items touch two cells (disc and gap).
				if sum < float64(2*n-2)*step-1e-9 {
					t.Errorf("gradient sums to %g, want at least %g", sum, float64(2*n-2)*step)
				}
			}
		})
	}
}

// TestHingeChecked: bad hinge settings are reported by LossGrad.
func TestHingeChecked(t *testing.T) {
	c := tinyTestConfig()
	m, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		h    Hinge
		want string
	}{
		{Hinge{Weight: -1}, "weight -1"},
		{Hinge{Weight: math.NaN()}, "weight NaN"},
		{Hinge{Weight: 1, Variant: 99}, "unknown decoder variant 99"},
	} {
		ex := randomExample(rand.New(rand.NewPCG(5, 0)), c, 3)
		ex.Targets.Hinge = &tc.h
		_, err := m.LossGrad([]Example{ex}, 1, m.Params.ZeroClone())
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one containing %q", tc.h, err, tc.want)
		}
	}
}
