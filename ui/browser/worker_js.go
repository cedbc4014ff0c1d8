//go:build js

package browser

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"syscall/js"

	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/ui/app"
)

// WorkerEngine is an app.Engine whose work runs in a Web Worker. One
// request is in flight at a time (the app runs one job at a time); a
// cancelled request terminates the worker, and a fresh one is started and
// given the model again.
type WorkerEngine struct {
	script string

	mu      sync.Mutex
	w       js.Value      // the Worker
	ready   chan struct{} // closed when the worker is ready or failed
	once    *sync.Once    // closes ready
	failed  error         // set when the worker failed
	nextID  int
	pending map[int]chan reply
	// progress is told the load steps the worker reports for a request.
	progress map[int]func(step string)
	funcs    []js.Func
	// model is the last load: the weights (a Uint8Array) and the request,
	// sent again to a restarted worker once it is ready (reload).
	model   js.Value
	loadReq []byte
	reload  bool
	// loadProgress is the running Load's LoadOptions.Progress; events
	// runs the calls of progress functions, in order.
	loadProgress func(step string)
	events       chan func()
}

// reply is a worker's answer.
type reply struct {
	json []byte
	err  error
}

var _ app.Engine = (*WorkerEngine)(nil)

// NewWorkerEngine starts a worker running script.
func NewWorkerEngine(script string) *WorkerEngine {
	e := &WorkerEngine{script: script, pending: map[int]chan reply{}, progress: map[int]func(string){}, events: make(chan func(), 64)}
	go func() {
		for f := range e.events {
			f()
		}
	}()
	e.mu.Lock()
	e.start()
	e.mu.Unlock()
	return e
}

// start creates the worker (e.mu held).
func (e *WorkerEngine) start() {
	ready, once := make(chan struct{}), new(sync.Once)
	e.ready, e.once, e.failed = ready, once, nil
	w := js.Global().Get("Worker").New(e.script)
	onMessage := js.FuncOf(func(_ js.Value, args []js.Value) any {
		m := args[0].Get("data")
		if m.Get("op").String() == "ready" {
			once.Do(func() { close(ready) })
			return nil
		}
		if p := m.Get("progress"); p.Truthy() {
			e.mu.Lock()
			f := e.progress[m.Get("id").Int()]
			e.mu.Unlock()
			if f != nil {
				// f may take the app's lock: not in this callback, but in
				// order, in the engine's goroutine.
				step := p.String()
				select {
				case e.events <- func() { f(step) }:
				default: // a step not shown is no harm
				}
			}
			return nil
		}
		r := reply{json: []byte(m.Get("json").String())}
		if msg := m.Get("err"); msg.Truthy() {
			r = reply{err: workerError(msg.String(), m.Get("kind").String())}
		}
		e.deliver(m.Get("id").Int(), r)
		return nil
	})
	onError := js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "the parsing worker failed"
		if len(args) > 0 && args[0].Get("message").Truthy() {
			msg += ": " + args[0].Get("message").String()
		}
		e.fail(errors.New(msg))
		once.Do(func() { close(ready) })
		return nil
	})
	w.Set("onmessage", onMessage)
	w.Set("onerror", onError)
	e.funcs = append(e.funcs, onMessage, onError)
	e.w = w
	sendModule(w)
}

// sendModule sends worker w, which runs worker.js and waits for it, this
// thread's compiled module: the worker starts on code compiled and
// optimised already, and fetches nothing. Without one (null) the worker
// fetches and compiles main.wasm itself.
func sendModule(w js.Value) {
	var module any
	if m := js.Global().Get("wasm"); m.Truthy() && m.Get("module").Truthy() {
		module = m.Get("module")
	}
	w.Call("postMessage", map[string]any{"op": "module", "module": module})
}

// deliver hands a reply to its caller.
func (e *WorkerEngine) deliver(id int, r reply) {
	e.mu.Lock()
	ch := e.pending[id]
	delete(e.pending, id)
	delete(e.progress, id)
	e.mu.Unlock()
	if ch != nil {
		ch <- r
	}
}

// fail reports err to every caller waiting.
func (e *WorkerEngine) fail(err error) {
	e.mu.Lock()
	e.failed = err
	pending := e.pending
	e.pending = map[int]chan reply{}
	e.mu.Unlock()
	for _, ch := range pending {
		ch <- reply{err: err}
	}
}

// restart terminates the worker and starts a fresh one with the model
// (e.mu held).
func (e *WorkerEngine) restart() {
	e.w.Call("terminate")
	for _, f := range e.funcs {
		f.Release()
	}
	e.funcs = nil
	for id, ch := range e.pending {
		ch <- reply{err: context.Canceled}
		delete(e.pending, id)
	}
	clear(e.progress)
	e.start()
	// Messages sent before the worker's Go program listens are lost: the
	// model goes with the next request, once the worker is ready.
	e.reload = e.loadReq != nil
}

