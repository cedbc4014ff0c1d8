package decode

import (
	"math"
	"time"
)

// fullChart is the chart of the O(n^5) and O(n^6) systems: the span chart
// plus one score for every discontinuous item [i,k,l,j]. The items of the
// outer extent [i,j] (j-i >= 3) live in one (j-i) x (j-i) block, row k-i,
// column l-i, so that every rule's inner loop runs over a contiguous row.
type fullChart struct {
	*spanChart
	w   *weights
	off []int // block offset of [i,j], -1 when j-i < 3
	D   []float32
	// tmp is scratch, one slot per position, after triPad slots of slack
	// (tmpPad) for maxAddTriEnd.
	tmp, tmpPad []float32
	// base is scratch for the ill-nested rules, one slot per position.
	base []int
	// Per-block scratch, (j-i) x (j-i) like a block: the items' label
	// weights.
	weight                          []float32
	illNoGap, wrapped, illNestedGap bool
}

func newFullChart(a *arena, v Variant, s *Scores, w *weights) *fullChart {
	n := s.N
	f := &fullChart{spanChart: newSpanChart(a, n), w: w, tmpPad: a.float32s(triPad + n + 1)}
	f.tmp = f.tmpPad[triPad:]
	f.weight = a.float32s(n * n)
	f.illNoGap = v == N5 || v == N6
	f.wrapped = v == N6WN || v == N6
	f.illNestedGap = v == N6
	f.off = a.intSlice(f.n1 * f.n1)
	f.base = a.intSlice(f.n1)
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
	// Every block [i,j] lies in D at off[i*n1+j]: the block kernels
	// (blockOuter, blockRows) rely on it for the antecedent blocks they read.
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

// workGauge estimates how far decodeFull is: the extents of length s
// cost about (n-s+1)·s^k, k = 3 for the O(n^5) variants and 4 for the
// O(n^6) ones (the blocks of an extent and the splits of each block).
type workGauge struct {
	words      int
	k          int
	total      float64
	done, told float64
	start      time.Time
	report     func(words int, done float64, elapsed time.Duration)
}

func newWorkGauge(n int, v Variant, report func(int, float64, time.Duration)) *workGauge {
	g := &workGauge{words: n, k: 4, report: report, start: time.Now()}
	if v == N5 || v == N5WN {
		g.k = 3
	}
	if report != nil {
		for s := 1; s <= n; s++ {
			g.total += g.cost(s)
		}
	}
	return g
}

func (g *workGauge) cost(s int) float64 {
	return float64(g.words-s+1) * math.Pow(float64(s), float64(g.k))
}

// span is called before the extents of length s are built: those before
// are done.
func (g *workGauge) span(s int) {
	if g.report == nil || s == 1 {
		return
	}
	g.done += g.cost(s - 1)
	if f := g.done / g.total; f-g.told >= 0.01 {
		g.told = f
		g.report(g.words, f, time.Since(g.start))
	}
}

// finish reports the whole chart built.
func (g *workGauge) finish() {
	if g.report != nil && g.told < 1 {
		g.told = 1
		g.report(g.words, 1, time.Since(g.start))
	}
}

// decodeFull runs the O(n^5)/O(n^6) systems. Cells are visited by outer
// extent length, then left end; within an extent [i,j], the rules whose
// antecedents have smaller extents are applied first (scattered into the
// block), then items are finalised row by row (see buildBlock), and the
// continuous item [i,j] comes last. con (nil for none) overrides the
// weights of the items that meet a constraint: the continuous table once,
// each block's discontinuous weights after they are computed.
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
	work := newWorkGauge(n, v, cancel.progress)
	for span := 1; span <= n; span++ {
		work.span(span)
		for i := 0; i+span <= n; i++ {
			if err := cancel.err(); err != nil {
				return nil, err
			}
			j := i + span
			if span == 1 {
				f.set(i, j, w.cont[i*n1+j])
				continue
			}
			best := f.combine(i, j)
			if span >= 3 {
				best = max(best, f.buildBlock(i, j))
				if f.illNoGap {
					best = max(best, f.illNestedNoGap(i, j))
				}
			}
			f.set(i, j, best+w.cont[i*n1+j])
		}
	}
	work.finish()
	if err := goalReached(f.at(0, n)); err != nil {
		return nil, err
	}
	r := &fullRecoverer{f: f, b: newBuilder(n)}
	if _, err := r.cont(0, n); err != nil {
		return nil, err
	}
	return &Derivation{N: n, Score: f.at(0, n), Items: r.b.items}, nil
}

