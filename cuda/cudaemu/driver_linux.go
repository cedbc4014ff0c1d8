//go:build linux

package cudaemu

import "github.com/ebitengine/purego"

// HasDriver reports whether the NVIDIA driver library can be opened here.
func HasDriver() bool {
	h, err := purego.Dlopen("libcuda.so.1", purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return false
	}
	purego.Dlclose(h)
	return true
}
