//go:build js

package browser

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"syscall/js"
	"time"

	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/ui/app"
	vjs "github.com/vugu/vugu/js"
)

// dataCache is the Cache Storage cache of the weights and the model list.
// The service worker keeps the app's files in caches of its own and never
// deletes this one.
const dataCache = "discspan-data-v1"

// Platform implements app.Platform in a browser page.
type Platform struct {
	// Worker makes NewEngine parse in a Web Worker.
	Worker bool
}

var _ app.Platform = (*Platform)(nil)

// Fetch GETs url with fetch() and reads the body chunk by chunk, reporting
// progress. ctx's end aborts the request, also while it waits for the
// server or for the next chunk.
func (p *Platform) Fetch(ctx context.Context, url string, progress func(done, total int64)) ([]byte, error) {
	init := map[string]any{}
	if ac := js.Global().Get("AbortController"); ac.Truthy() {
		ctrl := ac.New()
		init["signal"] = ctrl.Get("signal")
		stop := context.AfterFunc(ctx, func() { ctrl.Call("abort") })
		defer stop()
	}
	resp, err := await(js.Global().Call("fetch", url, init))
	if err != nil {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return nil, fmt.Errorf("%s: %v", url, err)
	}
	if !resp.Get("ok").Bool() {
		return nil, fmt.Errorf("%s: %d %s", url, resp.Get("status").Int(), resp.Get("statusText").String())
	}
	total := int64(-1)
	if n := resp.Get("headers").Call("get", "Content-Length"); n.Type() == js.TypeString {
		fmt.Sscan(n.String(), &total)
	}
	body := resp.Get("body")
	if !body.Truthy() { // no streams: the whole body at once
		ab, err := await(resp.Call("arrayBuffer"))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", url, err)
		}
		return bytesToGo(ab), nil
	}
	reader := body.Call("getReader")
	var out []byte
	if total > 0 {
		out = make([]byte, 0, total)
	}
	last := time.Now()
	for {
		if err := ctx.Err(); err != nil {
			reader.Call("cancel")
			return nil, err
		}
		r, err := await(reader.Call("read"))
		if err != nil {
			if ctx.Err() != nil {
				return nil, context.Cause(ctx)
			}
			return nil, fmt.Errorf("%s: %v", url, err)
		}
		if r.Get("done").Bool() {
			break
		}
		chunk := r.Get("value")
		n := chunk.Get("byteLength").Int()
		out = append(out, make([]byte, n)...)
		js.CopyBytesToGo(out[len(out)-n:], chunk)
		if progress != nil && time.Since(last) > 50*time.Millisecond {
			progress(int64(len(out)), total)
			last = time.Now()
		}
	}
	if progress != nil {
		progress(int64(len(out)), total)
	}
	return out, nil
}

// openCache opens the data cache; it fails where Cache Storage is missing
// (pages that are not a secure context).
func openCache() (js.Value, error) {
	caches := js.Global().Get("caches")
	if !caches.Truthy() {
		return js.Value{}, errors.New("the browser's Cache Storage is not available here")
	}
	return await(caches.Call("open", dataCache))
}

// CacheLoad returns the cached bytes for url.
func (p *Platform) CacheLoad(url string) ([]byte, bool) {
	c, err := openCache()
	if err != nil {
		return nil, false
	}
	resp, err := await(c.Call("match", url))
	if err != nil || !resp.Truthy() {
		return nil, false
	}
	ab, err := await(resp.Call("arrayBuffer"))
	if err != nil {
		return nil, false
	}
	return bytesToGo(ab), true
}

// CacheStore keeps data for url in the data cache.
func (p *Platform) CacheStore(url string, data []byte) error {
	c, err := openCache()
	if err != nil {
		return err
	}
	resp := js.Global().Get("Response").New(bytesToJS(data), map[string]any{
		"headers": map[string]any{"Content-Type": "application/octet-stream"},
	})
	_, err = await(c.Call("put", url, resp))
	return err
}

// CacheRetain drops the data cache's entries for every URL but keep's
// (relative to the page, as CacheStore's).
func (p *Platform) CacheRetain(keep []string) (int, error) {
	c, err := openCache()
	if err != nil {
		return 0, err
	}
	base := js.Global().Get("location").Get("href")
	kept := map[string]bool{}
	for _, u := range keep {
		kept[js.Global().Get("URL").New(u, base).Get("href").String()] = true
	}
	keys, err := await(c.Call("keys"))
	if err != nil {
		return 0, err
	}
	dropped := 0
	for i := range keys.Length() {
		req := keys.Index(i)
		if kept[req.Get("url").String()] {
			continue
		}
		if _, err := await(c.Call("delete", req)); err != nil {
			return dropped, err
		}
		dropped++
	}
	return dropped, nil
}

// SHA256 hashes data with crypto.subtle, or in Go where the page has none
// (served over plain http to another machine: no secure context).
func (p *Platform) SHA256(data []byte) (string, error) {
	sum := subtleSHA256(data)
	return hex.EncodeToString(sum[:]), nil
}

