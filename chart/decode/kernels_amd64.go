//go:build amd64 && !purego

package decode

// maxAddKernel and maxSumKernel are implemented in kernels_amd64.s.

//go:noescape
func maxAddKernel(dst *float32, a float32, src *float32, n int)

//go:noescape
func maxSumKernel(x, y *float32, n int) float32

//go:noescape
func rowMaxKernel(x *float32, n int) (m float32, finite bool)

//go:noescape
func maxPlusRowsKernel(dst, p, rows *float32, stride, nrows, n int)

//go:noescape
func maxSumRowsKernel(out, d, rows *float32, nrows, n int)

// maxSumRowsTriAVX2 is maxSumRowsTri with AVX2 for 8 <= L <= 32 labels: the
// label rows are covered by four 8-float vectors, the last ones overlapping
// when L < 32 (max is idempotent, so overlapping lanes count twice
// harmlessly).
//
//go:noescape
func maxSumRowsTriAVX2(out *float32, oStep int, d, rows *float32, rStep, nrows, len0, L int)

//go:noescape
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

//go:noescape
func xgetbv() (eax, edx uint32)

// useAVX2 tells whether the CPU and the OS support AVX2 (tests switch it
// off to cover the SSE path).
var useAVX2 = hasAVX2()

// hasAVX2 reports AVX2 support: the CPUID feature bits, and the OS saving
// the YMM state (OSXSAVE and XCR0 bits 1 and 2).
func hasAVX2() bool {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}

func maxSumRowsTriKernel(out []float32, oOff, oStep int, d, rows []float32, rOff, rStep, nrows, len0 int) {
	L := len(d)
	if useAVX2 && L >= 8 && L <= 32 {
		maxSumRowsTriAVX2(&out[oOff], oStep, &d[0], &rows[rOff], rStep, nrows, len0, L)
		return
	}
	for r := 0; r < nrows; r++ {
		n := len0 - r
		maxSumRows(out[oOff+r*oStep:oOff+r*oStep+n], d, rows[rOff+r*rStep:rOff+r*rStep+n*L])
	}
}

//go:noescape
func blockOuterAsm(D *float32, o, s int, C, CT *float32, n1, i int, offA *int)

//go:noescape
func blockRowsAsm(D *float32, o, s int, W, C *float32, n1, i int, off *int, wrapped bool) float32

func blockOuterKernel(D []float32, o, s int, C, CT []float32, n1, i int, offA []int) {
	var pa *int // unread when s == 3
	if len(offA) > 0 {
		pa = &offA[0]
	}
	blockOuterAsm(&D[0], o, s, &C[0], &CT[0], n1, i, pa)
}

func blockRowsKernel(D []float32, o, s int, W, C []float32, n1, i int, off []int, wrapped bool) float32 {
	return blockRowsAsm(&D[0], o, s, &W[0], &C[0], n1, i, &off[0], wrapped)
}

//go:noescape
func maxAddTriEndAsm(dst *float32, dEnd, dStep int, a *float32, aStep int, src *float32, sEnd, sStep, rows, len0 int)

func maxAddTriEndKernel(dst []float32, dEnd, dStep int, a []float32, aOff, aStep int, src []float32, sEnd, sStep, rows, len0 int) {
	maxAddTriEndAsm(&dst[0], dEnd, dStep, &a[aOff], aStep, &src[0], sEnd, sStep, rows, len0)
}
