//go:build js

package browser

import (
	"crypto/sha256"
	"syscall/js"

	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/weights"
)

// request is one message from the page.
type request struct {
	id      int
	op      string
	payload []byte
	data    []byte
}

// ServeWorker answers the page's requests with eng (or, in an ensemble
// member's worker, the parsing worker's: see Member), one after another,
// and never returns. It runs in the worker (see worker.js): the requests are
// handled in this goroutine, not in the message callback, since loading
// WebGPU waits for promises.
func ServeWorker(eng app.Engine) {
	weights.DataSHA256 = subtleSHA256
	self := js.Global()
	queue := make(chan request, 1024)
	self.Set("onmessage", js.FuncOf(func(_ js.Value, args []js.Value) any {
		m := args[0].Get("data")
		r := request{id: m.Get("id").Int(), op: m.Get("op").String(), payload: []byte(m.Get("json").String())}
		if b := m.Get("bytes"); b.Truthy() {
			r.data = bytesToGo(b)
		}
		select {
		case queue <- r:
		default: // the page sends one request at a time; never block here
			go func() { queue <- r }()
		}
		return nil
	}))
	self.Call("postMessage", map[string]any{"op": "ready"})
	// The worker may be an ensemble member's (see Member): it then keeps
	// one model and scores batches.
	member := &memberServer{}
	for r := range queue {
		id := r.id
		if r.op == "member-load" || r.op == "score" {
			out, scores, err := member.handle(r.op, r.payload, r.data)
			switch {
			case err != nil:
				self.Call("postMessage", map[string]any{"id": id, "err": err.Error()})
			case scores != nil:
				b := bytesToJS(scores)
				self.Call("postMessage", map[string]any{"id": id, "json": string(out), "bytes": b}, []any{b.Get("buffer")})
			default:
				self.Call("postMessage", map[string]any{"id": id, "json": string(out)})
			}
			continue
		}
		out, err := handle(eng, r.op, r.payload, r.data, func(step string) {
			self.Call("postMessage", map[string]any{"id": id, "progress": step})
		})
		if err != nil {
			self.Call("postMessage", map[string]any{"id": r.id, "err": err.Error(), "kind": errKind(err)})
			continue
		}
		self.Call("postMessage", map[string]any{"id": r.id, "json": string(out)})
	}
}

// subtleSHA256 hashes data with the browser's crypto.subtle (native code:
// Go's SHA-256 in wasm took 80-200 ms of every model start for the
// shipped 7.8 MB), or with Go's where that fails.
func subtleSHA256(data []byte) [32]byte {
	var sum [32]byte
	subtle := js.Global().Get("crypto")
	if subtle.Truthy() {
		subtle = subtle.Get("subtle")
	}
	if subtle.Truthy() {
		if d, err := await(subtle.Call("digest", "SHA-256", bytesToJS(data))); err == nil {
			if b := bytesToGo(d); len(b) == len(sum) {
				copy(sum[:], b)
				return sum
			}
		}
	}
	return sha256.Sum256(data)
}
