package decode

import "fmt"

// fullRecoverer rebuilds a derivation of the full chart. For each item the
// rules are tried in the order of the Rule constants and, within a rule,
// split indices in increasing order; the first antecedent pair whose sum
// plus the item's weight reproduces the stored score bit for bit is taken.
// Recursion depth is bounded by the number of items of a derivation (< 2n).
type fullRecoverer struct {
	f *fullChart
	b builder
}

// reproduces reports whether antecedent scores a and b rebuild score with
// the item's weight, with the forward pass's float32 rounding.
func reproduces(a, b, weight, score float32) bool { return float32(a+b)+weight == score }

func (r *fullRecoverer) cont(i, j int) (int, error) {
	f := r.f
	label, weight := f.w.contLabel(i, j)
	score := f.at(i, j)
	if j == i+1 {
		return r.b.add(contItem(i, j, label, weight, score, Axiom, -1, -1)), nil
	}
	finish := func(rule Rule, a, b ante) (int, error) {
		left, right, err := r.pair(a, b)
		if err != nil {
			return -1, err
		}
		return r.b.add(contItem(i, j, label, weight, score, rule, left, right)), nil
	}
	for m := i + 1; m < j; m++ {
		if reproduces(f.at(i, m), f.at(m, j), weight, score) {
			return finish(Combine, r.contP(i, m), r.contP(m, j))
		}
	}
	for m := i + 1; m <= j-2; m++ {
		for n := m + 1; n <= j-1; n++ {
			if j-i >= 3 && reproduces(f.d(i, m, n, j), f.at(m, n), weight, score) {
				return finish(FillGap, r.discP(i, m, n, j), r.contP(m, n))
			}
		}
	}
	if f.illNoGap {
		for m := i + 1; m <= j-3; m++ {
			for n := m + 1; n <= j-2; n++ {
				for o := n + 1; o <= j-1; o++ {
					if reproduces(f.d(i, m, n, o), f.d(m, n, o, j), weight, score) {
						return finish(IllNoGap, r.discP(i, m, n, o), r.discP(m, n, o, j))
					}
				}
			}
		}
	}
	return -1, fmt.Errorf("internal error: no antecedents reproduce item [%d,%d]", i, j)
}

// ante is a deferred recovery of one antecedent.
type ante func() (int, error)

func (r *fullRecoverer) contP(i, j int) ante { return func() (int, error) { return r.cont(i, j) } }
func (r *fullRecoverer) discP(i, k, l, j int) ante {
	return func() (int, error) { return r.disc(i, k, l, j) }
}

// pair recovers two antecedents, left first.
func (r *fullRecoverer) pair(a, b ante) (int, int, error) {
	left, err := a()
	if err != nil {
		return -1, -1, err
	}
	right, err := b()
	return left, right, err
}

func (r *fullRecoverer) disc(i, k, l, j int) (int, error) {
	f := r.f
	label, weight := f.w.discLabel(i, k, l, j)
	score := f.d(i, k, l, j)
	finish := func(rule Rule, a, b ante) (int, error) {
		left, right, err := r.pair(a, b)
		if err != nil {
			return -1, err
		}
		return r.b.add(discItem(i, k, l, j, label, weight, score, rule, left, right)), nil
	}
	if reproduces(f.at(i, k), f.at(l, j), weight, score) {
		return finish(CreateGap, r.contP(i, k), r.contP(l, j))
	}
	for m := i + 1; m < k; m++ {
		if j-m >= 3 && reproduces(f.at(i, m), f.d(m, k, l, j), weight, score) {
			return finish(KeptRight, r.contP(i, m), r.discP(m, k, l, j))
		}
	}
	for m := l + 1; m < j; m++ {
		if reproduces(f.d(i, k, l, m), f.at(m, j), weight, score) {
			return finish(KeptLeft, r.discP(i, k, l, m), r.contP(m, j))
		}
	}
	for m := i + 1; m < k; m++ {
		if reproduces(f.d(i, m, l, j), f.at(m, k), weight, score) {
			return finish(ShrinkLeft, r.discP(i, m, l, j), r.contP(m, k))
		}
	}
	for m := l + 1; m < j; m++ {
		if reproduces(f.d(i, k, m, j), f.at(l, m), weight, score) {
			return finish(ShrinkRight, r.discP(i, k, m, j), r.contP(l, m))
		}
	}
	if f.wrapped {
		for m := i + 1; m < k; m++ {
			for n := l + 1; n < j; n++ {
				if reproduces(f.d(i, m, n, j), f.d(m, k, l, n), weight, score) {
					return finish(Wrapped, r.discP(i, m, n, j), r.discP(m, k, l, n))
				}
			}
		}
	}
	if f.illNestedGap {
		for m := i + 1; m < k; m++ {
			for n := l + 1; n < j; n++ {
				if reproduces(f.d(i, m, l, n), f.d(m, k, n, j), weight, score) {
					return finish(IllGapCentre, r.discP(i, m, l, n), r.discP(m, k, n, j))
				}
			}
		}
		for m := i + 1; m < k; m++ {
			for n := m + 1; n < k; n++ {
				if reproduces(f.d(i, m, n, k), f.d(m, n, l, j), weight, score) {
					return finish(IllGapRight, r.discP(i, m, n, k), r.discP(m, n, l, j))
				}
			}
		}
		for m := l + 1; m < j; m++ {
			for n := m + 1; n < j; n++ {
				if reproduces(f.d(i, k, m, n), f.d(l, m, n, j), weight, score) {
					return finish(IllGapLeft, r.discP(i, k, m, n), r.discP(l, m, n, j))
				}
			}
		}
	}
	return -1, fmt.Errorf("internal error: no antecedents reproduce item [%d,%d,%d,%d]", i, k, l, j)
}
