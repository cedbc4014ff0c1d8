package decode

import (
	"errors"
	"fmt"
	"math"
)

// negInf initialises chart cells that no deduction has reached yet.
var negInf = float32(math.Inf(-1))

// weights gives the best-label weight of every item, precomputed where that
// is cheap (continuous items, O(n^2 L)) and on demand where it is not
// (discontinuous items, O(L) each).
type weights struct {
	s  *Scores
	n  int // words
	n1 int // n+1, the row stride of span-indexed tables
	// cont[i*n1+j] is max(0, max_A cont[i,j-1,A]) for the span [i,j), or
	// the weight constraints impose on it.
	cont []float32
	// maxDisc[i*n1+j] is max_A disc[i,j-1,A]; maxGap[k*n1+l] is
	// max_A gap[k,l-1,A]. They bound discontinuous weights for pruning.
	maxDisc, maxGap []float32
	// con, when not nil, overrides the weights and labels of the items
	// that meet a constraint (see conTable.override); cont already holds
	// its overrides, the other methods apply them.
	con *conTable
}

// constrain makes w apply the constraints t: it overrides the continuous
// weights table now and the discontinuous weights and every label on
// demand. Cost O(n^2 c) for c constraints.
func (w *weights) constrain(t *conTable) {
	t.s = w.s
	w.con = t
	t.applyCont(w)
}

// What newWeights computes besides the continuous weights.
const (
	withMaxDisc = 1 << iota // per-span maxima of disc (pruning bounds)
	withMaxGap              // per-span maxima of gap (pruning bounds)
	checkDisc               // check disc for finiteness
	checkGap                // check gap for finiteness
)

// newWeights precomputes the continuous weights and the requested per-span
// maxima. It checks that every score the variant reads is finite, so that
// no NaN reaches the charts. Cost O(n^2 L).
func newWeights(a *arena, s *Scores, what int) (*weights, error) {
	n, n1, L := s.N, s.N+1, s.L
	w := &weights{s: s, n: n, n1: n1, cont: a.float32s(n1 * n1)}
	if what&withMaxDisc != 0 {
		w.maxDisc = a.float32s(n1 * n1)
	}
	if what&withMaxGap != 0 {
		w.maxGap = a.float32s(n1 * n1)
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j <= n; j++ {
			base := s.Index(i, j-1, 0)
			m, ok := rowMax(s.Cont[base : base+L])
			if !ok {
				return nil, nonFinite("cont", s.Cont[base:base+L], i, j-1)
			}
			w.cont[i*n1+j] = max(0, m)
			if what&withMaxDisc != 0 {
				if w.maxDisc[i*n1+j], ok = rowMax(s.Disc[base : base+L]); !ok {
					return nil, nonFinite("disc", s.Disc[base:base+L], i, j-1)
				}
			}
			if what&withMaxGap != 0 {
				if w.maxGap[i*n1+j], ok = rowMax(s.Gap[base : base+L]); !ok {
					return nil, nonFinite("gap", s.Gap[base:base+L], i, j-1)
				}
			}
		}
		// Entries (i, y) for y >= i are contiguous: check them in one run.
		base, end := s.Index(i, i, 0), s.Index(i, n-1, 0)+L
		if what&checkDisc != 0 && what&withMaxDisc == 0 {
			if _, ok := rowMax(s.Disc[base:end]); !ok {
				return nil, nonFiniteRun("disc", s, s.Disc, i)
			}
		}
		if what&checkGap != 0 && what&withMaxGap == 0 {
			if _, ok := rowMax(s.Gap[base:end]); !ok {
				return nil, nonFiniteRun("gap", s, s.Gap, i)
			}
		}
	}
	return w, nil
}

// MaxScore bounds the magnitude of a score (just under 2^100, about
// 1.27e30; scores beyond count as non-finite): a tree's score sums a few
// scores per word (at most MaxScoreWords words), which then stays far
// within float32's range
// (3.4e38), where larger finite scores could add up to an infinity, and an
// infinity minus another to NaN. A network's scores are a few dozen at
// most. It is float32's largest value over 2^28, so that the check costs
// one exact multiplication (see rowMax).
const MaxScore = math.MaxFloat32 / maxScoreScale

