//go:build js && wasm

package network

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"syscall/js"
	"unsafe"

	"github.com/discspan/discspan/network/internal/wasmsimd"
)

// wasmKernels is the SIMD module of package wasmsimd instantiated on this
// program's own linear memory, so that its functions read and write Go's
// slices in place. There is one per process (the memory is the process's):
// loadKernels makes it on first use. Calls are serialised by mu, which
// guards the parameter block.
type wasmKernels struct {
	mu      sync.Mutex
	gemmFn  js.Value
	lstmFn  js.Value
	prm     *[max(wasmsimd.GemmWords, wasmsimd.CellWords)]int32 // the parameter block, in Go's memory
	arg     any                                                 // its address as a JS number, boxed once
	relaxed bool
}

// loadKernels instantiates the kernels once, relaxed SIMD where the engine
// validates it, else plain SIMD; it returns an error when the engine has
// no SIMD or the memory of this program cannot be found.
var loadKernels = sync.OnceValues(func() (k *wasmKernels, err error) {
	defer func() {
		if r := recover(); r != nil { // a JavaScript exception
			k, err = nil, fmt.Errorf("network: wasm kernels: %v", r)
		}
	}()
	mem, err := goMemory()
	if err != nil {
		return nil, err
	}
	wa := js.Global().Get("WebAssembly")
	imports := js.Global().Get("Object").New()
	env := js.Global().Get("Object").New()
	env.Set("memory", mem)
	imports.Set("env", env)
	for _, relaxed := range []bool{true, false} {
		code := wasmsimd.Module(relaxed)
		buf := js.Global().Get("Uint8Array").New(len(code))
		js.CopyBytesToJS(buf, code)
		if !wa.Call("validate", buf).Bool() {
			continue
		}
		inst := wa.Get("Instance").New(wa.Get("Module").New(buf), imports)
		exp := inst.Get("exports")
		k := &wasmKernels{gemmFn: exp.Get("gemm"), lstmFn: exp.Get("lstm"), relaxed: relaxed}
		k.prm = new([len(k.prm)]int32)
		k.arg = js.ValueOf(int(uintptr(unsafe.Pointer(k.prm))))
		return k, nil
	}
	return nil, errors.New("network: wasm kernels: this engine has no 128-bit SIMD")
})

// goMemory returns the WebAssembly.Memory of this Go program. wasm_exec.js
// keeps the instance in the Go object (go._inst), which Go code cannot name;
// but syscall/js calls go._makeFuncWrapper, a method of Go.prototype, to
// make every js.FuncOf: wrapping that method once catches the object.
func goMemory() (js.Value, error) {
	goClass := js.Global().Get("Go")
	if goClass.Type() != js.TypeFunction {
		return js.Value{}, errors.New("network: wasm kernels: no Go class (wasm_exec.js) in globalThis")
	}
	proto := goClass.Get("prototype")
	orig := proto.Get("_makeFuncWrapper")
	if orig.Type() != js.TypeFunction {
		return js.Value{}, errors.New("network: wasm kernels: wasm_exec.js has no Go.prototype._makeFuncWrapper")
	}
	var goObj js.Value
	catch := js.FuncOf(func(this js.Value, args []js.Value) any {
		goObj = this
		return orig.Call("apply", this, js.ValueOf([]any{args[0]}))
	})
	proto.Set("_makeFuncWrapper", catch)
	probe := js.FuncOf(func(js.Value, []js.Value) any { return nil })
	proto.Set("_makeFuncWrapper", orig)
	probe.Release()
	catch.Release()
	if goObj.Type() != js.TypeObject {
		return js.Value{}, errors.New("network: wasm kernels: the Go object was not seen")
	}
	mem := goObj.Get("_inst").Get("exports").Get("mem")
	if !mem.InstanceOf(js.Global().Get("WebAssembly").Get("Memory")) {
		return js.Value{}, errors.New("network: wasm kernels: go._inst.exports.mem is not a WebAssembly.Memory")
	}
	return mem, nil
}

// packForKernels says that inference prepares the LSTMs' recurrent
// weights packed for gemmPacked as well.
const packForKernels = true

// kernelsFor returns the kernels inference uses: nil (the portable Go
// code) when portable or when they cannot be loaded.
func kernelsFor(portable bool) *wasmKernels {
	if portable {
		return nil
	}
	k, _ := loadKernels()
	return k
}

// Kernels describes the code that scores sentences here: the wasm SIMD
// kernels (with relaxed SIMD or not) or, where they cannot be loaded, the
// portable Go code and why.
func Kernels() string {
	k, err := loadKernels()
	switch {
	case err != nil:
		return "portable Go (" + err.Error() + ")"
	case k.relaxed:
		return "wasm simd128 + relaxed-simd kernels"
	}
	return "wasm simd128 kernels"
}

// addr returns the address of s's first element in linear memory.
func addr(s []float32) int32 { return int32(uintptr(unsafe.Pointer(unsafe.SliceData(s)))) }

