//go:build js

package webgpu

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/cogentcore/webgpu/wgpu"

	"github.com/discspan/discspan/internal/jsawait"
)

// device is the browser backend's device (navigator.gpu). It is requested
// through syscall/js rather than wgpu.Instance so that the GPUDevice object
// stays at hand for what the wgpu js backend lacks: error scopes (its
// Create* calls never return errors), shader compilation info, the lost
// promise and the shader-f16 feature (its RequiredFeatures panics).
type device struct {
	js    js.Value // GPUDevice
	dev   *wgpu.Device
	queue *wgpu.Queue
	info  AdapterInfo
	f16   bool
	// bindingLimit is storageLimit: the app keeps WebGPU's default binding
	// limits in the browser (its chunks, BrowserChunkTokens, fit them).
	bindingLimit int
	lost         atomic.Pointer[string]
	onLost       js.Func
	calls        callCounts
	phases       Phases // Wait and Copy are set here, the rest by the Scorer
}

// await waits for a promise (see jsawait.Await).
func await(promise js.Value) (js.Value, error) { return jsawait.Await(promise) }

// jsString returns the message of a JS error (or the value as a string).
func jsString(v js.Value) string { return jsawait.Message(v) }

// openDevice requests an adapter and a device from navigator.gpu, with
// shader-f16 when the weights are float16, the adapter has it and o allows
// it. It fails when globalThis.wasm is not set: the wgpu js backend's
// Queue.WriteBuffer reads the wasm memory from there.
func openDevice(o Options) (d *device, err error) {
	defer func() {
		if r := recover(); r != nil { // a JS exception
			err = unavailable(ErrNoAdapter, "%v", r)
		}
	}()
	g := js.Global()
	if !g.Get("wasm").Truthy() {
		return nil, unavailable(ErrNoAdapter, "globalThis.wasm is not set (set it to the result of WebAssembly.instantiateStreaming: Queue.WriteBuffer reads the wasm memory from it)")
	}
	gpu := g.Get("navigator").Get("gpu")
	if !gpu.Truthy() {
		return nil, unavailable(ErrNoAdapter, "navigator.gpu is missing (no WebGPU in this browser or context)")
	}
	ad, err := await(gpu.Call("requestAdapter", map[string]any{
		"powerPreference":      "high-performance",
		"forceFallbackAdapter": o.ForceFallbackAdapter,
	}))
	if err != nil || !ad.Truthy() {
		return nil, unavailable(ErrNoAdapter, "requestAdapter returned no adapter (%v)", err)
	}
	d = &device{bindingLimit: storageLimit}
	if info := ad.Get("info"); info.Truthy() {
		d.info.Name = strings.TrimSpace(info.Get("vendor").String() + " " + info.Get("architecture").String() + " " + info.Get("device").String())
		d.info.Driver = info.Get("description").String()
		d.info.Software = info.Get("isFallbackAdapter").Truthy()
	}
	if ad.Get("isFallbackAdapter").Truthy() {
		d.info.Software = true
	}
	d.info.Backend = "browser webgpu"
	d.info.Type = "gpu"
	if d.info.Software {
		d.info.Type = "cpu (fallback adapter)"
	}
	desc := map[string]any{}
	// Workgroups of up to splitLoopWidth invocations as the adapter allows
	// (the split LSTM loop); the other limits at WebGPU's defaults.
	d.info.Workgroup = defaultWorkgroupLimit
	if lim := ad.Get("limits"); lim.Truthy() {
		inv, size := lim.Get("maxComputeInvocationsPerWorkgroup"), lim.Get("maxComputeWorkgroupSizeX")
		if inv.Type() == js.TypeNumber && size.Type() == js.TypeNumber {
			if n := min(inv.Int(), size.Int(), splitLoopWidth); n > d.info.Workgroup {
				desc["requiredLimits"] = map[string]any{"maxComputeInvocationsPerWorkgroup": n, "maxComputeWorkgroupSizeX": n}
				d.info.Workgroup = n
			}
		}
	}
	if o.Weights == WeightsF16 && !o.NoShaderF16 && ad.Get("features").Call("has", "shader-f16").Bool() {
		desc["requiredFeatures"] = []any{"shader-f16"}
		d.f16 = true
	}
	dev, err := await(ad.Call("requestDevice", desc))
	if err != nil || !dev.Truthy() {
		return nil, unavailable(ErrNoAdapter, "requestDevice failed (%v)", err)
	}
	d.js = dev
	d.onLost = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "device lost"
		if len(args) > 0 {
			msg = fmt.Sprintf("device lost (%s): %s", args[0].Get("reason").String(), args[0].Get("message").String())
		}
		d.lost.Store(&msg)
		return nil
	})
	dev.Get("lost").Call("then", d.onLost)
	wd := wgpu.NewDevice(dev)
	d.dev = &wd
	d.queue = wd.GetQueue()
	return d, nil
}