// workerScript is the parsing worker's script, of this page's build:
// worker.js?b=<build> where boot.js (or, in a worker, worker.js) set
// globalThis.discspanBuild, so that the service worker gives the worker
// files of the page's build only. Relative to the page, or to the calling
// worker's script.
func workerScript() string {
	if b := js.Global().Get("discspanBuild"); b.Type() == js.TypeString && b.String() != "" {
		return "worker.js?b=" + url.QueryEscape(b.String())
	}
	return "worker.js"
}

// NewEngine returns a Web Worker engine, or a parser.Engine when Worker is
// off or the browser has no workers.
func (p *Platform) NewEngine() app.Engine {
	if p.Worker && js.Global().Get("Worker").Truthy() {
		return NewWorkerEngine(workerScript())
	}
	return &parser.Engine{GPU: GPU, Members: Member}
}

// Save offers data as a download through a temporary link.
func (p *Platform) Save(name, mime string, data []byte) error {
	g := js.Global()
	blob := g.Get("Blob").New([]any{bytesToJS(data)}, map[string]any{"type": mime})
	url := g.Get("URL").Call("createObjectURL", blob)
	a := g.Get("document").Call("createElement", "a")
	a.Set("href", url)
	a.Set("download", name)
	a.Get("style").Set("display", "none")
	g.Get("document").Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	g.Call("setTimeout", js.FuncOf(func(js.Value, []js.Value) any {
		g.Get("URL").Call("revokeObjectURL", url)
		return nil
	}), 60000)
	return nil
}

// PNG draws the SVG on an OffscreenCanvas and encodes it.
func (p *Platform) PNG(svg string, width, height, scale float64) ([]byte, error) {
	g := js.Global()
	if !g.Get("OffscreenCanvas").Truthy() {
		return nil, errors.New("this browser has no OffscreenCanvas")
	}
	blob := g.Get("Blob").New([]any{svg}, map[string]any{"type": "image/svg+xml"})
	url := g.Get("URL").Call("createObjectURL", blob)
	defer g.Get("URL").Call("revokeObjectURL", url)
	img := g.Get("Image").New()
	img.Set("src", url)
	if _, err := await(img.Call("decode")); err != nil {
		return nil, fmt.Errorf("decoding the SVG: %v", err)
	}
	canvas := g.Get("OffscreenCanvas").New(int(width*scale+0.5), int(height*scale+0.5))
	ctx := canvas.Call("getContext", "2d")
	ctx.Set("fillStyle", "#fff")
	ctx.Call("fillRect", 0, 0, canvas.Get("width"), canvas.Get("height"))
	ctx.Call("scale", scale, scale)
	ctx.Call("drawImage", img, 0, 0, width, height)
	png, err := await(canvas.Call("convertToBlob", map[string]any{"type": "image/png"}))
	if err != nil {
		return nil, err
	}
	ab, err := await(png.Call("arrayBuffer"))
	if err != nil {
		return nil, err
	}
	return bytesToGo(ab), nil
}

// ReadFile reads the first file of a FileList, refusing one of more than
// maxBytes before reading it.
func (p *Platform) ReadFile(files vjs.Value, maxBytes int64) (string, []byte, error) {
	fl := js.Value(files)
	if !fl.Truthy() || fl.Get("length").Int() == 0 {
		return "", nil, errors.New("no file")
	}
	f := fl.Call("item", 0)
	if size := int64(f.Get("size").Float()); size > maxBytes {
		return "", nil, &app.FileTooLargeError{Name: f.Get("name").String(), Size: size, Max: maxBytes}
	}
	ab, err := await(f.Call("arrayBuffer"))
	if err != nil {
		return "", nil, err
	}
	return f.Get("name").String(), bytesToGo(ab), nil
}

// Since returns performance.now().
func (p *Platform) Since() time.Duration {
	return time.Duration(js.Global().Get("performance").Call("now").Float() * float64(time.Millisecond))
}

// Memory returns the page's wasm memory (memoryBytes).
func (p *Platform) Memory() int64 { return memoryBytes() }

// Yield returns when a message posted to this thread arrives: the browser
// runs the tasks queued before it (input, painting when a frame is due)
// first. A sleep does not do this: Go returns to the browser only when
// every goroutine waits, and a short timer that expires while others
// run (a render) never lets it. Messages are not slowed as timers are
// (4 ms when nested, a second in a hidden page).
func (p *Platform) Yield() {
	done := make(chan struct{})
	ch := js.Global().Get("MessageChannel").New()
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		f.Release()
		close(done)
		return nil
	})
	ch.Get("port1").Set("onmessage", f)
	ch.Get("port2").Call("postMessage", nil)
	<-done
	ch.Get("port1").Call("close")
}

// Page returns the page's options from its URL.
func Page() PageOptions {
	return ParseQuery(strings.TrimPrefix(js.Global().Get("location").Get("search").String(), "?"))
}

// InWorker reports whether the program runs in a Web Worker.
func InWorker() bool {
	return js.Global().Get("document").IsUndefined() && js.Global().Get("importScripts").Truthy()
}
