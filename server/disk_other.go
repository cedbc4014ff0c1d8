//go:build !(linux || darwin || freebsd || dragonfly)

package server

// freeDisk does not know the free space here (Windows, the other BSDs,
// illumos, js/wasm): no check.
func freeDisk(string) (int64, bool) { return 0, false }
