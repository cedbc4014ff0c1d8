package decode

import "fmt"

// decodeQuartic is the O(n^4) system of combine, create gap and fill gap:
//
//	combine     [i,m] + [m,j]     -> [i,j]
//	create gap  [i,k] + [l,j]     -> [i,k,l,j]
//	fill gap    [i,k,l,j] + [k,l] -> [i,j]
//
// A discontinuous item of this system is only ever used by fill gap, so its
// score (C[i,k] + C[l,j]) + w(i,k,l,j) is computed where it is consumed and
// never stored: memory O(n^2). Its weight costs O(L) and is computed only
// when an O(1) upper bound of the fill-gap candidate beats the best
// candidate so far (monotone float arithmetic keeps this exact; the bound
// also bounds the weights constraints impose). con (nil for none) overrides
// the weights of the items that meet a constraint.
func decodeQuartic(a *arena, s *Scores, con *conTable, cancel canceller) (*Derivation, error) {
	n := s.N
	w, err := newWeights(a, s, withMaxDisc|withMaxGap)
	if err != nil {
		return nil, err
	}
	if con != nil {
		w.constrain(con)
	}
	c := newSpanChart(a, n)
	n1 := c.n1
	for span := 1; span <= n; span++ {
		if err := cancel.err(); err != nil {
			return nil, err
		}
		for i := 0; i+span <= n; i++ {
			j := i + span
			if span == 1 {
				c.set(i, j, w.cont[i*n1+j])
				continue
			}
			best := c.combine(i, j)
			maxDisc := w.maxDisc[i*n1+j]
			for k := i + 1; k < j-1; k++ {
				left := c.C[i*n1+k]
				for l := k + 1; l < j; l++ {
					outer := left + c.CT[j*n1+l]
					filler := c.C[k*n1+l]
					// An O(1) upper bound of disc(i,k,l,j): float addition
					// is monotone, so a sum using the bound bounds the sum
					// using the weight; it also bounds what constraints
					// impose (0, -Inf, or one label's disc + gap).
					bound := max(0, maxDisc+w.maxGap[k*n1+l])
					if (outer+bound)+filler <= best {
						continue
					}
					if v := (outer + w.disc(i, k, l, j)) + filler; v > best {
						best = v
					}
				}
			}
			c.set(i, j, best+w.cont[i*n1+j])
		}
	}
	if err := goalReached(c.at(0, n)); err != nil {
		return nil, err
	}
	r := &quarticRecoverer{w: w, c: c, b: newBuilder(n)}
	if _, err := r.recover(0, n); err != nil {
		return nil, err
	}
	return &Derivation{N: n, Score: c.at(0, n), Items: r.b.items}, nil
}

// quarticRecoverer rebuilds an n4 derivation. Recovery order: combine
// (smallest m), then fill gap (smallest k, then smallest l).
type quarticRecoverer struct {
	w *weights
	c *spanChart
	b builder
}

func (r *quarticRecoverer) recover(i, j int) (int, error) {
	c := r.c
	if idx, done, err := axiomOrCombine(&r.b, c, r.w, i, j, r.recover); done || err != nil {
		return idx, err
	}
	label, weight := r.w.contLabel(i, j)
	score := c.at(i, j)
	for k := i + 1; k < j-1; k++ {
		for l := k + 1; l < j; l++ {
			dl, dw := r.w.discLabel(i, k, l, j)
			dScore := float32(c.at(i, k)+c.at(l, j)) + dw
			if float32(dScore+c.at(k, l))+weight != score {
				continue
			}
			li, err := r.recover(i, k)
			if err != nil {
				return -1, err
			}
			ri, err := r.recover(l, j)
			if err != nil {
				return -1, err
			}
			di := r.b.add(discItem(i, k, l, j, dl, dw, dScore, CreateGap, li, ri))
			fi, err := r.recover(k, l)
			if err != nil {
				return -1, err
			}
			return r.b.add(contItem(i, j, label, weight, score, FillGap, di, fi)), nil
		}
	}
	return -1, fmt.Errorf("internal error: no antecedents reproduce item [%d,%d]", i, j)
}
