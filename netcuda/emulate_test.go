//go:build linux

package netcuda

import (
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ebitengine/purego"

	"github.com/discspan/discspan/network"
)

// emulationPrelude makes kernels.cu plain C++ for the CPU: every launch is
// emulated as a sequence of blocks of ONE thread each (emu_block sets the
// indices), which every kernel supports (grid-stride loops; block_sum_add
// with one thread is a plain add), so that the kernels' arithmetic can be
// checked against package network without a GPU. It checks the math and
// that the source compiles as C++, not NVRTC's view of it or the parallel
// schedule: TestEquivalence* do that on a GPU.
const emulationPrelude = `#include <math.h>
struct emu_dim { unsigned x, y, z; };
static emu_dim threadIdx, blockIdx, blockDim, gridDim;
#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
static inline void __syncthreads() {}
static inline float atomicAdd(float *p, float v) { float old = *p; *p = old + v; return old; }
static inline double atomicAdd(double *p, double v) { double old = *p; *p = old + v; return old; }
static inline float __fadd_rn(float a, float b) { return a + b; }
static inline float __fmul_rn(float a, float b) { return a * b; }
extern "C" void emu_block(unsigned bx, unsigned by, unsigned gx, unsigned gy) {
	threadIdx = emu_dim{0, 0, 0};
	blockDim = emu_dim{1, 1, 1};
	blockIdx = emu_dim{bx, by, 0};
	gridDim = emu_dim{gx, gy, 1};
}
`

// emulatedKernels is kernels.cu built for the CPU (see emulationPrelude).
type emulatedKernels struct {
	block  func(bx, by, gx, gy uint32)
	spanCE func(sspan, slab *float32, tgt, sidx *int32, sprob *float32, sweight *float64, nwords *int32, dspan, dlab *float32, parts *float64, kind, nm, L int32, scale float32)
}