// gemm computes C (+)= op(A)·B as gemmStrided does (checking the same
// bounds) with the SIMD kernel; it reports false, doing nothing, when k is
// nil or there is nothing to multiply (k == 0).
func (k *wasmKernels) gemm(acc bool, m, n, kk int, a []float32, ars, aks int, b []float32, ldb int, c []float32, ldc int) bool {
	if k == nil || kk <= 0 || m <= 0 || n <= 0 {
		return false
	}
	gemmCheck(m, n, kk, a, ars, aks, b, ldb, c, ldc)
	k.invokeGemm(acc, m, n, kk, a, ars, aks, b, ldb, c, ldc, 32, 8)
	return true
}

// invokeGemm sets the GEMM kernel's parameters (B's layout given by ldb,
// its tile stride bts and panel stride panel) and runs it; the caller has
// checked the bounds.
func (k *wasmKernels) invokeGemm(acc bool, m, n, kk int, a []float32, ars, aks int, b []float32, ldb int, c []float32, ldc, bts, panel int) {
	k.mu.Lock()
	p := k.prm
	p[wasmsimd.GemmAcc] = 0
	if acc {
		p[wasmsimd.GemmAcc] = 1
	}
	p[wasmsimd.GemmM], p[wasmsimd.GemmN], p[wasmsimd.GemmK] = int32(m), int32(n), int32(kk)
	p[wasmsimd.GemmA], p[wasmsimd.GemmARS], p[wasmsimd.GemmAKS] = addr(a), int32(ars), int32(aks)
	p[wasmsimd.GemmB], p[wasmsimd.GemmLDB] = addr(b), int32(ldb)
	p[wasmsimd.GemmC], p[wasmsimd.GemmLDC] = addr(c), int32(ldc)
	p[wasmsimd.GemmBTS], p[wasmsimd.GemmPanel] = int32(bts), int32(panel)
	k.gemmFn.Invoke(k.arg)
	k.mu.Unlock()
	runtime.KeepAlive(a)
	runtime.KeepAlive(b)
	runtime.KeepAlive(c)
}

// lstmCells runs lstmCellsFwd's cells with the SIMD kernel (the same
// float32 operations in the same order: the same results); it reports
// false, doing nothing, when k is nil or H is not a multiple of 4.
func (k *wasmKernels) lstmCells(a, b, cp, c, tc, h []float32, H, rows int) bool {
	if k == nil || H%4 != 0 || H <= 0 || rows <= 0 {
		return false
	}
	G := 4 * H
	if len(a) < rows*G || len(b) < G || len(cp) < rows*H || len(c) < rows*H || len(tc) < rows*H || len(h) < rows*H {
		panic(fmt.Sprintf("network: lstm cells: %d rows of %d out of bounds (%d, %d, %d, %d, %d, %d)", rows, H, len(a), len(b), len(cp), len(c), len(tc), len(h)))
	}
	k.mu.Lock()
	p := k.prm
	p[wasmsimd.CellA], p[wasmsimd.CellB], p[wasmsimd.CellCP] = addr(a), addr(b), addr(cp)
	p[wasmsimd.CellC], p[wasmsimd.CellTC], p[wasmsimd.CellH] = addr(c), addr(tc), addr(h)
	p[wasmsimd.CellHid], p[wasmsimd.CellRows] = int32(H), int32(rows)
	k.lstmFn.Invoke(k.arg)
	k.mu.Unlock()
	runtime.KeepAlive(a)
	runtime.KeepAlive(b)
	runtime.KeepAlive(cp)
	runtime.KeepAlive(c)
	runtime.KeepAlive(tc)
	runtime.KeepAlive(h)
	return true
}

// gemmPacked computes C (+)= A·B for fewer than 4 rows of A (row stride
// lda) with B packed by wasmsimd.Pack32 (k×n, n a multiple of 32), as
// gemm would with B unpacked (the same sums); it reports false, doing
// nothing, when k is nil or m is not in [1, 4).
func (k *wasmKernels) gemmPacked(acc bool, m, n, kk int, a []float32, lda int, bp []float32, c []float32, ldc int) bool {
	if k == nil || m < 1 || m >= 4 || kk <= 0 || n <= 0 {
		return false
	}
	if n%32 != 0 || len(bp) < kk*n {
		panic(fmt.Sprintf("network: packed gemm: B of %d values for %dx%d", len(bp), kk, n))
	}
	gemmCheck(m, n, kk, a, lda, 1, bp, 0, c, ldc)
	k.invokeGemm(acc, m, n, kk, a, lda, 1, bp, 32, c, ldc, 32*kk, 8)
	return true
}

// gemmPanels computes C (+)= A·B (A row-major, row stride lda) with B
// packed by wasmsimd.Pack8 (k×n), as gemm would with B unpacked (the same
// sums); it reports false, doing nothing, when k is nil.
func (k *wasmKernels) gemmPanels(acc bool, m, n, kk int, a []float32, lda int, bp []float32, c []float32, ldc int) bool {
	if k == nil || m < 1 || kk <= 0 || n <= 0 {
		return false
	}
	if len(bp) < wasmsimd.Pack8Len(kk, n) {
		panic(fmt.Sprintf("network: gemm by panels: B of %d values for %dx%d", len(bp), kk, n))
	}
	gemmCheck(m, n, kk, a, lda, 1, bp, 0, c, ldc)
	k.invokeGemm(acc, m, n, kk, a, lda, 1, bp, 8, c, ldc, 32, 8*kk)
	return true
}
