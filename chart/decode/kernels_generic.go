//go:build !amd64 || purego

package decode

import "unsafe"

func maxAddKernel(dst *float32, a float32, src *float32, n int) {
	d := unsafe.Slice(dst, n)
	s := unsafe.Slice(src, n)
	for x, v := range s {
		if t := a + v; t > d[x] {
			d[x] = t
		}
	}
}

func maxSumKernel(x, y *float32, n int) float32 {
	xs := unsafe.Slice(x, n)
	ys := unsafe.Slice(y, n)
	best := negInf
	for i, v := range xs {
		if t := v + ys[i]; t > best {
			best = t
		}
	}
	return best
}

func rowMaxKernel(x *float32, n int) (float32, bool) {
	m, finite := negInf, true
	for _, v := range unsafe.Slice(x, n) {
		if v*maxScoreScale*0 != 0 { // NaN, ±Inf and beyond ±MaxScore give NaN
			finite = false
		}
		if v > m {
			m = v
		}
	}
	return m, finite
}

func maxPlusRowsKernel(dst, p, rows *float32, stride, nrows, n int) {
	d := unsafe.Slice(dst, n)
	ps := unsafe.Slice(p, nrows)
	all := unsafe.Slice(rows, (nrows-1)*stride+n)
	for r, a := range ps {
		row := all[r*stride : r*stride+n]
		if r == 0 {
			for x, v := range row {
				d[x] = a + v
			}
			continue
		}
		// Later rows: keep the larger value.
		for x, v := range row {
			if t := a + v; t > d[x] {
				d[x] = t
			}
		}
	}
}

func maxSumRowsKernel(out, d, rows *float32, nrows, n int) {
	o := unsafe.Slice(out, nrows)
	ds := unsafe.Slice(d, n)
	all := unsafe.Slice(rows, nrows*n)
	for r := range o {
		row := all[r*n : r*n+n]
		best := float32(0)
		for a, v := range ds {
			if t := v + row[a]; t > best {
				best = t
			}
		}
		o[r] = best
	}
}

// maxSumRowsTriKernel is maxSumRowsTri row by row with maxSumRows.
func maxSumRowsTriKernel(out []float32, oOff, oStep int, d, rows []float32, rOff, rStep, nrows, len0 int) {
	L := len(d)
	for r := 0; r < nrows; r++ {
		n := len0 - r
		maxSumRows(out[oOff+r*oStep:oOff+r*oStep+n], d, rows[rOff+r*rStep:rOff+r*rStep+n*L])
	}
}

func blockOuterKernel(D []float32, o, s int, C, CT []float32, n1, i int, offA []int) {
	blockOuterRef(D, o, s, C, CT, n1, i, offA)
}

func blockRowsKernel(D []float32, o, s int, W, C []float32, n1, i int, off []int, wrapped bool) float32 {
	return blockRowsRef(D, o, s, W, C, n1, i, off, wrapped)
}

// useAVX2 is false: the portable build has no AVX2 kernels.
var useAVX2 = false

func maxAddTriEndKernel(dst []float32, dEnd, dStep int, a []float32, aOff, aStep int, src []float32, sEnd, sStep, rows, len0 int) {
	addTriEndRef(false, dst, dEnd, dStep, a, aOff, aStep, src, sEnd, sStep, rows, len0)
}
