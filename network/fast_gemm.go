package network

import (
	"fmt"
	"sync"

	"github.com/discspan/discspan/network/internal/wasmsimd"
)

// The optimised float32 path (fast_*.go) does all its matrix products with
// gemm, a register-tiled kernel (AVX2/FMA assembly on amd64, plain Go
// elsewhere) that is BATCH-INVARIANT: every output element
//
//	C[i,j] = (acc ? C[i,j] : 0) + A[i,0]*B[0,j] + A[i,1]*B[1,j] + ...
//
// is accumulated in float32 in the order of k, with the same instruction,
// whatever m, n, the position of the row in the batch or the blocking. A
// sentence's scores therefore do not depend on the sentences it is batched
// with, which keeps Forward and ForwardBatch bit-identical and the loss of
// LossGrad independent of the worker count.

const (
	gemmMR = 6   // rows of a register tile
	gemmNR = 16  // columns of a wide register tile (an 8-wide one finishes rows)
	gemmKC = 128 // k-block (a block of B stays in L2)
	gemmNC = 192 // n-block

	gemmPackRows = 8 * gemmMR // pack B for at least this many rows
	gemmPackMax  = 1 << 18    // and at most this many values of B
)

// gemmNN computes C (+)= A·B for row-major A (m×k, row stride lda), B (k×n)
// and C (m×n); acc keeps the old C. Cost O(m*n*k).
func gemmNN(acc bool, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	gemmStrided(acc, m, n, k, a, lda, 1, b, ldb, c, ldc)
}

// gemmTN computes C (+)= Aᵀ·B for row-major A (k×m, row stride lda).
func gemmTN(acc bool, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	gemmStrided(acc, m, n, k, a, 1, lda, b, ldb, c, ldc)
}

// gemmCheck panics when the m×n×k product of gemmStrided would reach
// outside a, b or c (m, n >= 1).
func gemmCheck(m, n, k int, a []float32, ars, aks int, b []float32, ldb int, c []float32, ldc int) {
	if (m-1)*ldc+n > len(c) || (k > 0 && ((m-1)*ars+(k-1)*aks >= len(a) || (k-1)*ldb+n > len(b))) {
		panic(fmt.Sprintf("network: gemm %dx%dx%d out of bounds (a %d/%d,%d, b %d/%d, c %d/%d)",
			m, n, k, len(a), ars, aks, len(b), ldb, len(c), ldc))
	}
}

// gemmNN is the package's gemmNN through k's SIMD kernel when k is not
// nil (inference in the browser), else the Go one.
func (k *wasmKernels) gemmNN(acc bool, m, n, kk int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	if !k.gemm(acc, m, n, kk, a, lda, 1, b, ldb, c, ldc) {
		gemmStrided(acc, m, n, kk, a, lda, 1, b, ldb, c, ldc)
	}
}

// gemmScratch holds the zero-padded copies of edge tiles.
type gemmScratch struct{ a, b, c, p, t []float32 }

var gemmScratchPool = sync.Pool{New: func() any { return new(gemmScratch) }}

func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n, n+n/4)
	}
	return s[:n]
}

// gemmStrided computes C (+)= op(A)·B where op(A)[i,p] = a[i*ars+p*aks].
func gemmStrided(acc bool, m, n, k int, a []float32, ars, aks int, b []float32, ldb int, c []float32, ldc int) {
	if m <= 0 || n <= 0 {
		return
	}
	gemmCheck(m, n, k, a, ars, aks, b, ldb, c, ldc)
	if k == 0 {
		if !acc {
			for i := 0; i < m; i++ {
				clear(c[i*ldc : i*ldc+n])
			}
		}
		return
	}
	// Packing B pays when many row panels reuse it and it is likely in
	// cache (a large streamed B is better read in place, the loads
	// overlapping the arithmetic).
	pack := m >= gemmPackRows && k*n <= gemmPackMax
	for k0 := 0; k0 < k; k0 += gemmKC {
		kc := min(gemmKC, k-k0)
		ak := a[k0*aks:]
		bk := b[k0*ldb:]
		accb := acc || k0 > 0
		for n0 := 0; n0 < n; n0 += gemmNC {
			nc := min(gemmNC, n-n0)
			gemmBlock(accb, pack, m, nc, kc, ak, ars, aks, bk[n0:], ldb, c[n0:], ldc)
		}
	}
}

