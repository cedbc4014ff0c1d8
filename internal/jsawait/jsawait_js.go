//go:build js

// Package jsawait waits for JavaScript promises from Go code compiled to
// WebAssembly, for the browser app and the WebGPU backend alike.
package jsawait

import (
	"errors"
	"syscall/js"
)

// Await blocks the calling goroutine until promise settles and returns its
// value, or an error with the rejection's message. A value that is not a
// promise is returned as it is. It must not be called inside a js.FuncOf
// callback, which would wait for itself.
func Await(promise js.Value) (js.Value, error) {
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
			msg = Message(args[0])
		}
		done <- result{err: errors.New(msg)}
		return nil
	})
	defer reject.Release()
	promise.Call("then", resolve, reject)
	r := <-done
	return r.v, r.err
}

// Message returns the message of a JavaScript Error, or the value as a
// string.
func Message(v js.Value) string {
	if v.Type() == js.TypeObject {
		// A DOMException may have an empty message (a full quota in
		// Chromium): its name then says what happened.
		for _, field := range []string{"message", "name"} {
			if f := v.Get(field); f.Type() == js.TypeString && f.String() != "" {
				return f.String()
			}
		}
	}
	return v.String()
}
