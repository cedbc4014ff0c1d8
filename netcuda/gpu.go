// Package netcuda trains the span-scoring network of package network on an
// NVIDIA GPU: the forward pass, the loss, the backward pass, the Adam step
// and the parameter average run as cuBLAS products and the project's own
// CUDA kernels (kernels.cu, compiled at run time by NVRTC), on the same
// batch layout and the same dropout masks as the CPU path
// (network.PlanBatch), so that one step matches network.Model.LossGrad and
// network.Adam.Update up to float32 rounding (tests: TestEquivalence*).
//
// Parameters, gradients, Adam's moments and the average live on the GPU;
// each step copies the batch's indices, targets and masks in and the loss
// out, nothing else. Sync copies the state back for evaluation and
// checkpoints.
package netcuda

import (
	_ "embed"
	"fmt"
	"os"

	"github.com/discspan/discspan/cuda"
)

//go:embed kernels.cu
var kernelSource string

// kernelNames lists the kernels of kernels.cu.
var kernelNames = []string{
	"gather", "scatter_add", "mul_mask", "add_bias", "lstm_fwd", "lstm_bwd", "leaky_one", "leaky_back",
	"transpose_batched", "span_ce", "tag_ce", "sum_squares", "adam", "average", "fill",
}

// gpu wraps a device with the compiled kernels, a per-step memory arena and
// the first error of a sequence of calls (so that the step reads as the
// math, and is checked once).
type gpu struct {
	dev   *cuda.Device
	k     map[string]*cuda.Function
	err   error
	debug bool // DISCSPAN_CUDA_SYNC=1: synchronise after every call, naming the failing one
	arena arena
}

func newGPU(dev *cuda.Device) (*gpu, error) {
	mod, err := dev.Compile("netcuda/kernels.cu", kernelSource)
	if err != nil {
		return nil, fmt.Errorf("netcuda: %w", err)
	}
	g := &gpu{dev: dev, k: map[string]*cuda.Function{}, debug: os.Getenv("DISCSPAN_CUDA_SYNC") == "1"}
	for _, name := range kernelNames {
		f, err := mod.Function(name)
		if err != nil {
			return nil, fmt.Errorf("netcuda: %w", err)
		}
		g.k[name] = f
	}
	g.arena.dev = dev
	return g, nil
}

// fail records the first error.
func (g *gpu) fail(err error) {
	if err != nil && g.err == nil {
		g.err = err
	}
}

func (g *gpu) after(what string, err error) {
	if err == nil && g.debug {
		if err = g.dev.Sync(); err != nil {
			err = fmt.Errorf("after %s: %w", what, err)
		}
	}
	g.fail(err)
}

const threads = 256

func blocks(n int) int { return max(1, min((n+threads-1)/threads, 1<<20)) }

// launch runs kernel name over n elements (grid-stride loops).
func (g *gpu) launch(name string, n int, args ...cuda.Arg) {
	if g.err != nil || n <= 0 {
		return
	}
	g.after(name, g.dev.Launch(g.k[name], [3]int{blocks(n), 1, 1}, [3]int{threads, 1, 1}, 0, args...))
}

// gemm computes C = alpha op(A) op(B) + beta C for row-major matrices
// (op(A) m x k, op(B) k x n, C m x n), as cuBLAS's column-major product
// Cᵀ = op(B)ᵀ op(A)ᵀ.
func (g *gpu) gemm(tA, tB bool, m, n, k int, alpha float32, a cuda.Ptr, lda int, b cuda.Ptr, ldb int, beta float32, c cuda.Ptr, ldc int) {
	if g.err != nil || m == 0 || n == 0 {
		return
	}
	if k == 0 {
		if beta == 0 {
			g.zeroRows(c, m, n, ldc)
		}
		return
	}
	g.after("sgemm", g.dev.Sgemm(tB, tA, n, m, k, alpha, b, ldb, a, lda, beta, c, ldc))
}

// gemmBatched is gemm over count products, X_i = X + i*strideX.
func (g *gpu) gemmBatched(tA, tB bool, m, n, k int, alpha float32, a cuda.Ptr, lda, sa int, b cuda.Ptr, ldb, sb int, beta float32, c cuda.Ptr, ldc, sc, count int) {
	if g.err != nil || m == 0 || n == 0 || count == 0 {
		return
	}
	g.after("sgemm batched", g.dev.SgemmStridedBatched(tB, tA, n, m, k, alpha, b, ldb, sb, a, lda, sa, beta, c, ldc, sc, count))
}

