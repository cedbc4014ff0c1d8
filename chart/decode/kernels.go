package decode

// The inner loops that dominate every chart: max-plus updates and
// reductions of rows, and for the full chart whole-block kernels (the
// scatter rules of a block, its row-by-row finalisation, its label
// weights). kernels_amd64.s implements them with SSE (4 floats at a time,
// part of the amd64 baseline, so no CPU check is needed), and the label
// weights also with AVX2 where CPUID reports it; kernels_generic.go, with
// kernels_ref.go, is the portable version (wasm, and -tags purego). Both
// give bit-identical results: max and float32 addition are the same
// operations in either form, and no NaN reaches the charts.

// maxAdd sets dst[x] = max(dst[x], a + src[x]) for x < len(dst).
// It panics if src is shorter than dst.
func maxAdd(dst []float32, a float32, src []float32) {
	if len(dst) == 0 {
		return
	}
	src = src[:len(dst)]
	maxAddKernel(&dst[0], a, &src[0], len(dst))
}

// maxSum returns max over x of x[i] + y[i] (-Inf when x is empty).
// It panics if y is shorter than x.
func maxSum(x, y []float32) float32 {
	if len(x) == 0 {
		return negInf
	}
	y = y[:len(x)]
	return maxSumKernel(&x[0], &y[0], len(x))
}

// rowMax returns the largest value of x (-Inf when empty) and whether every
// value is finite and within ±MaxScore.
func rowMax(x []float32) (float32, bool) {
	if len(x) == 0 {
		return negInf, true
	}
	return rowMaxKernel(&x[0], len(x))
}

// maxPlusRows sets dst[x] = max over r < len(p) of p[r] + rows[r*stride+x]
// for x < len(dst): a max-plus product of the vector p with len(p) rows of
// a matrix stored stride floats apart. It panics when p is empty or rows is
// too short.
func maxPlusRows(dst, p, rows []float32, stride int) {
	if len(dst) == 0 {
		return
	}
	rows = rows[:(len(p)-1)*stride+len(dst)]
	maxPlusRowsKernel(&dst[0], &p[0], &rows[0], stride, len(p), len(dst))
}

// maxSumRows sets out[r] = max(0, max over a of d[a] + rows[r*len(d)+a]):
// the best-label weights of len(out) items whose label rows are consecutive.
func maxSumRows(out, d, rows []float32) {
	if len(out) == 0 || len(d) == 0 {
		for r := range out {
			out[r] = 0
		}
		return
	}
	rows = rows[:len(out)*len(d)]
	maxSumRowsKernel(&out[0], &d[0], &rows[0], len(out), len(d))
}

// triPad is the slack, in cells, that the block kernels (blockOuter,
// blockRows) may read and overwrite before the first cell of each row they
// update: they work on whole 4-float vectors aligned to the row's end, so
// the leftmost vector of a row whose length is not a multiple of 4 reaches
// up to three cells before it. In a chart block every row k (from column
// k+1) has at least three unused cells before it (columns 0..k of its own
// row, and for row 1 also the last cell of the unused row 0), and reading
// before a row stays inside its block; garbage lanes never mix with valid
// ones (max and add work lane by lane), so rows need no tail loops.
const triPad = 3

// maxSumRowsTri computes label weights for a triangle of rows of items:
// for r < nrows (and while len0-r > 0) and x < len0-r,
//
//	out[oOff+r*oStep+x] = max(0, max over a of d[a] + rows[rOff+r*rStep+x*len(d)+a])
//
// that is maxSumRows for each row. It panics if a slice is too short.
func maxSumRowsTri(out []float32, oOff, oStep int, d, rows []float32, rOff, rStep, nrows, len0 int) {
	nrows = min(nrows, len0)
	if nrows <= 0 {
		return
	}
	L, last := len(d), nrows-1
	if oStep < 0 || rStep < 0 || oOff < 0 || rOff < 0 {
		panic("decode: maxSumRowsTri: negative offset or step")
	}
	_ = out[:oOff+len0]
	_ = out[:oOff+last*oStep+len0-last]
	_ = rows[:rOff+len0*L]
	_ = rows[:rOff+last*rStep+(len0-last)*L]
	maxSumRowsTriKernel(out, oOff, oStep, d, rows, rOff, rStep, nrows, len0)
}

