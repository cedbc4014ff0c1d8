package decode

import "fmt"

// spanChart holds the scores of continuous items: C[i*n1+j] for [i,j], and
// its transpose CT[j*n1+i] so that both operands of combine are read
// contiguously.
type spanChart struct {
	n, n1 int
	C, CT []float32
}

func newSpanChart(a *arena, n int) *spanChart {
	n1 := n + 1
	return &spanChart{n: n, n1: n1, C: a.float32s(n1 * n1), CT: a.float32s(n1 * n1)}
}

func (c *spanChart) at(i, j int) float32 { return c.C[i*c.n1+j] }

func (c *spanChart) set(i, j int, v float32) {
	c.C[i*c.n1+j] = v
	c.CT[j*c.n1+i] = v
}

// combine returns max over i<m<j of C[i,m] + C[m,j]. Cost O(j-i).
func (c *spanChart) combine(i, j int) float32 {
	return maxSum(c.C[i*c.n1+i+1:i*c.n1+j], c.CT[j*c.n1+i+1:j*c.n1+j])
}

// recoverCombine returns the smallest split m whose combine reproduces the
// score of [i,j] bit for bit, or -1.
func (c *spanChart) recoverCombine(i, j int, weight, score float32) int {
	for m := i + 1; m < j; m++ {
		if float32(c.at(i, m)+c.at(m, j))+weight == score {
			return m
		}
	}
	return -1
}

// decodeContinuous is plain span CKY: [i,m] + [m,j] -> [i,j].
// Time O(n^3 + n^2 L), memory O(n^2). con (nil for none) overrides the
// weights of the items that meet a constraint.
func decodeContinuous(a *arena, s *Scores, con *conTable, cancel canceller) (*Derivation, error) {
	n := s.N
	w, err := newWeights(a, s, 0)
	if err != nil {
		return nil, err
	}
	if con != nil {
		w.constrain(con)
	}
	c := newSpanChart(a, n)
	for span := 1; span <= n; span++ {
		if err := cancel.err(); err != nil {
			return nil, err
		}
		for i := 0; i+span <= n; i++ {
			j := i + span
			if span == 1 {
				c.set(i, j, w.cont[i*w.n1+j])
				continue
			}
			c.set(i, j, c.combine(i, j)+w.cont[i*w.n1+j])
		}
	}
	if err := goalReached(c.at(0, n)); err != nil {
		return nil, err
	}
	r := &contRecoverer{w: w, c: c, b: newBuilder(n)}
	if _, err := r.recover(0, n); err != nil {
		return nil, err
	}
	return &Derivation{N: n, Score: c.at(0, n), Items: r.b.items}, nil
}

// contRecoverer rebuilds a continuous derivation from the span chart.
type contRecoverer struct {
	w *weights
	c *spanChart
	b builder
}

// recover appends the derivation of [i,j] (antecedents first) and returns
// the index of its item. Recursion depth is at most n.
func (r *contRecoverer) recover(i, j int) (int, error) {
	if idx, done, err := axiomOrCombine(&r.b, r.c, r.w, i, j, r.recover); done || err != nil {
		return idx, err
	}
	return -1, fmt.Errorf("internal error: no antecedents reproduce item [%d,%d]", i, j)
}

// axiomOrCombine recovers the two cases every continuous item starts with:
// a single word (an axiom), and combine (smallest split first), recursing
// through rec. It reports done=false when neither reproduces the item's
// score, leaving the variant's other rules to the caller.
func axiomOrCombine(b *builder, c *spanChart, w *weights, i, j int, rec func(i, j int) (int, error)) (idx int, done bool, err error) {
	label, weight := w.contLabel(i, j)
	score := c.at(i, j)
	if j == i+1 {
		return b.add(contItem(i, j, label, weight, score, Axiom, -1, -1)), true, nil
	}
	m := c.recoverCombine(i, j, weight, score)
	if m < 0 {
		return -1, false, nil
	}
	left, err := rec(i, m)
	if err != nil {
		return -1, true, err
	}
	right, err := rec(m, j)
	if err != nil {
		return -1, true, err
	}
	return b.add(contItem(i, j, label, weight, score, Combine, left, right)), true, nil
}