// gemmBlock is one cache block of gemmStrided.
//
// Edges: the last rows and columns are covered by a full tile overlapping
// the previous one (it recomputes identical values, the kernel being
// batch-invariant), written in place when C is overwritten and through a
// scratch copy of C when it accumulates. Only matrices narrower than a tile
// go through zero-padded copies of A or B.
func gemmBlock(acc, pack bool, m, n, k int, a []float32, ars, aks int, b []float32, ldb int, c []float32, ldc int) {
	s := gemmScratchPool.Get().(*gemmScratch)
	defer gemmScratchPool.Put(s)
	n16 := n / gemmNR
	// With several row panels, the 16-column tiles of B are packed
	// (tile-major, then k) for sequential access.
	bp, bld, bts := b, ldb, gemmNR
	if n16 > 0 && pack && ldb != gemmNR {
		bp = grow(s.p, n16*k*gemmNR)
		s.p = bp
		packB(bp, b, k, ldb, n16)
		bld, bts = gemmNR, k*gemmNR
	}
	pl := panelPlan{k: k, b: b, ldb: ldb, bp: bp, bld: bld, bts: bts, n: n, n16: n16, s: s}
	if n < gemmNR && n != 8 { // narrow: a zero-padded copy of B
		w := 8
		if n > 8 {
			w = 16
		}
		bt := grow(s.b, k*w)
		s.b = bt
		for p := 0; p < k; p++ {
			row := bt[p*w : (p+1)*w]
			copy(row, b[p*ldb:p*ldb+n])
			clear(row[n:])
		}
		pl.bt, pl.w = bt, w
	}
	mFull := m - m%gemmMR
	for i := 0; i < mFull; i += gemmMR {
		pl.panel(acc, a[i*ars:], ars, aks, c[i*ldc:], ldc)
	}
	if mFull == m {
		return
	}
	// Edge rows: the last 6 rows (overlapping), or a zero-padded copy of A
	// when there are fewer.
	mr := m - mFull
	i0, ai, ar, ak := m-gemmMR, []float32(nil), ars, aks
	if m >= gemmMR {
		ai = a[i0*ars:]
		if !acc {
			pl.panel(false, ai, ars, aks, c[i0*ldc:], ldc)
			return
		}
	} else {
		// Fewer rows than a tile: the full column tiles row by row, then
		// the last columns through a zero-padded copy of A.
		if n16 > 0 {
			for r := 0; r < m; r++ {
				_ = a[r*ars+(k-1)*aks]
				_ = b[(k-1)*ldb+n16*gemmNR-1]
				kernelRow(k, a[r*ars:], aks, b, ldb, c[r*ldc:r*ldc+n16*gemmNR], n16, acc)
			}
			if n16*gemmNR == n {
				return
			}
			j0 := n16 * gemmNR
			pl = panelPlan{k: k, b: b[j0:], ldb: ldb, n: n - j0, s: s}
			n, b, c = n-j0, b[j0:], c[j0:]
			w := 8
			if n > 8 {
				w = 16
			}
			bt := grow(s.b, k*w)
			s.b = bt
			for p := 0; p < k; p++ {
				row := bt[p*w : (p+1)*w]
				copy(row, b[p*ldb:p*ldb+n])
				clear(row[n:])
			}
			pl.bt, pl.w = bt, w
		}
		i0 = 0
		at := grow(s.a, gemmMR*k)
		s.a = at
		clear(at)
		if aks == 1 {
			for r := 0; r < mr; r++ {
				copy(at[r*k:(r+1)*k], a[r*ars:r*ars+k])
			}
		} else {
			for p := 0; p < k; p++ { // one pass over the rows of the stored matrix
				q := a[p*aks:]
				for r := 0; r < mr; r++ {
					at[r*k+p] = q[r*ars]
				}
			}
		}
		ai, ar, ak = at, k, 1
	}
	// Through a scratch copy of the 6 rows of C.
	ct := grow(s.c, gemmMR*n)
	s.c = ct
	first, last := mFull-i0, m-i0 // the edge rows of the scratch
	if acc {
		for r := first; r < last; r++ {
			copy(ct[r*n:(r+1)*n], c[(i0+r)*ldc:(i0+r)*ldc+n])
		}
	}
	pl.panel(acc, ai, ar, ak, ct, n)
	for r := first; r < last; r++ {
		copy(c[(i0+r)*ldc:(i0+r)*ldc+n], ct[r*n:(r+1)*n])
	}
}