// buildBlock computes every discontinuous item of outer extent [i,j] and
// returns the best fill-gap sum of the continuous item [i,j]:
// [i,m,n,j] + [m,n].
//
// Row k of the block (items [i,k,l,j], l = k+1..j-1) depends only on rows
// above it (shrink gap from the left, wrapped) and on cells to its right
// (shrink gap from the right). So the rules whose antecedents lie outside
// the block are scattered into it first (blockOuter, illNested), then rows
// are finalised top down (blockRows): each row gathers shrink right from
// its own right part, already final, and adds its label weights; once
// final it scatters shrink left and wrapped into the rows below, together
// with kept right, whose antecedents come from block [k,j]. The kernels
// work on whole vectors aligned to row ends and may write the unused cells
// before a row (see triPad).
func (f *fullChart) buildBlock(i, j int) float32 {
	n1, s := f.n1, j-i
	o := f.off[i*n1+j]
	D, C := f.D, f.C
	rows := s - 2 // k = i+1..j-2
	// create gap [i,k] + [l,j] writes every item; kept left
	// [i,k,l,m] + [m,j], l<m<j, gathers rows k = i+1..m-2 of block [i,m].
	blockOuter(D, o, s, C, f.CT, n1, i, f.off[i*n1+i+3:i*n1+j])
	if f.illNestedGap {
		f.illNested(i, j)
	}
	// Label weights of the whole block: for each k, the gap rows
	// gap[k, l-1, .] of l = k+1..j-1 are consecutive.
	ws, L := f.w.s, f.w.s.L
	W := f.weight[:s*s]
	db := ws.Index(i, j-1, 0)
	maxSumRowsTri(W, s+2, s+1, ws.Disc[db:db+L], ws.Gap, ws.Index(i+1, i+1, 0), (ws.N+1)*L, rows, rows)
	if f.w.con != nil {
		f.w.con.applyBlock(i, j, W)
	}
	// Rows top down: shrink gap from the right and the label weights
	// finish row k; then it scatters wrapped, kept right and shrink left
	// into the rows below.
	return blockRows(D, o, s, W, C, n1, i, f.off, f.wrapped)
}

// illNested scatters the three ill-nested rules with two discontinuous
// antecedents and a discontinuous consequent into the block of [i,j]. Their
// consequents fill prefixes of the block's rows (from the row start), so
// they run as end-aligned triangles (maxAddTriEnd, see triPad). Antecedents
// spread over one block per position are gathered into tmp first, through
// base: for a fixed m, base[x] locates the needed row of block x, less the
// column offset, so that each gathered item is D[base[x]+n].
func (f *fullChart) illNested(i, j int) {
	n1, s, D, base, tmp := f.n1, j-i, f.D, f.base, f.tmp
	o := f.off[i*n1+j]
	// gap centre: [i,m,l,n] + [m,k,n,j], i<m<k<l<n<j: rows k = m+1..n-2,
	// columns l = k+1..n-1; the addend D[m,k,n,j] walks down column n of
	// block [m,j], the second antecedent D[i,m,l,n] along the end of row m
	// of [i,n].
	for m := i + 1; m <= j-4; m++ {
		ob, sb := f.off[m*n1+j], j-m
		for n := m + 3; n <= j-1; n++ {
			oa, sa := f.off[i*n1+n], n-i
			maxAddTriEnd(D, o+(m+1-i)*s+(n-i), s, D, ob+sb+(n-m), sb, D, oa+(m-i+1)*sa, 0, n-m-2, n-m-2)
		}
	}
	// gap right: [i,m,n,k] + [m,n,l,j], i<m<n<k<l<j: rows k = n+1..j-2,
	// columns l = k+1..j-1; the addends D[i,m,n,k] (one block per k) are
	// gathered first, the second antecedents end row n of block [m,j].
	for m := i + 1; m <= j-4; m++ {
		for k := m + 2; k <= j-2; k++ {
			base[k] = f.off[i*n1+k] + (m-i)*(k-i) - i
		}
		ob, sb := f.off[m*n1+j], j-m
		for n := m + 1; n <= j-3; n++ {
			for k := n + 1; k <= j-2; k++ {
				tmp[k] = D[base[k]+n]
			}
			maxAddTriEnd(D, o+(n+2-i)*s, s, tmp, n+1, 1, D, ob+(n-m+1)*sb, 0, j-n-2, j-n-2)
		}
	}
	// gap left: [i,k,m,n] + [l,m,n,j], i<k<l<m<n<j: rows k = i+1..m-2,
	// columns l = k+1..m-1; the addend D[i,k,m,n] walks down column m of
	// block [i,n], the antecedents D[l,m,n,j] (one block per l) are
	// gathered first into the padded tmp.
	for m := i + 3; m <= j-2; m++ {
		for l := i + 2; l <= m-1; l++ {
			base[l] = f.off[l*n1+j] + (m-l)*(j-l) - l
		}
		for n := m + 1; n <= j-1; n++ {
			for l := i + 2; l <= m-1; l++ {
				tmp[l] = D[base[l]+n]
			}
			oa, sa := f.off[i*n1+n], n-i
			maxAddTriEnd(D, o+s+(m-i), s, D, oa+sa+(m-i), sa, f.tmpPad, m+triPad, 0, m-i-2, m-i-2)
		}
	}
}

// illNestedNoGap returns the best antecedent sum of the continuous item
// [i,j] by ill-nested, no gap (n5 and n6): [i,m,n,o] + [m,n,o,j],
// i<m<n<o<j. For each m, base[o] locates row m of block [i,o], less i, so
// that D[i,m,n,o] is D[base[o]+n]; the second antecedents D[m,n,o,j],
// o = n+1..j-1, are row n-m of block [m,j].
func (f *fullChart) illNestedNoGap(i, j int) float32 {
	n1, D, best := f.n1, f.D, negInf
	base := f.base
	for m := i + 1; m <= j-3; m++ {
		for o := m + 2; o < j; o++ {
			base[o] = f.off[i*n1+o] + (m-i)*(o-i) - i
		}
		B, sb := f.block(m, j), j-m
		for n := m + 1; n <= j-2; n++ {
			row := B[(n-m)*sb+(n+1-m) : (n-m)*sb+sb]
			bs := base[n+1 : j]
			bs = bs[:len(row)]
			for x, b := range row {
				if v := D[bs[x]+n] + b; v > best {
					best = v
				}
			}
		}
	}
	return best
}
