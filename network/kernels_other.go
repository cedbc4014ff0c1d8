//go:build !(js && wasm)

package network

// wasmKernels stands for the wasm SIMD kernels (kernels_js.go), which
// other platforms do not have.
type wasmKernels struct{}

// packForKernels is false: no packed copies of weights are needed.
const packForKernels = false

// kernelsFor returns nil: the native code is used.
func kernelsFor(portable bool) *wasmKernels { return nil }

// Kernels describes the code that scores sentences here.
func Kernels() string {
	if useAVX2 {
		return "amd64 AVX2/FMA kernels"
	}
	return "portable Go"
}

// gemm reports false: there are no wasm kernels.
func (k *wasmKernels) gemm(acc bool, m, n, kk int, a []float32, ars, aks int, b []float32, ldb int, c []float32, ldc int) bool {
	return false
}

// lstmCells reports false: there are no wasm kernels.
func (k *wasmKernels) lstmCells(a, b, cp, c, tc, h []float32, H, rows int) bool { return false }

// gemmPacked reports false: there are no wasm kernels.
func (k *wasmKernels) gemmPacked(acc bool, m, n, kk int, a []float32, lda int, bp []float32, c []float32, ldc int) bool {
	return false
}

// gemmPanels reports false: there are no wasm kernels.
func (k *wasmKernels) gemmPanels(acc bool, m, n, kk int, a []float32, lda int, bp []float32, c []float32, ldc int) bool {
	return false
}