func (g *gpu) zeroRows(c cuda.Ptr, m, n, ldc int) {
	if ldc == n {
		g.zero(c, m*n)
		return
	}
	for r := 0; r < m; r++ {
		g.zero(c.Add(r*ldc), n)
	}
}

func (g *gpu) zero(p cuda.Ptr, n int) {
	if g.err == nil && n > 0 {
		g.after("memset", g.dev.Zero(p, n))
	}
}

func (g *gpu) gather(dst cuda.Ptr, ldd int, src cuda.Ptr, lds int, idx cuda.Ptr, rows, cols int, acc bool) {
	a := 0
	if acc {
		a = 1
	}
	g.launch("gather", rows*cols, cuda.P(dst), cuda.I(ldd), cuda.P(src), cuda.I(lds), cuda.P(idx), cuda.I(rows), cuda.I(cols), cuda.I(a))
}

func (g *gpu) scatterAdd(dst cuda.Ptr, ldd int, src cuda.Ptr, lds int, idx cuda.Ptr, rows, cols int) {
	g.launch("scatter_add", rows*cols, cuda.P(dst), cuda.I(ldd), cuda.P(src), cuda.I(lds), cuda.P(idx), cuda.I(rows), cuda.I(cols))
}

func (g *gpu) mulMask(x, m cuda.Ptr, n int) {
	if m != 0 {
		g.launch("mul_mask", n, cuda.P(x), cuda.P(m), cuda.Arg(n))
	}
}

func (g *gpu) addBias(x cuda.Ptr, ld int, b cuda.Ptr, rows, cols int) {
	g.launch("add_bias", rows*cols, cuda.P(x), cuda.I(ld), cuda.P(b), cuda.I(rows), cuda.I(cols))
}

// arena hands out device memory for one step from blocks kept between
// steps (allocated as needed, freed by release).
type arena struct {
	dev    *cuda.Device
	blocks []block
	cur    int // block in use
	off    int // bytes used in it
}

type block struct {
	p    cuda.Ptr
	size int
}

const arenaBlock = 64 << 20

// take returns n 32-bit values (not zeroed), 256-byte aligned.
func (a *arena) take(n int) (cuda.Ptr, error) {
	bytes := (4*max(n, 1) + 255) &^ 255
	for a.cur < len(a.blocks) {
		b := a.blocks[a.cur]
		if a.off+bytes <= b.size {
			p := b.p + cuda.Ptr(a.off)
			a.off += bytes
			return p, nil
		}
		a.cur++
		a.off = 0
	}
	size := max(bytes, arenaBlock)
	p, err := a.dev.Alloc(size)
	if err != nil {
		return 0, err
	}
	a.blocks = append(a.blocks, block{p, size})
	a.cur = len(a.blocks) - 1
	a.off = bytes
	return p, nil
}

func (a *arena) reset() { a.cur, a.off = 0, 0 }

// bytes returns the memory the arena holds.
func (a *arena) bytes() int {
	n := 0
	for _, b := range a.blocks {
		n += b.size
	}
	return n
}

func (a *arena) release() {
	for _, b := range a.blocks {
		a.dev.Free(b.p)
	}
	a.blocks = nil
	a.reset()
}

// take is arena.take with the error recorded (0 after an error).
func (g *gpu) take(n int) cuda.Ptr {
	if g.err != nil {
		return 0
	}
	p, err := g.arena.take(n)
	g.fail(err)
	return p
}

func (g *gpu) zeros(n int) cuda.Ptr {
	p := g.take(n)
	g.zero(p, n)
	return p
}

// upload copies host data into a fresh arena buffer.
func upload[T float32 | int32 | float64](g *gpu, data []T) cuda.Ptr {
	if len(data) == 0 {
		return 0
	}
	n := len(data)
	var zero T
	if _, ok := any(zero).(float64); ok {
		n *= 2
	}
	p := g.take(n)
	if g.err == nil {
		g.fail(cuda.Upload(g.dev, p, data))
	}
	return p
}
