//go:build !linux

package cuda

// On other systems (the browser's wasm among them) there is no CUDA: Open
// reports it, and the rest of the API exists only so that the packages
// using it build.

var errNoCUDA = &Unavailable{Reason: "the CUDA backend runs on Linux only"}

// Device is one GPU (never opened here).
type Device struct{}

// Module is compiled CUDA code (never made here).
type Module struct{ PTX string }

// Function is a kernel (never made here).
type Function struct{}

// Open reports that there is no CUDA on this system.
func Open(ordinal int) (*Device, error) { return nil, errNoCUDA }

func (d *Device) Name() string                                { return "" }
func (d *Device) ComputeCapability() (major, minor int)       { return 0, 0 }
func (d *Device) TotalMemory() uint64                         { return 0 }
func (d *Device) Describe() string                            { return "" }
func (d *Device) Bind() (func(), error)                       { return nil, errNoCUDA }
func (d *Device) Close() error                                { return errNoCUDA }
func (d *Device) MemoryInfo() (free, total uint64, err error) { return 0, 0, errNoCUDA }
func (d *Device) Alloc(bytes int) (Ptr, error)                { return 0, errNoCUDA }
func (d *Device) Free(p Ptr) error                            { return errNoCUDA }
func (d *Device) Copy(dst, src Ptr, n int) error              { return errNoCUDA }
func (d *Device) Zero(p Ptr, n int) error                     { return errNoCUDA }
func (d *Device) Sync() error                                 { return errNoCUDA }
func (d *Device) Compile(name, src string, options ...string) (*Module, error) {
	return nil, errNoCUDA
}
func (m *Module) Function(name string) (*Function, error) { return nil, errNoCUDA }
func (f *Function) Name() string                          { return "" }
func (d *Device) Launch(f *Function, grid, block [3]int, shared int, args ...Arg) error {
	return errNoCUDA
}
func (d *Device) Sgemm(transA, transB bool, m, n, k int, alpha float32, a Ptr, lda int, b Ptr, ldb int, beta float32, c Ptr, ldc int) error {
	return errNoCUDA
}
func (d *Device) SgemmStridedBatched(transA, transB bool, m, n, k int, alpha float32, a Ptr, lda, strideA int, b Ptr, ldb, strideB int, beta float32, c Ptr, ldc, strideC, batch int) error {
	return errNoCUDA
}

// Upload copies src to dst.
func Upload[T float32 | int32 | float64 | uint32](d *Device, dst Ptr, src []T) error {
	return errNoCUDA
}

// Download copies len(dst) values from src to dst.
func Download[T float32 | int32 | float64 | uint32](d *Device, dst []T, src Ptr) error {
	return errNoCUDA
}
