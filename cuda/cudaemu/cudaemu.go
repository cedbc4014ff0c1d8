// Package cudaemu builds a CPU stand-in for the NVIDIA driver, NVRTC and
// cuBLAS, so that the tests of package cuda and of the CUDA trainer
// (netcuda) run their kernels and products where there is no GPU, CI
// among them, and compare them with the CPU reference as they do on a GPU.
//
// The stand-in (standin.cc.txt, C++; named so that the go tool leaves
// it alone) is one shared library that exports the entry
// points package cuda opens: one emulated device with 2 GiB of "device"
// memory (host memory; an allocation beyond it is CUDA_ERROR_OUT_OF_MEMORY);
// NVRTC's compilation builds the CUDA C source as C++ with the system's
// compiler, behind a prelude that maps CUDA's built-in names; a launch runs
// every block in turn and the threads of a block as coroutines, so that
// __syncthreads and __shared__ memory keep their meaning; cuBLAS's SGEMMs
// are plain loops. It checks the arithmetic and the host code's layouts,
// not what only a GPU shows (NVRTC's dialect, races between blocks,
// speed): the tests still run on a GPU when a session has one.
//
// Use is for tests: Install points package cuda at the stand-in through
// its environment variables (DISCSPAN_CUDA_DRIVER, DISCSPAN_CUDA_LIBS)
// before the first cuda.Open.
package cudaemu

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

//go:embed standin.cc.txt
var standinSource string

// DeviceName is the name the emulated device reports (cuda.Device.Name).
const DeviceName = "CPU emulation of CUDA (package cudaemu)"

// ErrUnsupported is returned (wrapped, with the reason) where the stand-in
// cannot be built: not Linux on x86-64, or no C++ compiler.
var ErrUnsupported = errors.New("cudaemu: the CPU stand-in for CUDA cannot be built here")

// compiler returns the first C++ compiler on the PATH.
func compiler() (string, error) {
	for _, name := range []string{"g++", "c++", "clang++"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w: no C++ compiler (g++, c++ or clang++) on the PATH", ErrUnsupported)
}

// Build compiles the stand-in into dir (which also receives the programs
// that its NVRTC builds) and returns the library's path; dir also gets the
// names package cuda looks for (libnvrtc.so, libcublas.so) as links to it.
func Build(dir string) (string, error) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return "", fmt.Errorf("%w: it runs on linux/amd64 only, not %s/%s", ErrUnsupported, runtime.GOOS, runtime.GOARCH)
	}
	cxx, err := compiler()
	if err != nil {
		return "", err
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("cudaemu: %w", err)
	}
	src, lib := filepath.Join(dir, "standin.cc"), filepath.Join(dir, "libcudaemu.so")
	if err := os.WriteFile(src, []byte(standinSource), 0o644); err != nil {
		return "", fmt.Errorf("cudaemu: %w", err)
	}
	cmd := exec.Command(cxx, "-std=c++17", "-O3", "-march=native", "-fPIC", "-shared", "-Wall", "-Werror",
		"-DCUDAEMU_CXX="+strconv.Quote(cxx), "-DCUDAEMU_DIR="+strconv.Quote(dir), "-o", lib, src, "-ldl")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("cudaemu: building the stand-in with %s: %v\n%s", cxx, err, out)
	}
	for _, name := range []string{"libnvrtc.so", "libcublas.so"} {
		if err := os.Symlink(lib, filepath.Join(dir, name)); err != nil {
			return "", fmt.Errorf("cudaemu: %w", err)
		}
	}
	return lib, nil
}

// Install builds the stand-in into dir (see Build) and points package cuda
// at it, for this process, unless the NVIDIA driver is installed (then the
// tests use the GPU, and Install returns false). Call it before the first
// cuda.Open, from a TestMain.
func Install(dir string) (bool, error) {
	if HasDriver() {
		return false, nil
	}
	lib, err := Build(dir)
	if err != nil {
		return false, err
	}
	if err := os.Setenv("DISCSPAN_CUDA_DRIVER", lib); err != nil {
		return false, fmt.Errorf("cudaemu: %w", err)
	}
	if err := os.Setenv("DISCSPAN_CUDA_LIBS", filepath.Dir(lib)); err != nil {
		return false, fmt.Errorf("cudaemu: %w", err)
	}
	return true, nil
}

// RunTests runs a test binary's tests (from its TestMain) on the GPU where
// the NVIDIA driver is installed, and otherwise on the stand-in, built into
// a temporary folder for the run; where it cannot be built, it says why
// and the tests that need a device skip. It returns m.Run's exit code.
func RunTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "cudaemu")
	if err != nil {
		fmt.Fprintf(os.Stderr, "cudaemu: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if _, err := Install(dir); err != nil {
		fmt.Fprintf(os.Stderr, "%v; the tests that need a CUDA device will skip\n", err)
	}
	return m.Run()
}
