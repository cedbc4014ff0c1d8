//go:build js

package browser

import "syscall/js"

// memoryBytes is the size of this thread's wasm memory (it grows and never
// shrinks: the most this Go runtime has held), 0 when it cannot be read.
func memoryBytes() int64 {
	mem := js.Global().Get("wasm")
	for _, key := range []string{"instance", "exports", "mem", "buffer"} {
		if !mem.Truthy() {
			return 0
		}
		mem = mem.Get(key)
	}
	if !mem.Truthy() {
		return 0
	}
	return int64(mem.Get("byteLength").Int())
}
