//go:build linux

package cuda

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// libs holds the opened libraries' entry points.
type libs struct {
	cuInit, cuDeviceGetCount, cuDeviceGet, cuDeviceGetName, cuDeviceTotalMem, cuDeviceGetAttribute uintptr
	cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRelease, cuCtxSetCurrent, cuCtxSynchronize         uintptr
	cuMemAlloc, cuMemFree, cuMemcpyHtoD, cuMemcpyDtoH, cuMemcpyDtoD, cuMemsetD32, cuMemGetInfo     uintptr
	cuModuleLoadData, cuModuleGetFunction, cuModuleUnload, cuLaunchKernel                          uintptr
	cuGetErrorName, cuGetErrorString, cuDriverGetVersion                                           uintptr

	nvrtcCreateProgram, nvrtcCompileProgram, nvrtcGetProgramLogSize, nvrtcGetProgramLog  uintptr
	nvrtcGetPTXSize, nvrtcGetPTX, nvrtcDestroyProgram, nvrtcGetErrorString, nvrtcVersion uintptr

	cublasCreate, cublasDestroy, cublasSgemm, cublasSgemmStridedBatched, cublasGetVersion uintptr
	nvrtcPath, cublasPath                                                                 string
}

var (
	loadOnce sync.Once
	loaded   *libs
	loadErr  error
)

// searchDirs lists the folders tried for NVRTC and cuBLAS after the
// loader's own search: $DISCSPAN_CUDA_LIBS (colon-separated), $CUDA_HOME and
// the usual CUDA and pip install places.
func searchDirs() []string {
	var dirs []string
	if v := os.Getenv("DISCSPAN_CUDA_LIBS"); v != "" {
		dirs = append(dirs, filepath.SplitList(v)...)
	}
	dirs = append(dirs, "")
	for _, h := range []string{os.Getenv("CUDA_HOME"), os.Getenv("CUDA_PATH"), "/usr/local/cuda"} {
		if h != "" {
			dirs = append(dirs, filepath.Join(h, "lib64"), filepath.Join(h, "targets/x86_64-linux/lib"))
		}
	}
	dirs = append(dirs, "/usr/lib/x86_64-linux-gnu")
	for _, pat := range []string{
		"/usr/local/cuda-*/lib64",
		"/opt/*/.venv/lib/python3*/site-packages/nvidia/*/lib",
		"/usr/local/lib/python3*/dist-packages/nvidia/*/lib",
		"/usr/lib/python3/dist-packages/nvidia/*/lib",
	} {
		m, _ := filepath.Glob(pat)
		dirs = append(dirs, m...)
	}
	return dirs
}

// openAny opens the first of names found in dirs.
func openAny(dirs, names []string) (uintptr, string, error) {
	var tried []string
	for _, d := range dirs {
		for _, n := range names {
			p := n
			if d != "" {
				p = filepath.Join(d, n)
				if _, err := os.Stat(p); err != nil {
					continue
				}
			}
			h, err := purego.Dlopen(p, purego.RTLD_NOW|purego.RTLD_GLOBAL)
			if err == nil {
				return h, p, nil
			}
			tried = append(tried, p+": "+err.Error())
		}
	}
	if len(tried) == 0 {
		return 0, "", fmt.Errorf("%s not found (set DISCSPAN_CUDA_LIBS to its folder)", names[0])
	}
	return 0, "", fmt.Errorf("%s", strings.Join(tried, "; "))
}

