package decode

// fullChart is the chart of the O(n^5) and O(n^6) systems: the span chart
// plus one score for every discontinuous item [i,k,l,j]. The items of the
// outer extent [i,j] (j-i >= 3) live in one (j-i) x (j-i) block, row k-i,
// column l-i, so that every rule's inner loop runs over a contiguous row.
type fullChart struct {
	*spanChart
	w   *weights
	off []int // block offset of [i,j], -1 when j-i < 3
	D   []float32
	tmp []float32 // scratch, one slot per position
	// Per-block scratch, (j-i) x (j-i) like a block: the items' label
	// weights, and the finished scores transposed (column l as a row) so
	// that shrink-from-the-left reads them contiguously.
	weight, transposed              []float32
	illNoGap, wrapped, illNestedGap bool
}

func newFullChart(a *arena, v Variant, s *Scores, w *weights) *fullChart {
	n := s.N
	f := &fullChart{spanChart: newSpanChart(a, n), w: w, tmp: a.float32s(n + 1)}
	f.weight = a.float32s(n * n)
	f.transposed = a.float32s(n * n)
	f.illNoGap = v == N5 || v == N6
	f.wrapped = v == N6WN || v == N6
	f.illNestedGap = v == N6
	f.off = a.intSlice(f.n1 * f.n1)
	total := 0
	for i := 0; i <= n; i++ {
		for j := i; j <= n; j++ {
			f.off[i*f.n1+j] = -1
			if j-i >= 3 {
				f.off[i*f.n1+j] = total
				total += (j - i) * (j - i)
			}
		}
	}
	f.D = a.float32s(total)
	return f
}

// block returns the items of outer extent [i,j]: D[i,k,l,j] is at
// (k-i)*(j-i) + (l-i).
func (f *fullChart) block(i, j int) []float32 {
	o := f.off[i*f.n1+j]
	return f.D[o : o+(j-i)*(j-i)]
}

// d returns the score of the discontinuous item [i,k,l,j].
func (f *fullChart) d(i, k, l, j int) float32 {
	return f.D[f.off[i*f.n1+j]+(k-i)*(j-i)+(l-i)]
}

// decodeFull runs the O(n^5)/O(n^6) systems. Cells are visited by outer
// extent length, then left end; within an extent [i,j], the rules whose
// antecedents have smaller extents are applied first (scattered into the
// block), then items are finalised by decreasing gap size, gathering the
// shrink rules and scattering the wrapped rule, and the continuous item
// [i,j] comes last.
func decodeFull(a *arena, v Variant, s *Scores, cancel canceller) (*Derivation, error) {
	n := s.N
	w, err := newWeights(a, s, checkDisc|checkGap)
	if err != nil {
		return nil, err
	}
	f := newFullChart(a, v, s, w)
	n1 := f.n1
	for span := 1; span <= n; span++ {
		for i := 0; i+span <= n; i++ {
			if err := cancel.err(); err != nil {
				return nil, err
			}
			j := i + span
			if span == 1 {
				f.set(i, j, w.cont[i*n1+j])
				continue
			}
			if span >= 3 {
				f.buildBlock(i, j)
			}
			f.set(i, j, f.bestContinuous(i, j)+w.cont[i*n1+j])
		}
	}
	r := &fullRecoverer{f: f, b: newBuilder(n)}
	if _, err := r.cont(0, n); err != nil {
		return nil, err
	}
	return &Derivation{N: n, Score: f.at(0, n), Items: r.b.items}, nil
}

