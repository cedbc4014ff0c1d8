//go:build js

package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"syscall/js"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/scorer"
)

var _ parser.MemberFunc = Member

// Member starts model k of the ensemble held in data in a Web Worker of
// its own (a parser.MemberFunc, for the parsing worker's engine): the
// worker runs this app's wasm, is given the weights and keeps model k,
// warmed up. It fails, and model k is then scored in the calling worker,
// where the browser has no Web Workers inside a worker and, unless
// always, where it reports fewer than k+1 cores (one for each model up
// to k). On two cores, a worker per model (the page sharing the cores)
// measured 33 ms from click to drawing for the shipped ensemble against
// 41 ms for one worker scoring both models (20 words, 2026-11-27; the
// page's renders cost less since the constituent table is set as one
// piece: before, with the page's renders costing more, the two were
// equal and this asked for a core more).
func Member(ctx context.Context, data []byte, name string, k int, local scorer.Scorer, always bool) (scorer.Scorer, error) {
	if c := js.Global().Get("navigator").Get("hardwareConcurrency"); !always && c.Truthy() && c.Int() < k+1 {
		return nil, fmt.Errorf("%d core(s), fewer than %d models need (?workers=%d uses a worker per model anyway)", c.Int(), k+1, k+1)
	}
	if !js.Global().Get("Worker").Truthy() {
		return nil, errors.New("no Web Workers inside the parsing worker in this browser")
	}
	c, err := startMember(ctx, workerScript(), k)
	if err != nil {
		return nil, err
	}
	req, err := json.Marshal(memberLoad{Name: name, Member: k})
	if err != nil {
		c.close()
		return nil, err
	}
	c.mu.Lock()
	_, ch := c.post("member-load", req, bytesToJS(data))
	c.mu.Unlock()
	var loaded memberLoaded
	select {
	case r := <-ch:
		if r.err != nil {
			c.close()
			return nil, fmt.Errorf("model %d's worker: %w", k, r.err)
		}
		if err := json.Unmarshal(r.json, &loaded); err != nil {
			c.close()
			return nil, fmt.Errorf("model %d's worker's answer: %w", k, err)
		}
	case <-ctx.Done():
		c.close()
		return nil, ctx.Err()
	}
	return &remoteMember{local: local, conn: c, memory: loaded.Memory}, nil
}

// workerConn is a memberConn over a Web Worker.
type workerConn struct {
	mu      sync.Mutex
	w       js.Value
	funcs   []js.Func
	nextID  int
	pending map[int]chan memberReply
	failed  error
}

// memberReply is a member worker's answer.
type memberReply struct {
	json, data []byte
	err        error
}

// startMember starts a worker running script and waits until it serves
// requests (its "ready"), fails, or ctx is done.
func startMember(ctx context.Context, script string, k int) (*workerConn, error) {
	c := &workerConn{pending: map[int]chan memberReply{}}
	ready, once := make(chan struct{}), new(sync.Once)
	w := js.Global().Get("Worker").New(script, map[string]any{"name": fmt.Sprintf("discspan model %d", k)})
	onMessage := js.FuncOf(func(_ js.Value, args []js.Value) any {
		m := args[0].Get("data")
		if m.Get("op").String() == "ready" {
			once.Do(func() { close(ready) })
			return nil
		}
		r := memberReply{json: []byte(m.Get("json").String())}
		if b := m.Get("bytes"); b.Truthy() {
			r.data = bytesToGo(b)
		}
		if msg := m.Get("err"); msg.Truthy() {
			r = memberReply{err: errors.New(msg.String())}
		}
		c.deliver(m.Get("id").Int(), r)
		return nil
	})
	onError := js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := fmt.Sprintf("model %d's worker failed", k)
		if len(args) > 0 && args[0].Get("message").Truthy() {
			msg += ": " + args[0].Get("message").String()
		}
		c.fail(fmt.Errorf("%s: %w", msg, errMemberFailed))
		once.Do(func() { close(ready) })
		return nil
	})
	w.Set("onmessage", onMessage)
	w.Set("onerror", onError)
	c.w, c.funcs = w, []js.Func{onMessage, onError}
	sendModule(w)
	select {
	case <-ready:
	case <-ctx.Done():
		c.close()
		return nil, ctx.Err()
	}
	c.mu.Lock()
	err := c.failed
	c.mu.Unlock()
	if err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

// post sends a request and returns its id and the channel of its answer
// (c.mu held); a failed worker answers at once.
func (c *workerConn) post(op string, payload []byte, data js.Value) (int, chan memberReply) {
	ch := make(chan memberReply, 1)
	if c.failed != nil {
		ch <- memberReply{err: c.failed}
		return 0, ch
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	msg := map[string]any{"id": id, "op": op, "json": string(payload)}
	if data.Truthy() {
		msg["bytes"] = data
		// The weights' copy is the worker's: moved, not copied again.
		c.w.Call("postMessage", msg, []any{data.Get("buffer")})
		return id, ch
	}
	c.w.Call("postMessage", msg)
	return id, ch
}

// deliver hands an answer to its caller.
func (c *workerConn) deliver(id int, r memberReply) {
	c.mu.Lock()
	ch := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if ch != nil {
		ch <- r
	}
}

// fail answers every request waiting with err, and every later one.
func (c *workerConn) fail(err error) {
	c.mu.Lock()
	if c.failed == nil {
		c.failed = err
	}
	pending := c.pending
	c.pending = map[int]chan memberReply{}
	c.mu.Unlock()
	for _, ch := range pending {
		ch <- memberReply{err: err}
	}
}

// send posts a batch to score.
func (c *workerConn) send(batch []network.Input) func() ([]network.Output, error) {
	req, err := json.Marshal(batch)
	if err != nil {
		return func() ([]network.Output, error) { return nil, err }
	}
	c.mu.Lock()
	_, ch := c.post("score", req, js.Undefined())
	c.mu.Unlock()
	return func() ([]network.Output, error) {
		r := <-ch
		if r.err != nil {
			return nil, r.err
		}
		var a scoreAnswer
		if err := json.Unmarshal(r.json, &a); err != nil {
			return nil, fmt.Errorf("a member's answer: %v: %w", err, errMemberFailed)
		}
		outs, err := unpackResults(a, r.data)
		if err != nil {
			return nil, fmt.Errorf("%v: %w", err, errMemberFailed)
		}
		return outs, nil
	}
}

// close terminates the worker; requests still waiting are answered with
// an error.
func (c *workerConn) close() {
	c.w.Call("terminate")
	c.fail(fmt.Errorf("terminated: %w", errMemberFailed))
	c.mu.Lock()
	funcs := c.funcs
	c.funcs = nil
	c.mu.Unlock()
	for _, f := range funcs {
		f.Release()
	}
}