// pushScopes opens validation, out-of-memory and internal error scopes.
func (d *device) pushScopes() {
	for _, f := range []string{"validation", "out-of-memory", "internal"} {
		d.js.Call("pushErrorScope", f)
	}
}

// popScopes closes the scopes of pushScopes and returns their errors.
func (d *device) popScopes() error {
	var msgs []string
	for range 3 {
		v, err := await(d.js.Call("popErrorScope"))
		switch {
		case err != nil:
			msgs = append(msgs, "popErrorScope: "+err.Error())
		case v.Truthy():
			msgs = append(msgs, jsString(v))
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return errors.New(strings.Join(msgs, "; "))
}

// shaderDiagnostics compiles code once more through the GPUDevice and
// returns its compilation messages as "file:line:col: type: message" lines,
// positions mapped back to the weights snippet or the kernel file name.
func (d *device) shaderDiagnostics(name, code string, snippetLines int) (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = ""
		}
	}()
	mod := d.js.Call("createShaderModule", map[string]any{"code": code})
	info, err := await(mod.Call("getCompilationInfo"))
	if err != nil {
		return ""
	}
	msgs := info.Get("messages")
	for i := range msgs.Length() {
		m := msgs.Index(i)
		line, file := m.Get("lineNum").Int(), "weights snippet"
		if line > snippetLines {
			line, file = line-snippetLines, name
		}
		out += fmt.Sprintf("\n%s:%d:%d: %s: %s", file, line, m.Get("linePos").Int(), m.Get("type").String(), m.Get("message").String())
	}
	return out
}

// compilerLog returns nothing on js: Create* report no errors there, the
// error scopes and shaderDiagnostics do.
func (d *device) compilerLog() string { return "" }

// lostError returns an error once the device is lost.
func (d *device) lostError() error {
	if msg := d.lost.Load(); msg != nil {
		return unavailable(ErrDevice, "%s", *msg)
	}
	return nil
}

// endPass ends a compute pass (errors surface in the error scopes).
func endPass(p *wgpu.ComputePassEncoder) error {
	p.End()
	return nil
}

// readInto maps the first bytes of buf (a MapRead buffer), as many as the
// dsts hold together, waits for the mapping and copies them into the dsts
// in order. The wgpu js backend reports success even when mapAsync
// rejects, and then getMappedRange throws: the exception becomes an error
// here.
func (d *device) readInto(buf *wgpu.Buffer, dsts ...[]byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = unavailable(ErrDevice, "reading results: %v", r)
		}
	}()
	size := 0
	for _, dst := range dsts {
		size += len(dst)
	}
	d.calls.maps++
	start := time.Now()
	if err := buf.MapAsync(wgpu.MapModeRead, 0, uint64(size), func(wgpu.BufferMapAsyncStatus) {}); err != nil {
		return unavailable(ErrDevice, "map: %v", err)
	}
	d.phases.Wait += time.Since(start)
	start = time.Now()
	src := buf.GetMappedRange(0, uint(size)) // a copy on js
	for _, dst := range dsts {
		src = src[copy(dst, src):]
	}
	d.phases.Copy += time.Since(start)
	buf.Unmap()
	return nil
}

// release destroys the device. onLost is not released: destroying the
// device resolves the lost promise later, which calls it.
func (d *device) release() {
	d.js.Call("destroy")
}

// String describes the adapter.
func (d *device) String() string {
	return fmt.Sprintf("%s (%s, %s)", d.info.Name, d.info.Backend, d.info.Type)
}
