//go:build !js

package browser

import "runtime"

// memoryBytes is the memory this Go runtime holds from the system (the
// counterpart, outside a browser, of a wasm thread's memory).
func memoryBytes() int64 {
	var s runtime.MemStats
	runtime.ReadMemStats(&s)
	return int64(s.Sys)
}