// maxScoreScale times a score beyond MaxScore overflows to an infinity.
const maxScoreScale = 1 << 28

// beyondMaxScore reports whether v is NaN, infinite or beyond ±MaxScore.
func beyondMaxScore(v float32) bool { return !(v <= MaxScore && v >= -MaxScore) }

// ErrNotFinite matches the error of decoding scores of which one is NaN or
// infinite (a model whose training diverged gives them).
var ErrNotFinite = errors.New("a score is not finite")

// notFiniteError says where a non-finite score is; it matches ErrNotFinite.
type notFiniteError struct{ where string }

func (e notFiniteError) Error() string        { return e.where }
func (e notFiniteError) Is(target error) bool { return target == ErrNotFinite }

// nonFiniteRun locates the non-finite entry of row x of a tensor.
func nonFiniteRun(name string, s *Scores, t []float32, x int) error {
	for y := x; y < s.N; y++ {
		base := s.Index(x, y, 0)
		if _, ok := rowMax(t[base : base+s.L]); !ok {
			return nonFinite(name, t[base:base+s.L], x, y)
		}
	}
	return notFiniteError{fmt.Sprintf("%s[%d] holds a non-finite score", name, x)}
}

func nonFinite(name string, row []float32, x, y int) error {
	for a, v := range row {
		switch {
		case v-v != 0:
			return notFiniteError{fmt.Sprintf("%s[%d][%d][%d] is %v", name, x, y, a, v)}
		case beyondMaxScore(v):
			return notFiniteError{fmt.Sprintf("%s[%d][%d][%d] is %v, beyond ±%.3g (sums of such scores overflow)", name, x, y, a, v, float64(MaxScore))}
		}
	}
	return notFiniteError{fmt.Sprintf("%s[%d][%d] holds a non-finite score", name, x, y)}
}

// contLabel returns the best label of the continuous item [i,j] and its
// weight: the lowest-index label with the largest strictly positive score, or
// -1 and 0 when no label scores above zero; under constraints, the label and
// weight they impose, if any.
func (w *weights) contLabel(i, j int) (int, float32) {
	if w.con != nil {
		if label, weight, ok := w.con.contOverride(i, j); ok {
			return label, weight
		}
	}
	base := w.s.Index(i, j-1, 0)
	label, best := -1, float32(0)
	for a, v := range w.s.Cont[base : base+w.s.L] {
		if v > best {
			label, best = a, v
		}
	}
	return label, best
}

// disc returns the weight of the discontinuous item [i,k,l,j]:
// max(0, max_A disc[i,j-1,A] + gap[k,l-1,A]), or the weight constraints
// impose on it. Cost O(L + c).
func (w *weights) disc(i, k, l, j int) float32 {
	if w.con != nil {
		if _, weight, ok := w.con.discOverride(i, k, l, j); ok {
			return weight
		}
	}
	L := w.s.L
	db := w.s.Index(i, j-1, 0)
	gb := w.s.Index(k, l-1, 0)
	return max(0, maxSum(w.s.Disc[db:db+L], w.s.Gap[gb:gb+L]))
}

// discLabel returns the best label of the discontinuous item [i,k,l,j] and
// its weight, with the same tie-breaking as contLabel.
func (w *weights) discLabel(i, k, l, j int) (int, float32) {
	if w.con != nil {
		if label, weight, ok := w.con.discOverride(i, k, l, j); ok {
			return label, weight
		}
	}
	L := w.s.L
	db := w.s.Index(i, j-1, 0)
	gb := w.s.Index(k, l-1, 0)
	d := w.s.Disc[db : db+L]
	g := w.s.Gap[gb : gb+L]
	label, best := -1, float32(0)
	for a := range d {
		if v := d[a] + g[a]; v > best {
			label, best = a, v
		}
	}
	return label, best
}
