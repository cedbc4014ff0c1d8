package decode

// The two inner loops that dominate every chart: a max-plus update of a row
// and a max-plus reduction of two rows. kernels_amd64.s implements them with
// SSE (4 floats at a time, part of the amd64 baseline, so no CPU check is
// needed); kernels_generic.go is the portable version (wasm and others). Both
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
// value is finite.
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

// maxAddTri updates a triangle of cells: for r < rows (and while the row
// length len0-r is positive), row r of dst (starting at r*dstStep) takes
// max(dst, a[r*aStep] + row r of src (starting at r*srcStep)). It panics if
// a slice is too short.
func maxAddTri(dst []float32, dstStep int, a []float32, aStep int, src []float32, srcStep int, rows, len0 int) {
	rows = min(rows, len0)
	if rows <= 0 {
		return
	}
	_ = dst[triExtent(dstStep, rows, len0)-1]
	_ = src[triExtent(srcStep, rows, len0)-1]
	_ = a[(rows-1)*aStep]
	maxAddTriKernel(&dst[0], dstStep, &a[0], aStep, &src[0], srcStep, rows, len0)
}

// triExtent returns how many floats a triangle of rows rows (lengths len0,
// len0-1, ...) starting step floats apart spans.
func triExtent(step, rows, len0 int) int {
	return max(len0, (rows-1)*step+len0-(rows-1))
}
