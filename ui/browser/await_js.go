//go:build js

package browser

import (
	"errors"
	"syscall/js"
)

// await blocks the calling goroutine until promise settles and returns its
// value, or an error with the rejection's message. It must not be called
// inside a js.FuncOf callback, which would wait for itself.
func await(promise js.Value) (js.Value, error) {
	if promise.Type() != js.TypeObject || promise.Get("then").Type() != js.TypeFunction {
		return promise, nil
	}
	type result struct {
		v   js.Value
		err error
	}
	done := make(chan result, 1)
	resolve := js.FuncOf(func(_ js.Value, args []js.Value) any {
		v := js.Undefined()
		if len(args) > 0 {
			v = args[0]
		}
		done <- result{v: v}
		return nil
	})
	defer resolve.Release()
	reject := js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "rejected"
		if len(args) > 0 {
			msg = jsError(args[0])
		}
		done <- result{err: errors.New(msg)}
		return nil
	})
	defer reject.Release()
	promise.Call("then", resolve, reject)
	r := <-done
	return r.v, r.err
}

// jsError returns the message of a JS error (or the value as a string).
func jsError(v js.Value) string {
	if v.Type() == js.TypeObject && v.Get("message").Type() == js.TypeString {
		return v.Get("message").String()
	}
	return v.String()
}

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
