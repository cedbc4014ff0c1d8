package network

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/discspan/discspan/network/internal/wasmsimd"
)

func randF32(rng *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(2*rng.Float64() - 1)
	}
	return v
}

// TestGemm checks gemmNN and gemmTN against a float64 reference on shapes
// with every kind of edge, and their batch invariance: each row of C is
// bit-identical to the row computed alone.
func TestGemm(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	dims := []int{1, 2, 5, 6, 7, 8, 9, 13, 16, 17, 24, 31, 33, 65, 200, 300}
	for trial := 0; trial < 300; trial++ {
		m, n, k := dims[rng.IntN(len(dims))], dims[rng.IntN(len(dims))], dims[rng.IntN(len(dims))]
		if trial%50 == 0 {
			k = 600 // several k-blocks
		}
		tA, acc := rng.IntN(2) == 1, rng.IntN(2) == 1
		lda, ldb, ldc := k+rng.IntN(3), n+rng.IntN(3), n+rng.IntN(3)
		if tA {
			lda = m + rng.IntN(3)
		}
		var a []float32
		if tA {
			a = randF32(rng, k*lda)
		} else {
			a = randF32(rng, m*lda)
		}
		b, c0 := randF32(rng, k*ldb), randF32(rng, m*ldc)
		at := func(i, p int) float32 {
			if tA {
				return a[p*lda+i]
			}
			return a[i*lda+p]
		}
		run := func(m int, a []float32, c []float32) {
			if tA {
				gemmTN(acc, m, n, k, a, lda, b, ldb, c, ldc)
			} else {
				gemmNN(acc, m, n, k, a, lda, b, ldb, c, ldc)
			}
		}
		c := append([]float32(nil), c0...)
		run(m, a, c)
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				var want float64
				if acc {
					want = float64(c0[i*ldc+j])
				}
				for p := 0; p < k; p++ {
					want += float64(at(i, p)) * float64(b[p*ldb+j])
				}
				if got := float64(c[i*ldc+j]); math.Abs(got-want) > 1e-5*math.Sqrt(float64(k))*4 {
					t.Fatalf("trial %d (m=%d n=%d k=%d tA=%v acc=%v): C[%d,%d] = %g, want %g", trial, m, n, k, tA, acc, i, j, got, want)
				}
			}
			if c0[i*ldc+n:] != nil && ldc > n {
				for j := n; j < ldc; j++ {
					if c[i*ldc+j] != c0[i*ldc+j] {
						t.Fatalf("trial %d: C[%d,%d] outside the matrix written", trial, i, j)
					}
				}
			}
		}
		// Batch invariance: row i alone.
		for _, i := range []int{0, m / 2, m - 1} {
			ai := make([]float32, len(a))
			copy(ai, a)
			ci := append([]float32(nil), c0[i*ldc:i*ldc+n]...)
			if tA {
				gemmTN(acc, 1, n, k, a[i:], lda, b, ldb, ci, ldc)
			} else {
				gemmNN(acc, 1, n, k, a[i*lda:], lda, b, ldb, ci, ldc)
			}
			for j := 0; j < n; j++ {
				if ci[j] != c[i*ldc+j] {
					t.Fatalf("trial %d (m=%d n=%d k=%d): row %d alone differs at column %d: %g vs %g", trial, m, n, k, i, j, ci[j], c[i*ldc+j])
				}
			}
		}
	}
}

// TestTranspose checks transposeInto on shapes with and without edges.
func TestTranspose(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, sh := range [][2]int{{1, 1}, {8, 8}, {9, 17}, {16, 65}, {65, 40}, {3, 130}, {24, 8}} {
		rows, cols := sh[0], sh[1]
		lds, ldd := cols+rng.IntN(3), rows+rng.IntN(3)
		src := randF32(rng, rows*lds)
		dst := randF32(rng, cols*ldd)
		orig := append([]float32(nil), dst...)
		transposeInto(dst, ldd, src, lds, rows, cols)
		for j := 0; j < cols; j++ {
			for i := 0; i < ldd; i++ {
				want := orig[j*ldd+i]
				if i < rows {
					want = src[i*lds+j]
				}
				if dst[j*ldd+i] != want {
					t.Fatalf("%dx%d: dst[%d,%d] = %g, want %g", rows, cols, j, i, dst[j*ldd+i], want)
				}
			}
		}
	}
}

