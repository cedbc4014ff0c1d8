//go:build !unix

package server

// freeDisk does not know the free space here (Windows, js/wasm): no check.
func freeDisk(string) (int64, bool) { return 0, false }
