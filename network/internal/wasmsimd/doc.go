// Package wasmsimd assembles the WebAssembly module of the network's
// browser kernels: the products (gemm) and the LSTM cells (lstm) with
// 128-bit SIMD, which Go's wasm port does not emit.
//
// The module is written in Go: package kernels (a small assembler and the
// kernels) assembles it, and go generate (make wasm runs it) stores its
// bytes in modules_gen.go, which a test of package kernels checks against
// the assembler's output; so building the app needs no toolchain besides
// Go, and the app does not carry the assembler. Module returns the bytes,
// about 4 KB. It imports its memory as
// env.memory; package network instantiates it on the Go program's own
// linear memory, so the kernels work on Go's slices in place, given their
// addresses in a parameter block (GemmAcc..., CellA...), and keep nothing
// of their own: no data, no stack, no globals.
//
// Every kernel performs the float32 operations of the Go code it replaces
// in the same order (gemm: each element accumulated in the order of k from
// C or 0, a product then a sum; lstm: network's expf, tanhf and lstmCell
// operation by operation), so with plain SIMD the results are the Go
// code's bit for bit, whatever the tile an element falls in; the relaxed
// variant (Module(true)) fuses the products and sums of gemm
// (f32x4.relaxed_madd), within 1e-5 of them. The tests of package network
// check both against the Go code under Node (make test-wasm).
//
// Costs: gemm is O(m·n·k), register tiles of 4×8 by panels of 8 columns
// (single rows 1×32 when there are fewer than 4); lstm O(rows·H), 4
// columns at a time. Weights used at every call can be packed once so
// that gemm reads them as one stream: Pack32 for the LSTM steps' single
// rows, Pack8 by panels (the biaffines' wide matrices, whose rows are far
// apart).
package wasmsimd
