//go:build js && wasm

package network

// SetPortable makes m score without the wasm SIMD kernels (portable) or
// with them, for the tests of package network_test.
func SetPortable(m *Model, portable bool) { m.portable = portable }

// KernelTolerance is the relative tolerance of the kernels' scores
// against the Go code's (kernelTol), or an error when they do not load.
func KernelTolerance() (float64, error) {
	k, err := loadKernels()
	if err != nil {
		return 0, err
	}
	return kernelTol(k), nil
}
