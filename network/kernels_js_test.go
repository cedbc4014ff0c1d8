//go:build js && wasm

package network

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/discspan/discspan/network/internal/wasmsimd"
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

// TestWasmGemmPackedMatchesGo: the SIMD GEMM of 1 to 3 rows on B packed
// by wasmsimd.Pack32 (an LSTM step's recurrent weights) against
// gemmStrided on B as it is.
func TestWasmGemmPackedMatchesGo(t *testing.T) {
	k := wasmKernelsOrFail(t)
	tol := kernelTol(k)
	rng := rand.New(rand.NewPCG(23, 23))
	for _, tc := range []struct {
		name    string
		m, n, K int
		acc     bool
	}{
		{"char step", 1, 128, 32, true},
		{"tiny step", 1, 768, 192, true},
		{"2 rows", 2, 64, 7, false},
		{"3 rows", 3, 96, 33, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lda := tc.K + 3
			a, b := randF32(rng, tc.m*lda), randF32(rng, tc.K*tc.n)
			bp := make([]float32, len(b))
			wasmsimd.Pack32(bp, b, tc.K, tc.n, tc.n)
			c0 := randF32(rng, tc.m*tc.n)
			want, got := append([]float32(nil), c0...), append([]float32(nil), c0...)
			gemmStrided(tc.acc, tc.m, tc.n, tc.K, a, lda, 1, b, tc.n, want, tc.n)
			if !k.gemmPacked(tc.acc, tc.m, tc.n, tc.K, a, lda, bp, got, tc.n) {
				t.Fatal("the kernel declined")
			}
			for i := range want {
				if d := math.Abs(float64(got[i] - want[i])); d > tol*math.Max(1, math.Abs(float64(want[i]))) {
					t.Fatalf("C[%d,%d] = %g, Go %g", i/tc.n, i%tc.n, got[i], want[i])
				}
			}
		})
	}
	if k.gemmPacked(false, 4, 32, 1, make([]float32, 4), 1, make([]float32, 32), make([]float32, 128), 32) {
		t.Error("the packed kernel took 4 rows")
	}
}

// TestWasmGemmPanelsMatchGo: the SIMD GEMM on B packed by wasmsimd.Pack8
// (the biaffines' wide weights) against gemmStrided on B as it is, for
// widths with and without a partial last panel and for fewer rows than a
// tile.
func TestWasmGemmPanelsMatchGo(t *testing.T) {
	k := wasmKernelsOrFail(t)
	tol := kernelTol(k)
	rng := rand.New(rand.NewPCG(24, 24))
	for _, tc := range []struct {
		name    string
		m, n, K int
		acc     bool
	}{
		{"biaffine", 20, 3298, 97, false},
		{"one row", 1, 34, 5, true},
		{"3 rows, partial panel", 3, 13, 9, false},
		{"5 rows", 5, 8, 4, true},
		{"odd", 7, 21, 3, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lda := tc.K + 1
			a, b := randF32(rng, tc.m*lda), randF32(rng, tc.K*tc.n)
			bp := make([]float32, wasmsimd.Pack8Len(tc.K, tc.n))
			wasmsimd.Pack8(bp, b, tc.K, tc.n, tc.n)
			ldc := tc.n + 2
			c0 := randF32(rng, tc.m*ldc)
			want, got := append([]float32(nil), c0...), append([]float32(nil), c0...)
			gemmStrided(tc.acc, tc.m, tc.n, tc.K, a, lda, 1, b, tc.n, want, ldc)
			if !k.gemmPanels(tc.acc, tc.m, tc.n, tc.K, a, lda, bp, got, ldc) {
				t.Fatal("the kernel declined")
			}
			for i := range want {
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

// BenchmarkWasmGemm runs the SIMD GEMM on the shapes of the Tiny preset's
// forward pass for 20 words (m×n×k), reporting GFLOP/s.
func BenchmarkWasmGemm(b *testing.B) {
	k := wasmKernelsOrFail(b)
	rng := rand.New(rand.NewPCG(22, 22))
	// Warm up: the engine compiles the kernels with its optimising tier
	// only after they have run a while (else the first case pays).
	wa, wb, wc := randF32(rng, 8*64), randF32(rng, 64*64), make([]float32, 8*64)
	for range 2000 {
		k.gemm(false, 8, 64, 64, wa, 64, 1, wb, 64, wc, 64)
		k.gemm(false, 1, 64, 64, wa, 64, 1, wb, 64, wc, 64)
	}
	for _, s := range []struct {
		name    string
		m, n, K int
	}{
		{"lstm-step_1x768x192", 1, 768, 192},
		{"lstm-step_1x768x192-unpacked", 1, 768, 191},
		{"rows_4x768x192", 4, 768, 192},
		{"rows_8x768x192", 8, 768, 192},
		{"lstm-input_22x768x384", 22, 768, 384},
		{"mlp_20x128x384", 20, 128, 384},
		{"biaffine_20x3298x97", 20, 3298, 97},
		{"labels_10x34x97", 10, 34, 97},
	} {
		b.Run(s.name, func(b *testing.B) {
			a, bm, c := randF32(rng, s.m*s.K), randF32(rng, s.K*s.n), make([]float32, s.m*s.n)
			packed := s.m < 4 && s.n%32 == 0
			if packed {
				bp := make([]float32, len(bm))
				wasmsimd.Pack32(bp, bm, s.K, s.n, s.n)
				bm = bp
			}
			for b.Loop() {
				if packed {
					k.gemmPacked(false, s.m, s.n, s.K, a, s.K, bm, c, s.n)
				} else {
					k.gemm(false, s.m, s.n, s.K, a, s.K, 1, bm, s.n, c, s.n)
				}
			}
			b.ReportMetric(2*float64(s.m*s.n*s.K)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// TestWasmRecurrentLazy: in the tab the sentence LSTMs' plain W_hhᵀ is
// made only when a step has 4 rows or more (a batch of sentences): one
// sentence reads the packed copy alone, and a batch then scores each
// sentence as it scores it alone.
func TestWasmRecurrentLazy(t *testing.T) {
	wasmKernelsOrFail(t)
	c := smallConfig() // LSTMs of 24: 4H = 96, a multiple of 32
	m := randomModel(t, c, 31)
	batch := randomBatch(c, 32, 7, 3, 9, 5, 6)
	alone, err := m.Forward(batch[0].Input)
	if err != nil {
		t.Fatal(err)
	}
	p := preparedFor(m.Params, 1)
	for _, l := range [][2]prepLSTM{p.l1, p.l2} {
		for _, d := range l {
			if d.whhP == nil || d.lazy == nil || d.whhT != nil {
				t.Fatalf("a sentence LSTM is prepared with whhP %v, lazy %v, whhT %v", d.whhP != nil, d.lazy != nil, d.whhT != nil)
			}
			if d.lazy.t != nil {
				t.Errorf("one sentence made the plain W_hhᵀ (%d values)", len(d.lazy.t))
			}
		}
	}
	ins := make([]Input, len(batch))
	for i, ex := range batch {
		ins[i] = ex.Input
	}
	outs, err := m.ForwardBatch(ins)
	if err != nil {
		t.Fatal(err)
	}
	if p.l1[0].lazy.t == nil {
		t.Error("a batch of 5 sentences did not make the plain W_hhᵀ")
	}
	for j, v := range outs[0].Scores.Cont {
		if math.Float32bits(v) != math.Float32bits(alone.Scores.Cont[j]) {
			t.Fatalf("cont[%d] = %g in a batch, %g alone", j, v, alone.Scores.Cont[j])
		}
	}
}
