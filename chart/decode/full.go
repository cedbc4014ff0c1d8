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
// [i,j] comes last. con (nil for none) overrides the weights of the items
// that meet a constraint: the continuous table once, each block's
// discontinuous weights after they are computed.
func decodeFull(a *arena, v Variant, s *Scores, con *conTable, cancel canceller) (*Derivation, error) {
	n := s.N
	w, err := newWeights(a, s, checkDisc|checkGap)
	if err != nil {
		return nil, err
	}
	if con != nil {
		w.constrain(con)
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
	if err := goalReached(f.at(0, n)); err != nil {
		return nil, err
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
	// Scatter rules write triangles of T: row k (from column l = k+1)
	// starts at (k-i)*s + (k+1-i), one row s+1 cells after the previous.
	//
	// create gap: [i,k] + [l,j] for k = i+1.., l = k+1..j-1.
	maxAddTri(T[s+2:], s+1, f.C[i*n1+i+1:], 1, f.CT[j*n1+i+2:], 1, s-2, s-2)
	// kept right: [i,m] + [m,k,l,j], i<m<k: rows k = m+1..j-2.
	for m := i + 1; m <= j-3; m++ {
		B, sb := f.block(m, j), j-m
		maxAddTri(T[(m+1-i)*s+(m+2-i):], s+1, f.C[i*n1+m:], 0, B[sb+2:], sb+1, j-m-2, j-m-2)
	}
	// kept left: [i,k,l,m] + [m,j], l<m<j: rows k = i+1..m-2.
	for m := i + 3; m <= j-1; m++ {
		A, sa := f.block(i, m), m-i
		maxAddTri(T[s+2:], s+1, f.C[m*n1+j:], 0, A[sa+2:], sa+1, m-i-2, m-i-2)
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
	if f.w.con != nil {
		f.w.con.applyBlock(i, j, W)
	}
	// Finalise by decreasing gap: shrink rules gather from larger gaps of
	// the same block, which are final; wrapped scatters into smaller ones.
	for g := s - 2; g >= 1; g-- {
		for k := i + 1; k+g <= j-1; k++ {
			l := k + g
			idx := (k-i)*s + (l - i)
			v := T[idx]
			// shrink gap from the left: [i,m,l,j] + [m,k], i<m<k; and
			// from the right: [i,k,m,j] + [l,m], l<m<j. These rows are
			// short (a few cells on average), where plain loops beat a
			// kernel call.
			tt := TT[(l-i)*s+1 : (l-i)*s+(k-i)]
			ct := f.CT[k*n1+i+1 : k*n1+k]
			ct = ct[:len(tt)]
			for x, a := range tt {
				v = max(v, a+ct[x])
			}
			tr := T[(k-i)*s+(l+1-i) : (k-i)*s+s]
			cr := f.C[l*n1+l+1 : l*n1+j]
			cr = cr[:len(tr)]
			for x, a := range tr {
				v = max(v, a+cr[x])
			}
			v += W[idx]
			T[idx] = v
			TT[(l-i)*s+(k-i)] = v
			// wrapped: [i,k,l,j] + [k,k2,l2,l] -> [i,k2,l2,j], rows
			// k2 = k+1..l-2, columns l2 = k2+1..l-1.
			if f.wrapped && g >= 3 {
				B, sb := f.block(k, l), l-k
				maxAddTri(T[(k+1-i)*s+(k+2-i):], s+1, T[idx:], 0, B[sb+2:], sb+1, l-k-2, l-k-2)
			}
		}
	}
}

// illNested scatters the three ill-nested rules with two discontinuous
// antecedents and a discontinuous consequent into the block T of [i,j].
func (f *fullChart) illNested(i, j int, T []float32) {
	s := j - i
	// gap centre: [i,m,l,n] + [m,k,n,j], i<m<k<l<n<j: rows k = m+1..n-2,
	// columns l = k+1..n-1; the addend D[m,k,n,j] walks down column n of
	// block [m,j], the second antecedent D[i,m,l,n] along row m of [i,n].
	for m := i + 1; m <= j-4; m++ {
		B, sb := f.block(m, j), j-m
		for n := m + 3; n <= j-1; n++ {
			A, sa := f.block(i, n), n-i
			maxAddTri(T[(m+1-i)*s+(m+2-i):], s+1, B[sb+(n-m):], sb, A[(m-i)*sa+(m+2-i):], 1, n-m-2, n-m-2)
		}
	}
	// gap right: [i,m,n,k] + [m,n,l,j], i<m<n<k<l<j: rows k = n+1..j-2,
	// columns l = k+1..j-1; the addends D[i,m,n,k] (one block per k) are
	// gathered first.
	for m := i + 1; m <= j-4; m++ {
		B, sb := f.block(m, j), j-m
		for n := m + 1; n <= j-3; n++ {
			for k := n + 1; k <= j-2; k++ {
				f.tmp[k] = f.d(i, m, n, k)
			}
			maxAddTri(T[(n+1-i)*s+(n+2-i):], s+1, f.tmp[n+1:], 1, B[(n-m)*sb+(n+2-m):], 1, j-n-2, j-n-2)
		}
	}
	// gap left: [i,k,m,n] + [l,m,n,j], i<k<l<m<n<j: rows k = i+1..m-2,
	// columns l = k+1..m-1; the antecedents D[l,m,n,j] (one block per l)
	// are gathered first.
	for m := i + 3; m <= j-2; m++ {
		for n := m + 1; n <= j-1; n++ {
			for l := i + 2; l <= m-1; l++ {
				f.tmp[l] = f.d(l, m, n, j)
			}
			A, sa := f.block(i, n), n-i
			maxAddTri(T[s+2:], s+1, A[sa+(m-i):], sa, f.tmp[i+2:], 1, m-i-2, m-i-2)
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
			// D[i,m,n,o] for o = n+1..j-1 lie in one block each: gather.
			for o := n + 1; o <= j-1; o++ {
				f.tmp[o] = f.D[f.off[i*n1+o]+(m-i)*(o-i)+(n-i)]
			}
			if v := maxSum(f.tmp[n+1:j], B[(n-m)*sb+(n+1-m):(n-m)*sb+sb]); v > best {
				best = v
			}
		}
	}
	return best
}
