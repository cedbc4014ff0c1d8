package decode

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// randomScores draws scores uniformly in [-spread, spread) with a fixed
// seed; a negative centre makes null labels frequent.
func randomScores(seed uint64, n, labels int, spread float32) *Scores {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	s := NewScores(n, labels)
	for _, t := range [][]float32{s.Cont, s.Disc, s.Gap} {
		for x := range t {
			t[x] = (rng.Float32()*2 - 1) * spread
		}
	}
	return s
}

// constituentScore is the float64 sum of the weights of a set of labelled
// constituents.
func constituentScore(s *Scores, cs []Constituent) float64 {
	var total float64
	for _, c := range cs {
		b := c.Blocks
		if len(b) == 1 {
			total += float64(s.Cont[s.Index(b[0][0], b[0][1]-1, c.Label)])
			continue
		}
		total += float64(s.Disc[s.Index(b[0][0], b[1][1]-1, c.Label)]) + float64(s.Gap[s.Index(b[0][1], b[1][0]-1, c.Label)])
	}
	return total
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-4*(1+math.Abs(a)+math.Abs(b)) }

func TestConstituentsAddUpToScore(t *testing.T) {
	for _, v := range Variants {
		for seed := uint64(0); seed < 40; seed++ {
			n := 1 + int(seed%12)
			s := randomScores(seed, n, 3, 1)
			d, err := Decode(v, s, nil)
			if err != nil {
				t.Fatalf("%s seed %d: %v", v, seed, err)
			}
			if got := constituentScore(s, d.Constituents()); !near(got, float64(d.Score)) {
				t.Errorf("%s seed %d n=%d: constituents sum to %g, decoder says %g", v, seed, n, got, d.Score)
			}
			if len(d.Items) == 0 || d.Items[len(d.Items)-1].I != 0 || d.Items[len(d.Items)-1].J != n {
				t.Errorf("%s seed %d: last item is not the goal [0,%d]", v, seed, n)
			}
		}
	}
}