// blockOuter writes into the block of outer extent [i,j] = [i,i+s] of the
// full chart, at offset o of D, the rules whose antecedents have smaller
// extents and no item of the same block: create gap [i,k] + [l,j] sets
// every item, then kept left [i,k,l,m] + [m,j] takes the maximum, the
// antecedent blocks [i,m] (m = i+3..j-1) at offsets offA[m-i-3]. C and CT
// are the span chart and its transpose, n1 = n+1 their row stride. The
// unused cells of the block before its rows may be overwritten (triPad).
// s must be at least 3.
//
// Memory safety rests on the fullChart invariant that every offset in its
// off table starts a block that lies inside D; the other ranges are checked
// here.
func blockOuter(D []float32, o, s int, C, CT []float32, n1, i int, offA []int) {
	j := i + s
	_ = D[o : o+s*s]
	_ = C[:(j-1)*n1+j+1]
	_ = CT[j*n1+i-1 : j*n1+j]
	_ = offA[:s-3]
	blockOuterKernel(D, o, s, C, CT, n1, i, offA)
}

// blockRows finalises the rows of the block of outer extent [i,j] =
// [i,i+s] at offset o of D, top down, and returns their best fill-gap sum
// [i,k,l,j] + [k,l]. Row r (k = i+r) gathers shrink right
// [i,k,m,j] + [l,m] from its own final cells and adds the label weights of
// the block's weight scratch W (same layout as the block); once final it
// scatters, with wrapped, [i,k,l,j] + [k,k2,l2,l] into rows k2 = k+1..l-2
// (block [k,l]), and kept right [i,k] + [k,k2,l,j] (block [k,j]) and
// shrink left [i,k,l,j] + [k,k2] into rows k2 = k+1..j-2. off is the
// chart's block offset table, row stride n1. The unused cells of the block
// before its rows may be overwritten (triPad). Memory safety as for
// blockOuter.
func blockRows(D []float32, o, s int, W, C []float32, n1, i int, off []int, wrapped bool) float32 {
	j := i + s
	_ = D[o : o+s*s]
	_ = W[:s*s]
	_ = C[:(j-1)*n1+j+1]
	_ = off[:j*n1+j+1]
	if s < 3 {
		panic("decode: blockRows: block smaller than 3")
	}
	return blockRowsKernel(D, o, s, W, C, n1, i, off, wrapped)
}

// maxAddTriEnd updates a triangle of rows aligned to their ends: for
// r < rows (and while len0-r > 0), the len0-r cells of dst ending at
// dEnd+r*dStep (exclusive) take the maximum of themselves and
// a[aOff+r*aStep] plus the cells of src ending at sEnd+r*sStep. The triPad
// cells before each row of dst may be overwritten and those before each
// row of src read, so they must exist and, in dst, hold nothing of value.
// Steps are in cells and not negative. It panics if a slice is too short.
func maxAddTriEnd(dst []float32, dEnd, dStep int, a []float32, aOff, aStep int, src []float32, sEnd, sStep, rows, len0 int) {
	rows = min(rows, len0)
	if rows <= 0 {
		return
	}
	checkEndTri(len(dst), dEnd, dStep, rows, len0)
	checkEndTri(len(src), sEnd, sStep, rows, len0)
	if aStep < 0 || aOff < 0 || aOff+(rows-1)*aStep >= len(a) {
		panic("decode: maxAddTriEnd: scalars out of range")
	}
	maxAddTriEndKernel(dst, dEnd, dStep, a, aOff, aStep, src, sEnd, sStep, rows, len0)
}

// checkEndTri panics unless a triangle of rows rows, row r ending at
// end+r*step with length len0-r, fits in n cells with triPad cells of slack
// before each row; with step >= 0, row 0 starts lowest.
func checkEndTri(n, end, step, rows, len0 int) {
	if step < 0 || end-len0-triPad < 0 || end+(rows-1)*step > n {
		panic("decode: maxAddTriEnd: triangle out of range")
	}
}
