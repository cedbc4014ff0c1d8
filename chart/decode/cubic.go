package decode

import "fmt"

// cubicChart adds to the span chart the forgetful items of the cubic
// algorithm: bottom[(i*n1+l)*L+A] is the best score of a discontinuous
// constituent A whose left block [i,k) and gap filler [k,l) are built, for
// any k, before its right block and its own disc weight are added.
type cubicChart struct {
	*spanChart
	L         int
	bottom    []float32
	maxBottom []float32 // max over A of bottom, for pruning
	pairs     []float32 // scratch, one slot per split point
	byLabel   []float32 // scratch, one slot per label
}

// decodeCubic is the O(n^3) algorithm (decoder.md, "The cubic algorithm"):
//
//	combine           top[i,m] + top[m,j]    -> top[i,j]
//	create partial    top[i,k] + top[k,l]    -> bottom[i,l,A]  (+ gap[k,l-1,A])
//	complete          bottom[i,l,A] + top[l,j] -> top[i,j]    (+ disc[i,j-1,A])
//
// Time O(n^3 L), memory O(n^2 L). Candidates of complete are skipped when an
// O(1) upper bound (max over A of bottom and disc) cannot beat the best
// candidate found so far; the bound is exact arithmetic monotonicity, so the
// result is unchanged.
func decodeCubic(a *arena, s *Scores, cancel canceller) (*Derivation, error) {
	n, L := s.N, s.L
	w, err := newWeights(a, s, withMaxDisc|checkGap)
	if err != nil {
		return nil, err
	}
	c := &cubicChart{spanChart: newSpanChart(a, n), L: L}
	n1 := c.n1
	c.bottom = a.float32s(n1 * n1 * L)
	c.maxBottom = a.float32s(n1 * n1)
	c.pairs = a.float32s(n1)
	c.byLabel = a.float32s(L)
	for span := 1; span <= n; span++ {
		if err := cancel.err(); err != nil {
			return nil, err
		}
		for i := 0; i+span <= n; i++ {
			j := i + span
			if span >= 2 {
				c.createPartial(s, i, j)
			}
			if span == 1 {
				c.set(i, j, w.cont[i*n1+j])
				continue
			}
			best := c.combine(i, j)
			if span >= 3 {
				best = c.complete(s, i, j, best)
			}
			c.set(i, j, best+w.cont[i*n1+j])
		}
	}
	r := &cubicRecoverer{s: s, w: w, c: c, b: newBuilder(n)}
	if _, err := r.recover(0, n); err != nil {
		return nil, err
	}
	return &Derivation{N: n, Score: c.at(0, n), Items: r.b.items}, nil
}

// createPartial fills bottom[i,l,.] = max over i<k<l of
// (top[i,k] + top[k,l]) + gap[k,l-1,.].
func (c *cubicChart) createPartial(s *Scores, i, l int) {
	L, n1 := c.L, c.n1
	bot := c.bottom[(i*n1+l)*L : (i*n1+l+1)*L]
	// pairs[k-i-1] = top[i,k] + top[k,l]; the gap rows gap[k,l-1,.] of
	// successive k lie N*L floats apart.
	pairs := c.pairs[:l-i-1]
	left := c.C[i*n1+i+1 : i*n1+l]
	right := c.CT[l*n1+i+1 : l*n1+l]
	for x := range pairs {
		pairs[x] = left[x] + right[x]
	}
	maxPlusRows(bot, pairs, s.Gap[s.Index(i+1, l-1, 0):], s.N*L)
	c.maxBottom[i*n1+l], _ = rowMax(bot)
}

// complete returns the best of best and of every
// disc[i,j-1,A] + (bottom[i,l,A] + top[l,j]) for i+1<l<j: the max over l is
// one max-plus product of the row vector top[.,j] with the bottom rows of
// [i,.], the max over A a max-plus dot product with disc.
func (c *cubicChart) complete(s *Scores, i, j int, best float32) float32 {
	L, n1 := c.L, c.n1
	db := s.Index(i, j-1, 0)
	byLabel := c.byLabel
	maxPlusRows(byLabel, c.CT[j*n1+i+2:j*n1+j], c.bottom[(i*n1+i+2)*L:], L)
	if v := maxSum(byLabel, s.Disc[db:db+L]); v > best {
		best = v
	}
	return best
}

// cubicRecoverer rebuilds the derivation of the cubic chart in the rule
// vocabulary of n4: a completed discontinuous constituent A becomes the item
// [A,i,k,l,j] built by create gap from [i,k] and [l,j], and [i,j] is built by
// fill gap from it and [k,l]. Recovery order: combine (smallest m), then
// complete (smallest l, then lowest A, then smallest k).
type cubicRecoverer struct {
	s *Scores
	w *weights
	c *cubicChart
	b builder
}

func (r *cubicRecoverer) recover(i, j int) (int, error) {
	c, s, L := r.c, r.s, r.c.L
	if idx, done, err := axiomOrCombine(&r.b, c.spanChart, r.w, i, j, r.recover); done || err != nil {
		return idx, err
	}
	label, weight := r.w.contLabel(i, j)
	score := c.at(i, j)
	db := s.Index(i, j-1, 0)
	for l := i + 2; l < j; l++ {
		right := c.at(l, j)
		bot := c.bottom[(i*c.n1+l)*L : (i*c.n1+l+1)*L]
		for a, bv := range bot {
			if float32(s.Disc[db+a]+float32(bv+right))+weight != score {
				continue
			}
			for k := i + 1; k < l; k++ {
				if float32(c.at(i, k)+c.at(k, l))+s.Gap[s.Index(k, l-1, a)] != bv {
					continue
				}
				dw := s.Disc[db+a] + s.Gap[s.Index(k, l-1, a)]
				li, err := r.recover(i, k)
				if err != nil {
					return -1, err
				}
				ri, err := r.recover(l, j)
				if err != nil {
					return -1, err
				}
				dScore := float32(c.at(i, k)+c.at(l, j)) + dw
				di := r.b.add(discItem(i, k, l, j, a, dw, dScore, CreateGap, li, ri))
				fi, err := r.recover(k, l)
				if err != nil {
					return -1, err
				}
				return r.b.add(contItem(i, j, label, weight, score, FillGap, di, fi)), nil
			}
		}
	}
	return -1, fmt.Errorf("internal error: no antecedents reproduce item [%d,%d]", i, j)
}