// post sends a request and returns the channel of its reply (e.mu held).
func (e *WorkerEngine) post(op string, payload []byte, data js.Value) (int, chan reply) {
	e.nextID++
	id := e.nextID
	ch := make(chan reply, 1)
	e.pending[id] = ch
	msg := map[string]any{"id": id, "op": op, "json": string(payload)}
	if data.Truthy() {
		msg["bytes"] = data
	}
	e.w.Call("postMessage", msg)
	return id, ch
}

// call sends a request once the worker is ready and waits for its answer
// or for ctx; a cancelled ctx restarts the worker.
func (e *WorkerEngine) call(ctx context.Context, op string, payload []byte, data js.Value) ([]byte, error) {
	return e.try(ctx, op, payload, data, true)
}

// try is call; with retry, a dead worker is restarted once.
func (e *WorkerEngine) try(ctx context.Context, op string, payload []byte, data js.Value, retry bool) ([]byte, error) {
	if err := e.started(ctx); err != nil {
		return nil, err
	}
	e.mu.Lock()
	if e.failed != nil && e.loadReq != nil && op != "load" && retry {
		// The worker died (out of memory, say): start a fresh one with
		// the model and try once more.
		e.restart()
		e.mu.Unlock()
		return e.try(ctx, op, payload, data, false)
	}
	if e.failed != nil {
		err := e.failed
		e.mu.Unlock()
		return nil, err
	}
	if e.reload && op != "load" {
		e.post("load", e.loadReq, e.model) // answer ignored: requests are handled in order
	}
	e.reload = false // a load gives the worker a model of its own
	id, ch := e.post(op, payload, data)
	if op == "load" && e.loadProgress != nil {
		e.progress[id] = e.loadProgress
	}
	e.mu.Unlock()
	select {
	case r := <-ch:
		if r.err == context.Canceled && ctx.Err() == nil && retry && op != "load" {
			// Another caller's cancellation restarted the worker under
			// this request (a parse replacing a cancelled one can be
			// posted before the cancelled one's restart): the fresh
			// worker takes it again.
			return e.try(ctx, op, payload, data, false)
		}
		return r.json, r.err
	case <-ctx.Done():
		e.mu.Lock()
		// Only while the request is still the worker's: a Load may have
		// restarted the worker already, and this must not kill it again.
		if _, busy := e.pending[id]; busy {
			e.restart()
		}
		e.mu.Unlock()
		return nil, ctx.Err()
	}
}

// started waits until the current worker has started or failed to (its
// ready channel closed), or for ctx.
func (e *WorkerEngine) started(ctx context.Context) error {
	e.mu.Lock()
	ready := e.ready
	e.mu.Unlock()
	select {
	case <-ready:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// WaitReady waits until the worker runs (its copy of the app compiled
// and started) or failed to start (the error), or for ctx.
func (e *WorkerEngine) WaitReady(ctx context.Context) error {
	if err := e.started(ctx); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.failed
}

// Load sends the weights to the worker, which keeps the model.
func (e *WorkerEngine) Load(ctx context.Context, data []byte, name string, opt parser.LoadOptions) (*parser.Info, error) {
	req, err := json.Marshal(loadRequest{Name: name, Opt: opt})
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	// The worker drops its model as the load starts (parser.Engine.Load):
	// the page's copy of the old weights goes too, before the new ones
	// are copied, and a restart reloads none.
	e.model, e.loadReq = js.Undefined(), nil
	e.mu.Unlock()
	model := bytesToJS(data)
	e.mu.Lock()
	if e.failed != nil || len(e.pending) > 0 {
		// A worker that failed to start, or one busy with a request
		// (a long parse) that the load would wait behind: a fresh one.
		// The request is answered context.Canceled.
		e.restart()
		e.reload = false // this load gives the fresh worker its model
	}
	e.loadProgress = opt.Progress
	e.mu.Unlock()
	out, err := e.call(ctx, "load", req, model)
	if err != nil {
		return nil, err
	}
	var info parser.Info
	if err := json.Unmarshal(out, &info); err != nil {
		return nil, err
	}
	e.mu.Lock()
	e.model, e.loadReq = model, req
	e.mu.Unlock()
	return &info, nil
}

// Parse parses in the worker.
func (e *WorkerEngine) Parse(ctx context.Context, req parser.Request) (*parser.Parse, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	out, err := e.call(ctx, "parse", b, js.Undefined())
	if err != nil {
		return nil, err
	}
	var p parser.Parse
	if err := json.Unmarshal(out, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// Close terminates the worker.
func (e *WorkerEngine) Close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.w.Call("terminate")
	for _, f := range e.funcs {
		f.Release()
	}
	e.funcs = nil
}