// TestGemmPanelsGo checks the product with B packed by panels of 8
// columns (gemmPanelsGo) against the same sums on B unpacked, element by
// element in the order of k from C or 0, bit for bit, on widths with
// every kind of last panel (the label biaffine's 28x129 columns, the span
// biaffine's 129).
func TestGemmPanelsGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct{ m, n, k int }{
		{1, 1, 1}, {3, 4, 7}, {5, 8, 3}, {2, 13, 129}, {4, 129, 129}, {7, 3612, 129}, {20, 30, 17}, {1, 5, 2},
	} {
		for _, acc := range []bool{false, true} {
			lda, ldc := tc.k+1, tc.n+2
			a, b, c0 := randF32(rng, tc.m*lda), randF32(rng, tc.k*tc.n), randF32(rng, tc.m*ldc)
			bp := make([]float32, wasmsimd.Pack8Len(tc.k, tc.n))
			wasmsimd.Pack8(bp, b, tc.k, tc.n, tc.n)
			got := append([]float32(nil), c0...)
			gemmPanelsGo(acc, tc.m, tc.n, tc.k, a, lda, bp, got, ldc)
			for i := range tc.m {
				for j := 0; j < ldc; j++ {
					want := c0[i*ldc+j]
					if j < tc.n {
						var s float32
						if acc {
							s = want
						}
						for p := range tc.k {
							s += a[i*lda+p] * b[p*tc.n+j]
						}
						want = s
					}
					if g := got[i*ldc+j]; math.Float32bits(g) != math.Float32bits(want) {
						t.Fatalf("%dx%dx%d acc %v: C[%d,%d] = %g, want %g", tc.m, tc.n, tc.k, acc, i, j, g, want)
					}
				}
			}
		}
	}
}

// TestPackBiaffine checks that the biaffine weights packed straight from
// the parameters are Pack8 of their inference layout q[i][j*O+o] =
// w[o][i][j], padding included.
func TestPackBiaffine(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct{ D, O int }{{1, 1}, {3, 1}, {5, 3}, {9, 28}, {129, 1}, {17, 7}} {
		w := randF32(rng, tc.O*tc.D*tc.D)
		n := tc.O * tc.D
		q := make([]float32, tc.D*n)
		for o := range tc.O {
			for i := range tc.D {
				for j := range tc.D {
					q[i*n+j*tc.O+o] = w[(o*tc.D+i)*tc.D+j]
				}
			}
		}
		want := make([]float32, wasmsimd.Pack8Len(tc.D, n))
		wasmsimd.Pack8(want, q, tc.D, n, n)
		got := randF32(rng, len(want)) // not zeroed: the padding must be written
		packBiaffine(got, w, tc.D, tc.O)
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("D %d O %d: packed[%d] = %g, want %g", tc.D, tc.O, i, got[i], want[i])
			}
		}
	}
}

// TestPackRecurrent checks that the recurrent weights packed straight from
// W_hh (4H, H) are Pack32 of W_hhᵀ.
func TestPackRecurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, H := range []int{8, 24, 64, 288} {
		G := 4 * H
		whh := randF32(rng, G*H)
		tr := make([]float32, H*G)
		transposeInto(tr, G, whh, H, G, H)
		want := make([]float32, H*G)
		wasmsimd.Pack32(want, tr, H, G, G)
		got := make([]float32, H*G)
		packRecurrent(got, whh, H, G)
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("H %d: packed[%d] = %g, want %g", H, i, got[i], want[i])
			}
		}
	}
}