// panelPlan is the column plan of a block: n16 full tiles from bp, then the
// last columns.
type panelPlan struct {
	k        int
	b        []float32 // B as given (row stride ldb)
	ldb      int
	bp       []float32 // B for the full tiles (maybe packed)
	bld, bts int
	n, n16   int
	bt       []float32 // zero-padded B (k×w) when n < 16 and n != 8
	w        int
	s        *gemmScratch
}

// panel computes the 6 rows of C at c (row stride ldc) from the 6 rows of
// op(A) at a.
func (pl *panelPlan) panel(acc bool, a []float32, ars, aks int, c []float32, ldc int) {
	k, n, n16 := pl.k, pl.n, pl.n16
	if pl.bt != nil { // narrow B, padded
		t := grow(pl.s.t, gemmMR*pl.w)
		pl.s.t = t
		if acc {
			for r := 0; r < gemmMR; r++ {
				copy(t[r*pl.w:r*pl.w+n], c[r*ldc:r*ldc+n])
			}
		}
		if pl.w == 16 {
			gemmKernel16(k, a, ars, aks, pl.bt, 16, t, 16, 1, acc, 16)
		} else {
			gemmKernel8(k, a, ars, aks, pl.bt, 8, t, 8, acc)
		}
		for r := 0; r < gemmMR; r++ {
			copy(c[r*ldc:r*ldc+n], t[r*pl.w:r*pl.w+n])
		}
		return
	}
	if n16 > 0 {
		gemmKernel16(k, a, ars, aks, pl.bp, pl.bld, c, ldc, n16, acc, pl.bts)
	}
	rem := n - n16*gemmNR
	if rem == 0 {
		return
	}
	// The last columns: an exact 8-wide tile, or a tile ending at n.
	j0, w := n-8, 8
	if rem > 8 {
		j0, w = n-16, 16
	}
	if rem == 8 || !acc {
		if w == 16 {
			gemmKernel16(k, a, ars, aks, pl.b[j0:], pl.ldb, c[j0:], ldc, 1, acc, 16)
		} else {
			gemmKernel8(k, a, ars, aks, pl.b[j0:], pl.ldb, c[j0:], ldc, acc)
		}
		return
	}
	t := grow(pl.s.t, gemmMR*w)
	pl.s.t = t
	for r := 0; r < gemmMR; r++ {
		copy(t[r*w:(r+1)*w], c[r*ldc+j0:r*ldc+j0+w])
	}
	if w == 16 {
		gemmKernel16(k, a, ars, aks, pl.b[j0:], pl.ldb, t, w, 1, true, 16)
	} else {
		gemmKernel8(k, a, ars, aks, pl.b[j0:], pl.ldb, t, w, true)
	}
	first := n16*gemmNR - j0 // columns of t before this were done
	for r := 0; r < gemmMR; r++ {
		copy(c[r*ldc+j0+first:r*ldc+n], t[r*w+first:(r+1)*w])
	}
}

