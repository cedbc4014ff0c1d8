//go:build linux

package cuda

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Device is one GPU with its primary context and a cuBLAS handle.
type Device struct {
	l       *libs
	ordinal int32
	ctx     uintptr
	blas    uintptr
	name    string
	ccMajor int
	ccMinor int
	total   uint64
	driver  int
	mu      sync.Mutex // one goroutine at a time (Bind)
	s       *scratch
	modules []uintptr
	closed  bool
}

// scratch holds the values whose addresses are passed to the libraries: on
// the heap, so that they do not move during a call.
type scratch struct {
	i32    [4]int32
	u64    [4]uint64
	alpha  float32
	beta   float32
	args   [40]uint64  // kernel argument values
	params [40]uintptr // kernel argument addresses (&args[i])
	str    uintptr     // a C string the driver returns
	name   [256]byte
}

// check turns a CUresult into an *Error.
func (d *Device) check(call string, r uintptr) error {
	if r == 0 {
		return nil
	}
	e := &Error{Call: call, Code: int(r), Name: fmt.Sprintf("CUresult %d", r)}
	d.s.str = 0
	if res, _, _ := purego.SyscallN(d.l.cuGetErrorName, r, uintptr(unsafe.Pointer(&d.s.str))); res == 0 && d.s.str != 0 {
		e.Name = gostring(d.s.str)
	}
	d.s.str = 0
	if res, _, _ := purego.SyscallN(d.l.cuGetErrorString, r, uintptr(unsafe.Pointer(&d.s.str))); res == 0 && d.s.str != 0 {
		e.Message = gostring(d.s.str)
	}
	return e
}

// cublasStatusNames names cuBLAS's status codes.
var cublasStatusNames = map[uintptr]string{
	1: "CUBLAS_STATUS_NOT_INITIALIZED", 3: "CUBLAS_STATUS_ALLOC_FAILED", 7: "CUBLAS_STATUS_INVALID_VALUE",
	8: "CUBLAS_STATUS_ARCH_MISMATCH", 11: "CUBLAS_STATUS_MAPPING_ERROR", 13: "CUBLAS_STATUS_EXECUTION_FAILED",
	14: "CUBLAS_STATUS_INTERNAL_ERROR", 15: "CUBLAS_STATUS_NOT_SUPPORTED", 16: "CUBLAS_STATUS_LICENSE_ERROR",
}

func blasCheck(call string, r uintptr) error {
	if r == 0 {
		return nil
	}
	name, ok := cublasStatusNames[r]
	if !ok {
		name = fmt.Sprintf("cublasStatus %d", r)
	}
	return &Error{Call: call, Code: int(r), Name: name}
}