// buildBlock computes every discontinuous item of outer extent [i,j].
func (f *fullChart) buildBlock(i, j int) {
	n1, s := f.n1, j-i
	T := f.block(i, j)
	for x := range T {
		T[x] = negInf
	}
	// create gap: [i,k] + [l,j].
	for k := i + 1; k <= j-2; k++ {
		row := T[(k-i)*s+(k+1-i) : (k-i)*s+s]
		maxAdd(row, f.C[i*n1+k], f.CT[j*n1+k+1:j*n1+j])
	}
	// kept right: [i,m] + [m,k,l,j], i<m<k.
	for m := i + 1; m <= j-3; m++ {
		B, sb, c := f.block(m, j), j-m, f.C[i*n1+m]
		for k := m + 1; k <= j-2; k++ {
			maxAdd(T[(k-i)*s+(k+1-i):(k-i)*s+s], c, B[(k-m)*sb+(k+1-m):(k-m)*sb+sb])
		}
	}
	// kept left: [i,k,l,m] + [m,j], l<m<j.
	for m := i + 3; m <= j-1; m++ {
		A, sa, c := f.block(i, m), m-i, f.C[m*n1+j]
		for k := i + 1; k <= m-2; k++ {
			maxAdd(T[(k-i)*s+(k+1-i):(k-i)*s+(m-i)], c, A[(k-i)*sa+(k+1-i):(k-i)*sa+(m-i)])
		}
	}
	if f.illNestedGap {
		f.illNested(i, j, T)
	}
	// Label weights of the whole block: for each k, the gap rows
	// gap[k, l-1, .] of l = k+1..j-1 are consecutive.
	L := f.w.s.L
	W, TT := f.weight[:s*s], f.transposed[:s*s]
	db := f.w.s.Index(i, j-1, 0)
	for k := i + 1; k <= j-2; k++ {
		maxSumRows(W[(k-i)*s+(k+1-i):(k-i)*s+s], f.w.s.Disc[db:db+L], f.w.s.Gap[f.w.s.Index(k, k, 0):])
	}
	// Finalise by decreasing gap: shrink rules gather from larger gaps of
	// the same block, which are final; wrapped scatters into smaller ones.
	for g := s - 2; g >= 1; g-- {
		for k := i + 1; k+g <= j-1; k++ {
			l := k + g
			idx := (k-i)*s + (l - i)
			v := T[idx]
			// shrink gap from the left: [i,m,l,j] + [m,k], i<m<k.
			if x := maxSum(TT[(l-i)*s+1:(l-i)*s+(k-i)], f.CT[k*n1+i+1:k*n1+k]); x > v {
				v = x
			}
			// shrink gap from the right: [i,k,m,j] + [l,m], l<m<j.
			if y := maxSum(T[(k-i)*s+(l+1-i):(k-i)*s+s], f.C[l*n1+l+1:l*n1+j]); y > v {
				v = y
			}
			v += W[idx]
			T[idx] = v
			TT[(l-i)*s+(k-i)] = v
			// wrapped: [i,k,l,j] + [k,k2,l2,l] -> [i,k2,l2,j].
			if f.wrapped && g >= 3 {
				B, sb := f.block(k, l), l-k
				for k2 := k + 1; k2 <= l-2; k2++ {
					maxAdd(T[(k2-i)*s+(k2+1-i):(k2-i)*s+(l-i)], v, B[(k2-k)*sb+(k2+1-k):(k2-k)*sb+sb])
				}
			}
		}
	}
}

// illNested scatters the three ill-nested rules with two discontinuous
// antecedents and a discontinuous consequent into the block T of [i,j].
func (f *fullChart) illNested(i, j int, T []float32) {
	s := j - i
	// gap centre: [i,m,l,n] + [m,k,n,j], i<m<k<l<n<j.
	for m := i + 1; m <= j-4; m++ {
		B, sb := f.block(m, j), j-m
		for n := m + 3; n <= j-1; n++ {
			A, sa := f.block(i, n), n-i
			rowA := A[(m-i)*sa : (m-i)*sa+sa]
			for k := m + 1; k <= n-2; k++ {
				maxAdd(T[(k-i)*s+(k+1-i):(k-i)*s+(n-i)], B[(k-m)*sb+(n-m)], rowA[k+1-i:n-i])
			}
		}
	}
	// gap right: [i,m,n,k] + [m,n,l,j], i<m<n<k<l<j.
	for m := i + 1; m <= j-4; m++ {
		B, sb := f.block(m, j), j-m
		for n := m + 1; n <= j-3; n++ {
			rowB := B[(n-m)*sb : (n-m)*sb+sb]
			for k := n + 1; k <= j-2; k++ {
				maxAdd(T[(k-i)*s+(k+1-i):(k-i)*s+s], f.d(i, m, n, k), rowB[k+1-m:sb])
			}
		}
	}
	// gap left: [i,k,m,n] + [l,m,n,j], i<k<l<m<n<j.
	for m := i + 3; m <= j-2; m++ {
		for n := m + 1; n <= j-1; n++ {
			for l := i + 2; l <= m-1; l++ {
				f.tmp[l] = f.d(l, m, n, j)
			}
			A, sa := f.block(i, n), n-i
			for k := i + 1; k <= m-2; k++ {
				maxAdd(T[(k-i)*s+(k+1-i):(k-i)*s+(m-i)], A[(k-i)*sa+(m-i)], f.tmp[k+1:m])
			}
		}
	}
}

// bestContinuous returns the best antecedent sum of the continuous item
// [i,j]: combine, fill gap and, in n5/n6, ill-nested with no gap.
func (f *fullChart) bestContinuous(i, j int) float32 {
	n1, s := f.n1, j-i
	best := f.combine(i, j)
	if s < 3 {
		return best
	}
	T := f.block(i, j)
	// fill gap: [i,m,n,j] + [m,n].
	for m := i + 1; m <= j-2; m++ {
		if v := maxSum(T[(m-i)*s+(m+1-i):(m-i)*s+s], f.C[m*n1+m+1:m*n1+j]); v > best {
			best = v
		}
	}
	if !f.illNoGap {
		return best
	}
	// ill-nested, no gap: [i,m,n,o] + [m,n,o,j], i<m<n<o<j.
	for m := i + 1; m <= j-3; m++ {
		B, sb := f.block(m, j), j-m
		for n := m + 1; n <= j-2; n++ {
			rowB := B[(n-m)*sb+(n+1-m) : (n-m)*sb+sb]
			for o := n + 1; o <= j-1; o++ {
				if v := f.d(i, m, n, o) + rowB[o-n-1]; v > best {
					best = v
				}
			}
		}
	}
	return best
}
