//go:build amd64 && !purego

package network

// kern16AVX and kern8AVX are the AVX2/FMA register tiles of
// fast_gemm_amd64.s (see goKernel16 for their semantics).

//go:noescape
func kern16AVX(k int, a *float32, ars, aks int, b *float32, ldb int, c *float32, ldc int, tiles int, acc bool, bts int)

//go:noescape
func kern8AVX(k int, a *float32, ars, aks int, b *float32, ldb int, c *float32, ldc int, acc bool)

//go:noescape
func kernRowAVX(k int, a *float32, aks int, b *float32, ldb int, c *float32, tiles int, acc bool)

//go:noescape
func packBAVX(dst, src *float32, k, ldb, tiles int)

//go:noescape
func transpose8AVX(dst *float32, ldd int, src *float32, lds int)

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax, edx uint32)

// hasAVX2FMA reports whether the CPU and the OS support AVX2 and FMA.
func hasAVX2FMA() bool {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const fma, osxsave, avx = 1 << 12, 1 << 27, 1 << 28
	if ecx1&(fma|osxsave|avx) != fma|osxsave|avx {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 { // XMM and YMM state enabled
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}

var useAVX2 = hasAVX2FMA()

func kernel16(k int, a []float32, ars, aks int, b []float32, ldb int, c []float32, ldc int, tiles int, acc bool, bts int) {
	if useAVX2 {
		kern16AVX(k, &a[0], ars, aks, &b[0], ldb, &c[0], ldc, tiles, acc, bts)
		return
	}
	goKernel16(k, a, ars, aks, b, ldb, c, ldc, tiles, acc, bts)
}

func kernel8(k int, a []float32, ars, aks int, b []float32, ldb int, c []float32, ldc int, acc bool) {
	if useAVX2 {
		kern8AVX(k, &a[0], ars, aks, &b[0], ldb, &c[0], ldc, acc)
		return
	}
	goKernel8(k, a, ars, aks, b, ldb, c, ldc, acc)
}

func kernelRow(k int, a []float32, aks int, b []float32, ldb int, c []float32, tiles int, acc bool) {
	if useAVX2 {
		kernRowAVX(k, &a[0], aks, &b[0], ldb, &c[0], tiles, acc)
		return
	}
	goKernelRow(k, a, aks, b, ldb, c, tiles, acc)
}

// packB copies the 16-column tiles of the k×(16*tiles) matrix src (row
// stride ldb) to dst, tile after tile.
func packB(dst, src []float32, k, ldb, tiles int) {
	_, _ = dst[k*tiles*16-1], src[(k-1)*ldb+tiles*16-1]
	if useAVX2 {
		packBAVX(&dst[0], &src[0], k, ldb, tiles)
		return
	}
	goPackB(dst, src, k, ldb, tiles)
}

// transpose8 writes the transpose of the 8×8 block of src (row stride lds)
// to dst (row stride ldd), reporting false when it cannot (no AVX2).
func transpose8(dst []float32, ldd int, src []float32, lds int) bool {
	if !useAVX2 {
		return false
	}
	_, _ = dst[7*ldd+7], src[7*lds+7]
	transpose8AVX(&dst[0], ldd, &src[0], lds)
	return true
}