// gemmKernel16 computes the 6×(16*tiles) block of C at c from the 6 rows of
// op(A) at a and the columns of B at b (tile t at b[t*bts:], row stride
// ldb). Slices must hold the whole block.
func gemmKernel16(k int, a []float32, ars, aks int, b []float32, ldb int, c []float32, ldc int, tiles int, acc bool, bts int) {
	_ = a[5*ars+(k-1)*aks]
	_ = b[(tiles-1)*bts+(k-1)*ldb+15]
	_ = c[5*ldc+tiles*16-1]
	kernel16(k, a, ars, aks, b, ldb, c, ldc, tiles, acc, bts)
}

// gemmKernel8 computes the 6×8 block of C at c.
func gemmKernel8(k int, a []float32, ars, aks int, b []float32, ldb int, c []float32, ldc int, acc bool) {
	_ = a[5*ars+(k-1)*aks]
	_ = b[(k-1)*ldb+7]
	_ = c[5*ldc+7]
	kernel8(k, a, ars, aks, b, ldb, c, ldc, acc)
}

// goKernel16 is the portable kernel: the same per-element order (k
// ascending, c += a*b starting from C or 0) as the assembly one, in 2×4
// blocks of scalar accumulators that the compiler keeps in registers.
func goKernel16(k int, a []float32, ars, aks int, b []float32, ldb int, c []float32, ldc int, tiles int, acc bool, bts int) {
	for t := 0; t < tiles; t++ {
		goTile(k, a, ars, aks, b[t*bts:], ldb, c[t*16:], ldc, gemmMR, 16, acc)
	}
}

func goKernel8(k int, a []float32, ars, aks int, b []float32, ldb int, c []float32, ldc int, acc bool) {
	goTile(k, a, ars, aks, b, ldb, c, ldc, gemmMR, 8, acc)
}

// goKernelRow computes one row of C (16*tiles columns) like goKernel16.
func goKernelRow(k int, a []float32, aks int, b []float32, ldb int, c []float32, tiles int, acc bool) {
	goTile(k, a, 0, aks, b, ldb, c, 0, 1, 16*tiles, acc)
}

// goPackB is the portable packB.
func goPackB(dst, src []float32, k, ldb, tiles int) {
	for p := 0; p < k; p++ {
		row := src[p*ldb : p*ldb+tiles*gemmNR]
		for t := 0; t < tiles; t++ {
			copy(dst[(t*k+p)*gemmNR:(t*k+p+1)*gemmNR], row[t*gemmNR:(t+1)*gemmNR])
		}
	}
}

// gemmPanelsGo computes C (+)= A·B (A row-major, row stride lda) with B
// packed by wasmsimd.Pack8 (k×n, panels of 8 columns), the same sums as
// gemmNN with B unpacked: each element accumulated in the order of k from
// C or 0 (goTile's). It is the wasm kernels' gemmPanels where they cannot
// be loaded. Cost O(m*n*k).
func gemmPanelsGo(acc bool, m, n, k int, a []float32, lda int, bp []float32, c []float32, ldc int) {
	if m <= 0 || n <= 0 {
		return
	}
	if len(bp) < wasmsimd.Pack8Len(k, n) {
		panic(fmt.Sprintf("network: gemm by panels: B of %d values for %dx%d", len(bp), k, n))
	}
	gemmCheck(m, n, k, a, lda, 1, bp, 0, c, ldc)
	var row [8]float32
	for t := 0; t < (n+7)/8; t++ {
		w, panel := min(8, n-8*t), bp[t*8*k:(t+1)*8*k]
		if w%4 == 0 {
			goTile(k, a, lda, 1, panel, 8, c[8*t:], ldc, m, w, acc)
			continue
		}
		for i := range m { // a last panel narrower than 4 columns: by rows
			ci := c[i*ldc+8*t : i*ldc+8*t+w]
			copy(row[:], ci)
			goTile(k, a[i*lda:], lda, 1, panel, 8, row[:], 8, 1, 8, acc)
			copy(ci, row[:w])
		}
	}
}

