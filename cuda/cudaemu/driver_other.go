//go:build !linux

package cudaemu

// HasDriver reports whether the NVIDIA driver library can be opened here:
// never off Linux, where package cuda opens no driver.
func HasDriver() bool { return false }
