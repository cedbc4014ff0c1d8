//go:build js && wasm

package network

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// wasmKernelsOrFail returns the SIMD kernels; every engine the app
// supports (and Node 20) has 128-bit SIMD, so failing to load them is an
// error, not a reason to skip.
func wasmKernelsOrFail(t testing.TB) *wasmKernels {
	t.Helper()
	k, err := loadKernels()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// kernelTol is the tolerance of the SIMD kernels against the Go code: 0
// (bit for bit) with plain SIMD, which computes the same float32 sums;
// 1e-5 relative with relaxed SIMD, whose multiply-add may be fused.
func kernelTol(k *wasmKernels) float64 {
	if k.relaxed {
		return 1e-5
	}
	return 0
}

// TestWasmKernelsLoad: the kernels load, and Kernels says which.
func TestWasmKernelsLoad(t *testing.T) {
	k := wasmKernelsOrFail(t)
	if got := Kernels(); !strings.HasPrefix(got, "wasm simd128") {
		t.Errorf("Kernels() = %q with kernels loaded (relaxed %v)", got, k.relaxed)
	}
	t.Logf("%s", Kernels())
}

// TestWasmGemmMatchesGo: the SIMD GEMM against gemmStrided (the portable
// Go kernel under js) on every tile and edge: rows and columns below,
// at and above the tile sizes, strided and transposed A, accumulation;
// values around C are never written.
func TestWasmGemmMatchesGo(t *testing.T) {
	k := wasmKernelsOrFail(t)
	tol := kernelTol(k)
	rng := rand.New(rand.NewPCG(20, 20))
	cases := []struct {
		name    string
		m, n, K int
		trans   bool // A stored transposed (aks = lda)
		acc     bool
		pad     int // extra columns of the row strides
	}{
		{"1x1x1", 1, 1, 1, false, false, 0},
		{"gemv lstm step", 1, 768, 192, false, true, 0},
		{"gemv odd", 1, 37, 5, false, false, 3},
		{"3 rows", 3, 9, 4, false, true, 1},
		{"4x8 exact", 4, 8, 16, false, false, 0},
		{"5x13", 5, 13, 7, false, true, 2},
		{"labels 34", 19, 34, 97, false, false, 0},
		{"biaffine t", 20, 3298, 97, false, false, 0},
		{"transposed A", 9, 21, 11, true, false, 0},
		{"transposed A acc", 6, 16, 33, true, true, 5},
		{"tall", 45, 4, 3, false, true, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lda, ldb, ldc := tc.K+tc.pad, tc.n+tc.pad, tc.n+tc.pad
			ars, aks := lda, 1
			a := randF32(rng, tc.m*lda)
			if tc.trans {
				lda = tc.m + tc.pad
				a = randF32(rng, tc.K*lda)
				ars, aks = 1, lda
			}
			b := randF32(rng, tc.K*ldb)
			c0 := randF32(rng, (tc.m+1)*ldc) // a row of guard values after C
			want, got := append([]float32(nil), c0...), append([]float32(nil), c0...)
			gemmStrided(tc.acc, tc.m, tc.n, tc.K, a, ars, aks, b, ldb, want, ldc)
			if !k.gemm(tc.acc, tc.m, tc.n, tc.K, a, ars, aks, b, ldb, got, ldc) {
				t.Fatal("the kernel declined")
			}
			for i := range want {
				inC := i < tc.m*ldc && i%ldc < tc.n
				if !inC && got[i] != c0[i] {
					t.Fatalf("value %d outside C written: %g, was %g", i, got[i], c0[i])
				}
				if d := math.Abs(float64(got[i] - want[i])); d > tol*math.Max(1, math.Abs(float64(want[i]))) {
					t.Fatalf("C[%d,%d] = %g, Go %g", i/ldc, i%ldc, got[i], want[i])
				}
			}
		})
	}
}

// TestWasmLSTMCellsMatchGo: the SIMD cells against lstmCellsFwd (the Go
// code under js), bit for bit (the same float32 operations), on
// pre-activations from tiny to saturating (the branches of expf and
// tanhf), for the hidden sizes of the presets and small ones.
func TestWasmLSTMCellsMatchGo(t *testing.T) {
	k := wasmKernelsOrFail(t)
	rng := rand.New(rand.NewPCG(21, 21))
	for _, tc := range []struct {
		name    string
		H, rows int
		scale   float32
	}{
		{"H4 one row", 4, 1, 1},
		{"H8 small values", 8, 3, 0.3},
		{"char 32", 32, 17, 3},
		{"tiny 192", 192, 2, 5},
		{"saturating", 12, 4, 120},
	} {
		t.Run(tc.name, func(t *testing.T) {
			H, rows := tc.H, tc.rows
			a := randF32(rng, rows*4*H)
			for i := range a {
				a[i] *= tc.scale
			}
			b, cp := randF32(rng, 4*H), randF32(rng, rows*H)
			a2 := append([]float32(nil), a...)
			c1, tc1, h1 := make([]float32, rows*H), make([]float32, rows*H), make([]float32, rows*H)
			c2, tc2, h2 := make([]float32, rows*H), make([]float32, rows*H), make([]float32, rows*H)
			lstmCellsFwd(a, b, cp, c1, tc1, h1, H, rows)
			if !k.lstmCells(a2, b, cp, c2, tc2, h2, H, rows) {
				t.Fatal("the kernel declined")
			}
			for _, x := range []struct {
				name      string
				want, got []float32
			}{{"gates", a, a2}, {"c", c1, c2}, {"tanh c", tc1, tc2}, {"h", h1, h2}} {
				for i := range x.want {
					if math.Float32bits(x.got[i]) != math.Float32bits(x.want[i]) {
						t.Fatalf("%s[%d] = %g, Go %g", x.name, i, x.got[i], x.want[i])
					}
				}
			}
		})
	}
}