// goTile computes rows×cols of C (cols a multiple of 4): C[i,j] (+)=
// Σ_p A[i*ars+p*aks] B[p*ldb+j].
func goTile(k int, a []float32, ars, aks int, b []float32, ldb int, c []float32, ldc int, rows, cols int, acc bool) {
	i := 0
	for ; i+2 <= rows; i += 2 {
		a0, a1 := a[i*ars:], a[(i+1)*ars:]
		c0, c1 := c[i*ldc:i*ldc+cols], c[(i+1)*ldc:(i+1)*ldc+cols]
		for j := 0; j < cols; j += 4 {
			var s00, s01, s02, s03, s10, s11, s12, s13 float32
			if acc {
				s00, s01, s02, s03 = c0[j], c0[j+1], c0[j+2], c0[j+3]
				s10, s11, s12, s13 = c1[j], c1[j+1], c1[j+2], c1[j+3]
			}
			for p := 0; p < k; p++ {
				bp := b[p*ldb+j : p*ldb+j+4 : p*ldb+j+4]
				b0, b1, b2, b3 := bp[0], bp[1], bp[2], bp[3]
				x, y := a0[p*aks], a1[p*aks]
				s00 += x * b0
				s01 += x * b1
				s02 += x * b2
				s03 += x * b3
				s10 += y * b0
				s11 += y * b1
				s12 += y * b2
				s13 += y * b3
			}
			c0[j], c0[j+1], c0[j+2], c0[j+3] = s00, s01, s02, s03
			c1[j], c1[j+1], c1[j+2], c1[j+3] = s10, s11, s12, s13
		}
	}
	for ; i < rows; i++ {
		a0 := a[i*ars:]
		c0 := c[i*ldc : i*ldc+cols]
		for j := 0; j < cols; j += 4 {
			var s00, s01, s02, s03 float32
			if acc {
				s00, s01, s02, s03 = c0[j], c0[j+1], c0[j+2], c0[j+3]
			}
			for p := 0; p < k; p++ {
				bp := b[p*ldb+j : p*ldb+j+4 : p*ldb+j+4]
				x := a0[p*aks]
				s00 += x * bp[0]
				s01 += x * bp[1]
				s02 += x * bp[2]
				s03 += x * bp[3]
			}
			c0[j], c0[j+1], c0[j+2], c0[j+3] = s00, s01, s02, s03
		}
	}
}

// transposeInto writes the transpose of the rows×cols matrix src (row stride
// lds) to dst (cols×rows, row stride ldd): by 8×8 blocks (vectorised where
// possible), the edges value by value.
func transposeInto(dst []float32, ldd int, src []float32, lds, rows, cols int) {
	r8, c8 := rows&^7, cols&^7
	if r8 > 0 && c8 > 0 && useAVX2 {
		for i := 0; i < r8; i += 8 {
			for j := 0; j < c8; j += 8 {
				transpose8(dst[j*ldd+i:], ldd, src[i*lds+j:], lds)
			}
		}
		transposeScalar(dst, ldd, src, lds, 0, r8, c8, cols)
		transposeScalar(dst, ldd, src, lds, r8, rows, 0, cols)
		return
	}
	transposeScalar(dst, ldd, src, lds, 0, rows, 0, cols)
}

// transposeScalar transposes the block of rows [i0, i1) and columns
// [j0, j1) of src into dst, by blocks of 16.
func transposeScalar(dst []float32, ldd int, src []float32, lds, i0, i1, j0, j1 int) {
	const bs = 16
	for ib := i0; ib < i1; ib += bs {
		ie := min(ib+bs, i1)
		for jb := j0; jb < j1; jb += bs {
			je := min(jb+bs, j1)
			for i := ib; i < ie; i++ {
				row := src[i*lds : i*lds+je]
				for j := jb; j < je; j++ {
					dst[j*ldd+i] = row[j]
				}
			}
		}
	}
}