func load() (*libs, error) {
	loadOnce.Do(func() {
		if runtime.GOOS != "linux" {
			loadErr = &Unavailable{Reason: "the CUDA backend runs on Linux only"}
			return
		}
		l := &libs{}
		driver := os.Getenv("DISCSPAN_CUDA_DRIVER")
		if driver == "" {
			driver = "libcuda.so.1"
		}
		drv, err := purego.Dlopen(driver, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			loadErr = &Unavailable{Reason: "no NVIDIA driver library (" + driver + "): " + err.Error()}
			return
		}
		dirs := searchDirs()
		nvrtc, nvrtcPath, err := openAny(dirs, []string{"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"})
		if err != nil {
			loadErr = &Unavailable{Reason: "no NVRTC library: " + err.Error()}
			return
		}
		blas, blasPath, err := openAny(dirs, []string{"libcublas.so", "libcublas.so.13", "libcublas.so.12", "libcublas.so.11"})
		if err != nil {
			loadErr = &Unavailable{Reason: "no cuBLAS library: " + err.Error()}
			return
		}
		l.nvrtcPath, l.cublasPath = nvrtcPath, blasPath
		var missing []string
		sym := func(h uintptr, name string) uintptr {
			p, err := purego.Dlsym(h, name)
			if err != nil {
				missing = append(missing, name)
			}
			return p
		}
		l.cuInit = sym(drv, "cuInit")
		l.cuDriverGetVersion = sym(drv, "cuDriverGetVersion")
		l.cuDeviceGetCount = sym(drv, "cuDeviceGetCount")
		l.cuDeviceGet = sym(drv, "cuDeviceGet")
		l.cuDeviceGetName = sym(drv, "cuDeviceGetName")
		l.cuDeviceTotalMem = sym(drv, "cuDeviceTotalMem_v2")
		l.cuDeviceGetAttribute = sym(drv, "cuDeviceGetAttribute")
		l.cuDevicePrimaryCtxRetain = sym(drv, "cuDevicePrimaryCtxRetain")
		l.cuDevicePrimaryCtxRelease = sym(drv, "cuDevicePrimaryCtxRelease_v2")
		l.cuCtxSetCurrent = sym(drv, "cuCtxSetCurrent")
		l.cuCtxSynchronize = sym(drv, "cuCtxSynchronize")
		l.cuMemAlloc = sym(drv, "cuMemAlloc_v2")
		l.cuMemFree = sym(drv, "cuMemFree_v2")
		l.cuMemcpyHtoD = sym(drv, "cuMemcpyHtoD_v2")
		l.cuMemcpyDtoH = sym(drv, "cuMemcpyDtoH_v2")
		l.cuMemcpyDtoD = sym(drv, "cuMemcpyDtoD_v2")
		l.cuMemsetD32 = sym(drv, "cuMemsetD32_v2")
		l.cuMemGetInfo = sym(drv, "cuMemGetInfo_v2")
		l.cuModuleLoadData = sym(drv, "cuModuleLoadData")
		l.cuModuleGetFunction = sym(drv, "cuModuleGetFunction")
		l.cuModuleUnload = sym(drv, "cuModuleUnload")
		l.cuLaunchKernel = sym(drv, "cuLaunchKernel")
		l.cuGetErrorName = sym(drv, "cuGetErrorName")
		l.cuGetErrorString = sym(drv, "cuGetErrorString")
		l.nvrtcCreateProgram = sym(nvrtc, "nvrtcCreateProgram")
		l.nvrtcCompileProgram = sym(nvrtc, "nvrtcCompileProgram")
		l.nvrtcGetProgramLogSize = sym(nvrtc, "nvrtcGetProgramLogSize")
		l.nvrtcGetProgramLog = sym(nvrtc, "nvrtcGetProgramLog")
		l.nvrtcGetPTXSize = sym(nvrtc, "nvrtcGetPTXSize")
		l.nvrtcGetPTX = sym(nvrtc, "nvrtcGetPTX")
		l.nvrtcDestroyProgram = sym(nvrtc, "nvrtcDestroyProgram")
		l.nvrtcGetErrorString = sym(nvrtc, "nvrtcGetErrorString")
		l.nvrtcVersion = sym(nvrtc, "nvrtcVersion")
		l.cublasCreate = sym(blas, "cublasCreate_v2")
		l.cublasDestroy = sym(blas, "cublasDestroy_v2")
		l.cublasSgemm = sym(blas, "cublasSgemm_v2")
		l.cublasSgemmStridedBatched = sym(blas, "cublasSgemmStridedBatched")
		l.cublasGetVersion = sym(blas, "cublasGetVersion_v2")
		if len(missing) > 0 {
			loadErr = &Unavailable{Reason: "missing symbols " + strings.Join(missing, ", ")}
			return
		}
		loaded = l
	})
	return loaded, loadErr
}

// cstring returns s as a NUL-terminated byte slice (on the heap).
func cstring(s string) []byte { return append([]byte(s), 0) }

// gostring reads a NUL-terminated C string.
func gostring(p uintptr) string {
	if p == 0 {
		return ""
	}
	base := cptr(p)
	n := 0
	for *(*byte)(unsafe.Add(base, n)) != 0 {
		n++
	}
	return string(unsafe.Slice((*byte)(base), n))
}

// cptr turns an address that a C library returned into a pointer (memory
// the Go collector does not manage).
func cptr(p uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&p)) }
