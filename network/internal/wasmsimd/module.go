package wasmsimd

import "bytes"

//go:generate go run ./kernels/gen

// Module returns the kernels' WebAssembly module (about 4 KB): it imports
// the memory it works on as env.memory and exports gemm and lstm, each
// taking the address of its parameter block (GemmAcc..., CellA...). With
// relaxed, the products use relaxed-SIMD's multiply-add
// (f32x4.relaxed_madd: fused where the machine has FMA), which engines
// without relaxed SIMD reject (WebAssembly.validate tells). The bytes are
// those package kernels assembles, generated into modules_gen.go (go
// generate; a test checks that they are current).
func Module(relaxed bool) []byte {
	if relaxed {
		return bytes.Clone(relaxedModule)
	}
	return bytes.Clone(plainModule)
}
