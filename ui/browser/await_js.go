//go:build js

package browser

import (
	"syscall/js"

	"github.com/discspan/discspan/internal/jsawait"
)

// await waits for a promise (see jsawait.Await).
func await(promise js.Value) (js.Value, error) { return jsawait.Await(promise) }

// jsError returns the message of a JS error (or the value as a string).
func jsError(v js.Value) string { return jsawait.Message(v) }

// bytesToJS copies b into a new Uint8Array.
func bytesToJS(b []byte) js.Value {
	u := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u, b)
	return u
}

// bytesToGo copies a Uint8Array or ArrayBuffer into a new slice.
func bytesToGo(v js.Value) []byte {
	if v.InstanceOf(js.Global().Get("ArrayBuffer")) {
		v = js.Global().Get("Uint8Array").New(v)
	}
	b := make([]byte, v.Get("byteLength").Int())
	js.CopyBytesToGo(b, v)
	return b
}