func TestN3EqualsN4(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		n := 1 + int(seed%25)
		s := randomScores(seed, n, 1+int(seed%4), 1+float32(seed%3))
		d3, err := Decode(N3, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		d4, err := Decode(N4, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !near(float64(d3.Score), float64(d4.Score)) {
			t.Errorf("seed %d n=%d: n3 %g != n4 %g", seed, n, d3.Score, d4.Score)
		}
	}
}

func TestVariantLattice(t *testing.T) {
	// Larger search spaces can only do better.
	edges := [][2]Variant{{Continuous, N4}, {N4, N5WN}, {N5WN, N5}, {N5WN, N6WN}, {N5, N6}, {N6WN, N6}}
	for seed := uint64(0); seed < 60; seed++ {
		n := 1 + int(seed%10)
		s := randomScores(seed, n, 2, 1)
		score := map[Variant]float32{}
		for _, v := range Variants {
			d, err := Decode(v, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			score[v] = d.Score
		}
		for _, e := range edges {
			if float64(score[e[0]]) > float64(score[e[1]])+1e-4 {
				t.Errorf("seed %d: %s %g > %s %g", seed, e[0], score[e[0]], e[1], score[e[1]])
			}
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	nan := randomScores(1, 4, 2, 1)
	nan.Disc[nan.Index(1, 2, 1)] = float32(math.NaN())
	short := randomScores(1, 4, 2, 1)
	short.Gap = short.Gap[:5]
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name    string
		v       Variant
		s       *Scores
		opt     *Options
		wantErr error
	}{
		{"nan", N3, nan, nil, nil},
		{"short tensor", N4, short, nil, nil},
		{"too long", N6, randomScores(2, 60, 2, 1), &Options{MaxBytes: 1 << 20}, ErrTooLong},
		{"cancelled", N6, randomScores(3, 30, 2, 1), &Options{Context: cancelled}, context.Canceled},
		{"bad variant", Variant(42), randomScores(4, 3, 1, 1), nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(c.v, c.s, c.opt)
			if err == nil {
				t.Fatal("want an error, got none")
			}
			if c.wantErr != nil && !errors.Is(err, c.wantErr) {
				t.Errorf("error %v does not wrap %v", err, c.wantErr)
			}
		})
	}
}

func TestEmptySentence(t *testing.T) {
	for _, v := range Variants {
		d, err := Decode(v, NewScores(0, 3), nil)
		if err != nil || d.Score != 0 || len(d.Items) != 0 {
			t.Errorf("%s: got %+v, %v", v, d, err)
		}
	}
}

// TestProgress: a long decoding run (n5, n6) reports its progress as
// shares of the chart's work that grow, each by a percent or more, up to
// 1 at the end, with the sentence's length; the faster variants report
// nothing. (How well the shares track the time is measured, not tested:
// within a few points for n6 at 90 words, on one quiet core.)
func TestProgress(t *testing.T) {
	s := randomScores(3, 30, 4, 2)
	for _, v := range Variants {
		var shares []float64
		_, err := Decode(v, s, &Options{Progress: func(words int, done float64, _ time.Duration) {
			if words != 30 {
				t.Errorf("%v: told %d words", v, words)
			}
			shares = append(shares, done)
		}})
		if err != nil {
			t.Fatal(err)
		}
		slow := v == N5 || v == N5WN || v == N6 || v == N6WN
		if !slow {
			if len(shares) != 0 {
				t.Errorf("%v: %d reports, want none", v, len(shares))
			}
			continue
		}
		if len(shares) < 10 || len(shares) > 101 || shares[len(shares)-1] != 1 {
			t.Errorf("%v: %d reports ending at %v, want 10 to 101 ending at 1", v, len(shares), shares[len(shares)-1:])
		}
		for i := 1; i < len(shares); i++ {
			if shares[i]-shares[i-1] < 0.01-1e-12 && shares[i] != 1 || shares[i] > 1 {
				t.Errorf("%v: report %d is %v after %v", v, i, shares[i], shares[i-1])
			}
		}
	}
}

// TestScoresBeyondMaxScore: finite scores whose sums leave float32's range
// are refused as non-finite ones, by every variant and with constraints,
// where they used to give a tree of score +Inf, "no tree satisfies the
// constraints" (sums of -3e38) or an internal error (+Inf minus +Inf).
func TestScoresBeyondMaxScore(t *testing.T) {
	for _, big := range []float32{3e38, -3e38, 2 * MaxScore} {
		s := NewScores(3, 1)
		s.Cont[s.Index(0, 0, 0)], s.Cont[s.Index(1, 1, 0)] = big, big
		require := &Constraints{Labels: []string{"X"}, Require: []Required{{Label: 0, Blocks: [][2]int{{1, 3}}}}}
		for v := Continuous; v <= N6; v++ {
			if _, err := Decode(v, s, nil); !errors.Is(err, ErrNotFinite) || !strings.Contains(err.Error(), "cont[0][0][0]") {
				t.Errorf("%s, scores of %g: %v, want ErrNotFinite naming cont[0][0][0]", v, big, err)
			}
			if _, err := DecodeConstrained(v, s, require, nil); !errors.Is(err, ErrNotFinite) {
				t.Errorf("%s, scores of %g, constrained: %v, want ErrNotFinite", v, big, err)
			}
		}
	}
	s := NewScores(3, 1)
	s.Cont[s.Index(0, 0, 0)] = MaxScore
	if _, err := Decode(N6, s, nil); err != nil {
		t.Errorf("a score of MaxScore: %v", err)
	}
}

// TestChartBytesDoesNotOverflow: the chart sizes grow with the sentence up
// to the longest Check accepts (n6's used to wrap negative from about
// 72,800 words, which a large budget then let through).
func TestChartBytesDoesNotOverflow(t *testing.T) {
	for v := Continuous; v <= N6; v++ {
		prev := int64(0)
		for _, n := range []int{10, 1000, maxExactBlockWords, maxExactBlockWords + 1, 80000, MaxScoreWords} {
			b := ChartBytes(v, n, MaxScoreLabels)
			if b < prev {
				t.Errorf("%s: %d words need %d bytes, fewer than a shorter sentence's %d", v, n, b, prev)
			}
			prev = b
		}
	}
	for _, budget := range []int64{1 << 62, math.MaxInt64} {
		if err := (&Options{MaxBytes: budget}).Fits(N6, 80000, 1); err == nil {
			t.Errorf("80,000 words fit n6's chart in a budget of %d bytes", budget)
		}
	}
}
