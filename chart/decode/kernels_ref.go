package decode

// Pure-Go versions of the full chart's kernels (blockOuter, blockRows,
// maxAddTriEnd): the kernels of the portable build (kernels_generic.go) and
// the reference the assembly kernels are tested against (maxSumRowsTri's
// portable version is in kernels_generic.go; its test uses plain loops). They touch exactly the cells the operations define, none of the
// slack (triPad).

// addTriEndRef updates a triangle of rows aligned to their ends: for
// r < rows, the len0-r cells of dst ending at dEnd+r*dStep (exclusive) take
// a[aOff+r*aStep] plus the cells of src ending at sEnd+r*sStep (set), or
// the maximum of themselves and that sum (!set). rows <= len0.
func addTriEndRef(set bool, dst []float32, dEnd, dStep int, a []float32, aOff, aStep int, src []float32, sEnd, sStep, rows, len0 int) {
	for r := 0; r < rows; r++ {
		n := len0 - r
		b := a[aOff+r*aStep]
		d := dst[dEnd+r*dStep-n : dEnd+r*dStep]
		s := src[sEnd+r*sStep-n : sEnd+r*sStep]
		if set {
			for x, v := range s {
				d[x] = b + v
			}
			continue
		}
		for x, v := range s {
			if t := b + v; t > d[x] {
				d[x] = t
			}
		}
	}
}

// maxAdd2TriEndRef is addTriEndRef (!set) with two sources: row r takes the
// maximum of itself, a1 plus the cells of s1 ending at s1End+r*s1Step, and
// a2[a2Off+r] plus the cells of s2 ending at s2End+r*s2Step.
func maxAdd2TriEndRef(dst []float32, dEnd, dStep int, a1 float32, s1 []float32, s1End, s1Step int, a2 []float32, a2Off int, s2 []float32, s2End, s2Step, rows, len0 int) {
	for r := 0; r < rows; r++ {
		n := len0 - r
		b := a2[a2Off+r]
		d := dst[dEnd+r*dStep-n : dEnd+r*dStep]
		u := s1[s1End+r*s1Step-n : s1End+r*s1Step]
		v := s2[s2End+r*s2Step-n : s2End+r*s2Step]
		for x := range d {
			if t := a1 + u[x]; t > d[x] {
				d[x] = t
			}
			if t := b + v[x]; t > d[x] {
				d[x] = t
			}
		}
	}
}

// rowFinishRef finalises a row of n discontinuous items t[tOff:tOff+n]
// that hold every antecedent sum but those of shrink-right, and returns the
// row's best fill-gap sum. For x from n-1 down to 0 (offsets tOff and wOff
// omitted):
//
//	t[x] = max(t[x], max over y < n-1-x of t[x+1+y] + c[crOff+x*crStep+y]) + w[x]
//
// so that item x gathers from the items to its right, already final; then
// it returns max over x of t[x] + c[cfOff+x] (-Inf when n is 0).
func rowFinishRef(t []float32, tOff int, w []float32, wOff int, c []float32, crOff, crStep, cfOff, n int) float32 {
	row := t[tOff : tOff+n]
	for x := n - 1; x >= 0; x-- {
		v := row[x]
		right := row[x+1:]
		cr := c[crOff+x*crStep : crOff+x*crStep+len(right)]
		for y, a := range right {
			if u := a + cr[y]; u > v {
				v = u
			}
		}
		row[x] = v + w[wOff+x]
	}
	best := negInf
	for x, v := range row {
		if u := v + c[cfOff+x]; u > best {
			best = u
		}
	}
	return best
}

// blockOuterRef is blockOuter: create gap sets rows 1..s-2 of the block at
// offset o, then kept left takes the maximum from blocks [i,m].
func blockOuterRef(D []float32, o, s int, C, CT []float32, n1, i int, offA []int) {
	j := i + s
	addTriEndRef(true, D, o+2*s, s, C, i*n1+i+1, 1, CT, j*n1+j, 0, s-2, s-2)
	for sa := 3; sa < s; sa++ {
		addTriEndRef(false, D, o+s+sa, s, C, (i+sa)*n1+j, 0, D, offA[sa-3]+2*sa, sa, sa-2, sa-2)
	}
}

// blockRowsRef is blockRows: rowFinishRef on each row, then, with
// wrapped, the wrapped rule from the row, and the scatter of kept right and
// shrink left into the rows below it.
func blockRowsRef(D []float32, o, s int, W, C []float32, n1, i int, off []int, wrapped bool) float32 {
	fill, j := negInf, i+s
	for r := 1; r <= s-2; r++ {
		k := i + r
		fill = max(fill, rowFinishRef(D, o+r*s+r+1, W, r*s+r+1, C, (k+1)*n1+k+2, n1+1, k*n1+k+1, s-1-r))
		if wrapped {
			for l := k + 3; l < j; l++ {
				sb := l - k
				addTriEndRef(false, D, o+(r+1)*s+(l-i), s, D, o+r*s+(l-i), 0, D, off[k*n1+l]+2*sb, sb, sb-2, sb-2)
			}
		}
		if r < s-2 {
			sb := s - r
			maxAdd2TriEndRef(D, o+(r+2)*s, s, C[i*n1+k], D, off[k*n1+j]+2*sb, sb, C, k*n1+k+1, D, o+(r+1)*s, 0, s-2-r, s-2-r)
		}
	}
	return fill
}