// Open initialises the driver and returns GPU number ordinal (0: the
// first). It returns an *Unavailable error where there is no driver, no
// such device or no NVRTC/cuBLAS library.
func Open(ordinal int) (*Device, error) {
	l, err := load()
	if err != nil {
		return nil, err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	d := &Device{l: l, ordinal: int32(ordinal), s: new(scratch)}
	for i := range d.s.params {
		d.s.params[i] = uintptr(unsafe.Pointer(&d.s.args[i]))
	}
	s := d.s
	if r, _, _ := purego.SyscallN(l.cuInit, 0); r != 0 {
		return nil, &Unavailable{Reason: d.check("cuInit", r).Error()}
	}
	if r, _, _ := purego.SyscallN(l.cuDeviceGetCount, uintptr(unsafe.Pointer(&s.i32[0]))); r != 0 {
		return nil, &Unavailable{Reason: d.check("cuDeviceGetCount", r).Error()}
	}
	if int(s.i32[0]) <= ordinal {
		return nil, &Unavailable{Reason: fmt.Sprintf("%d CUDA devices, no device %d", s.i32[0], ordinal)}
	}
	purego.SyscallN(l.cuDriverGetVersion, uintptr(unsafe.Pointer(&s.i32[1])))
	d.driver = int(s.i32[1])
	if r, _, _ := purego.SyscallN(l.cuDeviceGet, uintptr(unsafe.Pointer(&s.i32[0])), uintptr(ordinal)); r != 0 {
		return nil, d.check("cuDeviceGet", r)
	}
	dev := uintptr(s.i32[0])
	d.ordinal = s.i32[0]
	if r, _, _ := purego.SyscallN(l.cuDeviceGetName, uintptr(unsafe.Pointer(&s.name[0])), uintptr(len(s.name)-1), dev); r != 0 {
		return nil, d.check("cuDeviceGetName", r)
	}
	d.name = gostring(uintptr(unsafe.Pointer(&s.name[0])))
	if r, _, _ := purego.SyscallN(l.cuDeviceTotalMem, uintptr(unsafe.Pointer(&s.u64[0])), dev); r != 0 {
		return nil, d.check("cuDeviceTotalMem_v2", r)
	}
	d.total = s.u64[0]
	for i, attr := range []uintptr{75, 76} { // compute capability major, minor
		if r, _, _ := purego.SyscallN(l.cuDeviceGetAttribute, uintptr(unsafe.Pointer(&s.i32[i])), attr, dev); r != 0 {
			return nil, d.check("cuDeviceGetAttribute", r)
		}
	}
	d.ccMajor, d.ccMinor = int(s.i32[0]), int(s.i32[1])
	if r, _, _ := purego.SyscallN(l.cuDevicePrimaryCtxRetain, uintptr(unsafe.Pointer(&s.u64[0])), dev); r != 0 {
		return nil, d.check("cuDevicePrimaryCtxRetain", r)
	}
	d.ctx = uintptr(s.u64[0])
	if r, _, _ := purego.SyscallN(l.cuCtxSetCurrent, d.ctx); r != 0 {
		return nil, d.check("cuCtxSetCurrent", r)
	}
	if r, _, _ := purego.SyscallN(l.cublasCreate, uintptr(unsafe.Pointer(&s.u64[1]))); r != 0 {
		purego.SyscallN(l.cuDevicePrimaryCtxRelease, dev)
		return nil, blasCheck("cublasCreate_v2", r)
	}
	d.blas = uintptr(s.u64[1])
	return d, nil
}

// Name returns the GPU's name, e.g. "NVIDIA H100 80GB HBM3".
func (d *Device) Name() string { return d.name }

// ComputeCapability returns the GPU's compute capability.
func (d *Device) ComputeCapability() (major, minor int) { return d.ccMajor, d.ccMinor }

// TotalMemory returns the GPU's memory in bytes.
func (d *Device) TotalMemory() uint64 { return d.total }

// Describe returns a one-line description of the device and libraries.
func (d *Device) Describe() string {
	return fmt.Sprintf("%s (compute %d.%d, %.1f GiB, driver API %d.%d; %s, %s)", d.name, d.ccMajor, d.ccMinor,
		float64(d.total)/(1<<30), d.driver/1000, d.driver%1000/10, d.l.nvrtcPath, d.l.cublasPath)
}

// Bind makes the device's context current on the calling goroutine's OS
// thread and locks the goroutine to it; call the returned function when
// done. Every other method must be called between the two.
func (d *Device) Bind() (unbind func(), err error) {
	d.mu.Lock()
	runtime.LockOSThread()
	if d.closed {
		runtime.UnlockOSThread()
		d.mu.Unlock()
		return nil, fmt.Errorf("cuda: device closed")
	}
	if r, _, _ := purego.SyscallN(d.l.cuCtxSetCurrent, d.ctx); r != 0 {
		runtime.UnlockOSThread()
		d.mu.Unlock()
		return nil, d.check("cuCtxSetCurrent", r)
	}
	return func() {
		runtime.UnlockOSThread()
		d.mu.Unlock()
	}, nil
}

// Close releases the modules, the cuBLAS handle and the context.
func (d *Device) Close() error {
	unbind, err := d.Bind()
	if err != nil {
		return err
	}
	defer unbind()
	for _, m := range d.modules {
		purego.SyscallN(d.l.cuModuleUnload, m)
	}
	r, _, _ := purego.SyscallN(d.l.cublasDestroy, d.blas)
	purego.SyscallN(d.l.cuDevicePrimaryCtxRelease, uintptr(d.ordinal))
	d.closed = true
	return blasCheck("cublasDestroy_v2", r)
}

// MemoryInfo returns the free and total device memory in bytes.
func (d *Device) MemoryInfo() (free, total uint64, err error) {
	r, _, _ := purego.SyscallN(d.l.cuMemGetInfo, uintptr(unsafe.Pointer(&d.s.u64[0])), uintptr(unsafe.Pointer(&d.s.u64[1])))
	return d.s.u64[0], d.s.u64[1], d.check("cuMemGetInfo_v2", r)
}

// Alloc allocates bytes of device memory (not zeroed).
func (d *Device) Alloc(bytes int) (Ptr, error) {
	r, _, _ := purego.SyscallN(d.l.cuMemAlloc, uintptr(unsafe.Pointer(&d.s.u64[0])), uintptr(max(bytes, 4)))
	if err := d.check("cuMemAlloc_v2", r); err != nil {
		return 0, fmt.Errorf("%w (asked for %.1f MiB)", err, float64(bytes)/(1<<20))
	}
	return Ptr(d.s.u64[0]), nil
}

// Free releases memory from Alloc.
func (d *Device) Free(p Ptr) error {
	if p == 0 {
		return nil
	}
	r, _, _ := purego.SyscallN(d.l.cuMemFree, uintptr(p))
	return d.check("cuMemFree_v2", r)
}

// copyIn copies bytes from host memory to dst.
func (d *Device) copyIn(dst Ptr, src unsafe.Pointer, bytes int) error {
	if bytes == 0 {
		return nil
	}
	r, _, _ := purego.SyscallN(d.l.cuMemcpyHtoD, uintptr(dst), uintptr(src), uintptr(bytes))
	return d.check("cuMemcpyHtoD_v2", r)
}

// copyOut copies bytes from src to host memory.
func (d *Device) copyOut(dst unsafe.Pointer, src Ptr, bytes int) error {
	if bytes == 0 {
		return nil
	}
	r, _, _ := purego.SyscallN(d.l.cuMemcpyDtoH, uintptr(dst), uintptr(src), uintptr(bytes))
	return d.check("cuMemcpyDtoH_v2", r)
}

// Upload copies src to dst.
func Upload[T float32 | int32 | float64 | uint32](d *Device, dst Ptr, src []T) error {
	if len(src) == 0 {
		return nil
	}
	err := d.copyIn(dst, unsafe.Pointer(&src[0]), len(src)*int(unsafe.Sizeof(src[0])))
	runtime.KeepAlive(src)
	return err
}

// Download copies len(dst) values from src to dst.
func Download[T float32 | int32 | float64 | uint32](d *Device, dst []T, src Ptr) error {
	if len(dst) == 0 {
		return nil
	}
	err := d.copyOut(unsafe.Pointer(&dst[0]), src, len(dst)*int(unsafe.Sizeof(dst[0])))
	runtime.KeepAlive(dst)
	return err
}

// Copy copies n 32-bit values from src to dst on the device.
func (d *Device) Copy(dst, src Ptr, n int) error {
	if n == 0 {
		return nil
	}
	r, _, _ := purego.SyscallN(d.l.cuMemcpyDtoD, uintptr(dst), uintptr(src), uintptr(4*n))
	return d.check("cuMemcpyDtoD_v2", r)
}

// Zero sets n 32-bit values at p to 0.
func (d *Device) Zero(p Ptr, n int) error {
	if n == 0 {
		return nil
	}
	r, _, _ := purego.SyscallN(d.l.cuMemsetD32, uintptr(p), 0, uintptr(n))
	return d.check("cuMemsetD32_v2", r)
}

// Sync waits for every queued operation; it returns the first error of an
// earlier kernel (such errors surface here).
func (d *Device) Sync() error {
	r, _, _ := purego.SyscallN(d.l.cuCtxSynchronize)
	return d.check("cuCtxSynchronize", r)
}

// Module is compiled CUDA code loaded on the device.
type Module struct {
	d   *Device
	mod uintptr
	PTX string // the PTX that NVRTC produced
}

// Function is a kernel of a Module.
type Function struct {
	name string
	f    uintptr
}

// Name returns the kernel's name.
func (f *Function) Name() string { return f.name }

// Compile compiles CUDA C source (no #include: NVRTC has no system
// headers here) for the device's architecture with NVRTC and loads it. A
// compilation error returns NVRTC's log.
func (d *Device) Compile(name, src string, options ...string) (*Module, error) {
	l := d.l
	s := d.s
	csrc, cname := cstring(src), cstring(name)
	opts := append([]string{fmt.Sprintf("--gpu-architecture=compute_%d%d", d.ccMajor, d.ccMinor)}, options...)
	copts := make([][]byte, len(opts))
	optPtrs := make([]uintptr, len(opts))
	for i, o := range opts {
		copts[i] = cstring(o)
		optPtrs[i] = uintptr(unsafe.Pointer(&copts[i][0]))
	}
	nvrtcErr := func(call string, r uintptr) error {
		p, _, _ := purego.SyscallN(l.nvrtcGetErrorString, r)
		return &Error{Call: call, Code: int(r), Name: gostring(p)}
	}
	r, _, _ := purego.SyscallN(l.nvrtcCreateProgram, uintptr(unsafe.Pointer(&s.u64[0])), uintptr(unsafe.Pointer(&csrc[0])), uintptr(unsafe.Pointer(&cname[0])), 0, 0, 0)
	runtime.KeepAlive(csrc)
	runtime.KeepAlive(cname)
	if r != 0 {
		return nil, nvrtcErr("nvrtcCreateProgram", r)
	}
	prog := uintptr(s.u64[0])
	defer func() {
		s.u64[0] = uint64(prog)
		purego.SyscallN(l.nvrtcDestroyProgram, uintptr(unsafe.Pointer(&s.u64[0])))
	}()
	r, _, _ = purego.SyscallN(l.nvrtcCompileProgram, prog, uintptr(len(optPtrs)), uintptr(unsafe.Pointer(&optPtrs[0])))
	runtime.KeepAlive(copts)
	runtime.KeepAlive(optPtrs)
	if r != 0 {
		err := nvrtcErr("nvrtcCompileProgram", r)
		purego.SyscallN(l.nvrtcGetProgramLogSize, prog, uintptr(unsafe.Pointer(&s.u64[1])))
		if n := s.u64[1]; n > 1 {
			buf := make([]byte, n)
			purego.SyscallN(l.nvrtcGetProgramLog, prog, uintptr(unsafe.Pointer(&buf[0])))
			err = fmt.Errorf("%w: %s: %s", err, name, string(buf[:n-1]))
		}
		return nil, err
	}
	if r, _, _ = purego.SyscallN(l.nvrtcGetPTXSize, prog, uintptr(unsafe.Pointer(&s.u64[1]))); r != 0 {
		return nil, nvrtcErr("nvrtcGetPTXSize", r)
	}
	ptx := make([]byte, s.u64[1])
	if r, _, _ = purego.SyscallN(l.nvrtcGetPTX, prog, uintptr(unsafe.Pointer(&ptx[0]))); r != 0 {
		return nil, nvrtcErr("nvrtcGetPTX", r)
	}
	r, _, _ = purego.SyscallN(l.cuModuleLoadData, uintptr(unsafe.Pointer(&s.u64[2])), uintptr(unsafe.Pointer(&ptx[0])))
	runtime.KeepAlive(ptx)
	if err := d.check("cuModuleLoadData", r); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	m := &Module{d: d, mod: uintptr(s.u64[2]), PTX: string(ptx[:len(ptx)-1])}
	d.modules = append(d.modules, m.mod)
	return m, nil
}

// Function returns the kernel of the module with the given (extern "C")
// name.
func (m *Module) Function(name string) (*Function, error) {
	cname := cstring(name)
	r, _, _ := purego.SyscallN(m.d.l.cuModuleGetFunction, uintptr(unsafe.Pointer(&m.d.s.u64[0])), m.mod, uintptr(unsafe.Pointer(&cname[0])))
	runtime.KeepAlive(cname)
	if err := m.d.check("cuModuleGetFunction", r); err != nil {
		return nil, fmt.Errorf("kernel %s: %w", name, err)
	}
	return &Function{name: name, f: uintptr(m.d.s.u64[0])}, nil
}

// Launch queues kernel f on grid x block threads with shared bytes of
// dynamic shared memory. Errors in the kernel itself surface at the next
// Sync or copy.
func (d *Device) Launch(f *Function, grid, block [3]int, shared int, args ...Arg) error {
	if len(args) > len(d.s.args) {
		return fmt.Errorf("cuda: kernel %s: %d arguments, at most %d", f.name, len(args), len(d.s.args))
	}
	for i, a := range args {
		d.s.args[i] = uint64(a)
	}
	r, _, _ := purego.SyscallN(d.l.cuLaunchKernel, f.f,
		uintptr(grid[0]), uintptr(grid[1]), uintptr(grid[2]),
		uintptr(block[0]), uintptr(block[1]), uintptr(block[2]),
		uintptr(shared), 0, uintptr(unsafe.Pointer(&d.s.params[0])), 0)
	if r != 0 {
		return fmt.Errorf("kernel %s: %w", f.name, d.check("cuLaunchKernel", r))
	}
	return nil
}

func op(t bool) uintptr {
	if t {
		return 1 // CUBLAS_OP_T
	}
	return 0 // CUBLAS_OP_N
}

// Sgemm computes C = alpha op(A) op(B) + beta C in cuBLAS's column-major
// convention (op(A) m x k, op(B) k x n, C m x n).
func (d *Device) Sgemm(transA, transB bool, m, n, k int, alpha float32, a Ptr, lda int, b Ptr, ldb int, beta float32, c Ptr, ldc int) error {
	d.s.alpha, d.s.beta = alpha, beta
	r, _, _ := purego.SyscallN(d.l.cublasSgemm, d.blas, op(transA), op(transB), uintptr(m), uintptr(n), uintptr(k),
		uintptr(unsafe.Pointer(&d.s.alpha)), uintptr(a), uintptr(lda), uintptr(b), uintptr(ldb),
		uintptr(unsafe.Pointer(&d.s.beta)), uintptr(c), uintptr(ldc))
	return blasCheck("cublasSgemm_v2", r)
}

// SgemmStridedBatched computes batch products C_i = alpha op(A_i) op(B_i) +
// beta C_i, X_i starting strideX values after X_(i-1) (column-major, as
// Sgemm).
func (d *Device) SgemmStridedBatched(transA, transB bool, m, n, k int, alpha float32, a Ptr, lda, strideA int, b Ptr, ldb, strideB int, beta float32, c Ptr, ldc, strideC, batch int) error {
	d.s.alpha, d.s.beta = alpha, beta
	r, _, _ := purego.SyscallN(d.l.cublasSgemmStridedBatched, d.blas, op(transA), op(transB), uintptr(m), uintptr(n), uintptr(k),
		uintptr(unsafe.Pointer(&d.s.alpha)), uintptr(a), uintptr(lda), uintptr(strideA), uintptr(b), uintptr(ldb), uintptr(strideB),
		uintptr(unsafe.Pointer(&d.s.beta)), uintptr(c), uintptr(ldc), uintptr(strideC), uintptr(batch))
	return blasCheck("cublasSgemmStridedBatched", r)
}