// buildEmulation compiles the embedded kernel source (the text NVRTC gets)
// with the system's C++ compiler and loads it, or skips, saying why, where
// there is no compiler.
func buildEmulation(t *testing.T) *emulatedKernels {
	t.Helper()
	var cxx string
	for _, name := range []string{"g++", "c++", "clang++"} {
		if p, err := exec.LookPath(name); err == nil {
			cxx = p
			break
		}
	}
	if cxx == "" {
		t.Skip("no C++ compiler (g++, c++ or clang++) to build kernels.cu for the CPU emulation")
	}
	dir := t.TempDir()
	src, prelude, lib := filepath.Join(dir, "kernels.cu"), filepath.Join(dir, "prelude.h"), filepath.Join(dir, "kernels.so")
	if err := os.WriteFile(src, []byte(kernelSource), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(prelude, []byte(emulationPrelude), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(cxx, "-std=c++17", "-O1", "-ffp-contract=off", "-fPIC", "-shared", "-Wall", "-Werror", "-Wno-sign-compare",
		"-include", prelude, "-x", "c++", src, "-o", lib)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("kernels.cu does not compile as C++ (%s): %v\n%s", cxx, err, out)
	}
	h, err := purego.Dlopen(lib, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		t.Fatalf("loading the emulated kernels: %v", err)
	}
	t.Cleanup(func() { purego.Dlclose(h) })
	k := &emulatedKernels{}
	purego.RegisterLibFunc(&k.block, h, "emu_block")
	purego.RegisterLibFunc(&k.spanCE, h, "span_ce")
	return k
}

// ptr returns a pointer to the first element of xs, nil when it is empty
// (a null device pointer).
func ptr[T any](xs []T) *T {
	if len(xs) == 0 {
		return nil
	}
	return &xs[0]
}

// TestSpanCEEmulated runs the span_ce kernel, emulated on the CPU, on
// random scores of a padded batch (sentences of 6, 9, 3 and 0 words) and
// compares its loss and score gradients with network.SpanCrossEntropy: with
// the gold classes alone (no soft targets, as before distillation ran on
// the GPU), and with a teacher's distributions on some cells (weights 0.7
// and 0.4; two sentences without any, weight 0). Tolerance: 1e-6 relative for the losses
// (summed in float64 on both sides), 1e-6 of the largest gradient for the
// gradients (float32 on both sides; exp differs in the last bits).
func TestSpanCEEmulated(t *testing.T) {
	k := buildEmulation(t)
	lens := []int{6, 9, 3, 0}
	const L, kind, scale = 5, 1, 0.25
	B, nm := len(lens), 9
	rng := rand.New(rand.NewPCG(11, 12))
	sspan, slab := make([]float32, B*nm*nm), make([]float32, B*nm*L*nm)
	for i := range sspan {
		sspan[i] = float32(4*rng.Float64() - 2)
	}
	for i := range slab {
		slab[i] = float32(6*rng.Float64() - 3)
	}
	tgt := make([]int32, B*nm*nm)
	for i := range tgt {
		if rng.IntN(4) == 0 {
			tgt[i] = int32(1 + rng.IntN(L))
		}
	}
	// The teacher: about a third of the cells of the first two sentences,
	// probabilities summing below 1.
	soft := make([][]network.SoftCell, B)
	weights := []float64{0.7, 0.4, 0, 0}
	for b, n := range lens[:2] {
		for x := 0; x < n; x++ {
			for y := x; y < n; y++ {
				if rng.IntN(3) != 0 {
					continue
				}
				soft[b] = append(soft[b], network.SoftCell{Cell: int32(x*n + y), Probs: randomProbs(rng, L)})
			}
		}
	}
	for _, tc := range []struct {
		name string
		soft bool
	}{{"gold alone", false}, {"with a teacher", true}} {
		t.Run(tc.name, func(t *testing.T) {
			var sidx []int32
			var sprob []float32
			var sweight []float64
			if tc.soft {
				sidx = make([]int32, B*nm*nm)
				for i := range sidx {
					sidx[i] = -1
				}
				sweight = weights
				for b, n := range lens {
					for _, c := range soft[b] {
						x, y := int(c.Cell)/n, int(c.Cell)%n
						sidx[b*nm*nm+x*nm+y] = int32(len(sprob) / L)
						sprob = append(sprob, c.Probs...)
					}
				}
			}
			nwords := make([]int32, B)
			for b, n := range lens {
				nwords[b] = int32(n)
			}
			dspan, dlab := make([]float32, B*nm*nm), make([]float32, B*nm*L*nm)
			for i := range dspan {
				dspan[i] = float32(math.NaN()) // every cell must be written
			}
			for i := range dlab {
				dlab[i] = float32(math.NaN())
			}
			parts := make([]float64, 5*B)
			for by := range B {
				for bx := range nm * nm {
					k.block(uint32(bx), uint32(by), uint32(nm*nm), uint32(B))
					k.spanCE(ptr(sspan), ptr(slab), ptr(tgt), ptr(sidx), ptr(sprob), ptr(sweight), ptr(nwords), ptr(dspan), ptr(dlab), ptr(parts), kind, int32(nm), L, scale)
				}
			}
			for b, n := range lens {
				s, target, d := make([]float32, n*n*L), make([]int, n*n), make([]float32, n*n*L)
				for x := 0; x < n; x++ {
					for y := x; y < n; y++ {
						target[x*n+y] = int(tgt[b*nm*nm+x*nm+y])
						for a := range L {
							s[(x*n+y)*L+a] = sspan[b*nm*nm+x*nm+y] + slab[b*nm*L*nm+(x*L+a)*nm+y]
						}
					}
				}
				var cells []network.SoftCell
				w := 0.0
				if tc.soft {
					cells, w = soft[b], weights[b]
				}
				want := network.SpanCrossEntropy(s, target, cells, w, n, L, scale, d)
				for i, v := range parts[5*b : 5*b+5] {
					if i != kind && v != 0 {
						t.Errorf("sentence %d: loss %g added to part %d, want only part %d", b, v, i, kind)
					}
				}
				if got := parts[5*b+kind]; math.Abs(got-want) > 1e-6*math.Max(math.Abs(want), 1) {
					t.Errorf("sentence %d (%d words): loss %.9g, CPU reference %.9g", b, n, got, want)
				}
				var maxD float64
				for _, v := range d {
					maxD = math.Max(maxD, math.Abs(float64(v)))
				}
				tol := 1e-6 * math.Max(maxD, 1e-3)
				for x := range nm {
					for y := range nm {
						var wantSpan float64
						for a := range L {
							wantLab := 0.0
							if x <= y && y < n {
								wantLab = float64(d[(x*n+y)*L+a])
							}
							wantSpan += wantLab
							if got := float64(dlab[b*nm*L*nm+(x*L+a)*nm+y]); !(math.Abs(got-wantLab) <= tol) {
								t.Errorf("sentence %d, cell (%d,%d), label %d: gradient %.9g, CPU reference %.9g", b, x, y, a, got, wantLab)
							}
						}
						if got := float64(dspan[b*nm*nm+x*nm+y]); !(math.Abs(got-wantSpan) <= 4*tol) {
							t.Errorf("sentence %d, cell (%d,%d): span gradient %.9g, CPU reference %.9g", b, x, y, got, wantSpan)
						}
					}
				}
			}
		})
	}
}
