// Package cuda calls NVIDIA's CUDA driver API, the NVRTC run-time compiler
// and cuBLAS from Go without cgo: the libraries are opened with dlopen at run
// time (github.com/ebitengine/purego), so a static binary built on a machine
// without CUDA runs on one with a GPU, and reports a clear error where there
// is none.
//
// The package knows nothing of networks: it allocates device memory, copies
// to and from it, compiles CUDA C source to PTX and launches its kernels,
// and multiplies matrices with cuBLAS, everything on the default stream (so
// that every call is ordered after the previous one). Every failing call
// returns an *Error naming the library call and its result code.
//
// A CUDA context is current per OS thread: a Device is used by one goroutine
// at a time, between Bind and the function Bind returns.
//
// The driver library is libcuda.so.1, or the file that DISCSPAN_CUDA_DRIVER
// names; NVRTC and cuBLAS are searched in DISCSPAN_CUDA_LIBS first. The
// tests use the two to run on the CPU stand-in of package cudaemu where
// there is no GPU.
package cuda

import (
	"errors"
	"fmt"
	"math"
)

// Error is a failed call of the driver, NVRTC or cuBLAS.
type Error struct {
	Call    string // the library function, e.g. "cuMemAlloc_v2"
	Code    int    // its result code
	Name    string // the code's name, e.g. "CUDA_ERROR_OUT_OF_MEMORY"
	Message string // the library's description, when it has one
}

func (e *Error) Error() string {
	s := fmt.Sprintf("cuda: %s: %s (%d)", e.Call, e.Name, e.Code)
	if e.Message != "" && e.Message != e.Name {
		s += ": " + e.Message
	}
	return s
}

// OutOfMemory reports whether err is a failed allocation of device memory.
func OutOfMemory(err error) bool {
	var e *Error
	return errors.As(err, &e) && (e.Name == "CUDA_ERROR_OUT_OF_MEMORY" || e.Name == "CUBLAS_STATUS_ALLOC_FAILED")
}

// Unavailable is returned by Open when there is no usable GPU: no driver
// library, no device, or a library that fails to load.
type Unavailable struct{ Reason string }

func (u *Unavailable) Error() string { return "cuda: no usable GPU: " + u.Reason }

// Ptr is a device address.
type Ptr uint64

// Add returns p advanced by n float32 (or int32) values.
func (p Ptr) Add(n int) Ptr { return p + Ptr(4*n) }

// Arg is one kernel argument: a pointer or a 32-bit value in the low bits.
type Arg uint64

// P passes a device pointer (0: a null pointer, for optional buffers).
func P(p Ptr) Arg { return Arg(p) }

// I passes an int.
func I(v int) Arg { return Arg(uint32(int32(v))) }

// F passes a float32.
func F(v float32) Arg { return Arg(math.Float32bits(v)) }

// D passes a float64.
func D(v float64) Arg { return Arg(math.Float64bits(v)) }
