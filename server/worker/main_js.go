//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"syscall/js"

	"github.com/discspan/discspan/internal/jsawait"
	"github.com/discspan/discspan/server"
	"github.com/discspan/discspan/server/api"
	"github.com/syumai/workers/cloudflare"
)

// newHandler serves the published directory in the static assets (the
// ASSETS binding of wrangler.jsonc), working around two problems of
// syumai/workers: split request headers (rejoinHeaders) and HEAD
// responses (headOnly).
func newHandler() (http.Handler, error) {
	assets := cloudflare.GetBinding("ASSETS")
	if assets.IsUndefined() {
		return nil, errNoAssets
	}
	fsys := newAssetsFS(assets)
	// The weight files' sizes come from the model list, so that they open
	// without a request (see assetsFS).
	b, err := fsys.readAll(server.ManifestName)
	if err != nil {
		return nil, err
	}
	ms, err := server.ParseManifest(b)
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		fsys.setSize(m.SHA256+api.WeightsExt, m.Bytes)
	}
	h, err := server.NewReadOnly(server.ReadOnlyOptions{Weights: fsys})
	if err != nil {
		return nil, err
	}
	return rejoinHeaders(headOnly(backpressured(h))), nil
}

// errNoAssets says that the worker runs without its static assets.
var errNoAssets = errors.New(`no ASSETS binding: wrangler.jsonc needs "assets": {"binding": "ASSETS", ...}`)

// rawBodyWriter is the ResponseWriter of syumai/workers, which can take
// the response body as a JavaScript value.
type rawBodyWriter interface {
	http.ResponseWriter
	WriteRawJSBody(body js.Value)
}

// headOnly answers HEAD requests with a null body. syumai/workers turns
// a response with a Content-Length into a FixedLengthStream of that
// length; a HEAD response writes no bytes into it, and workerd logs an
// error for the stream that never got its bytes. A Response with a null
// body keeps the headers (Content-Length among them) and sends nothing.
// Bytes the handler writes are dropped, as net/http's server drops them
// for HEAD.
func headOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw, ok := w.(rawBodyWriter)
		if r.Method != http.MethodHead || !ok {
			h.ServeHTTP(w, r)
			return
		}
		rw.WriteRawJSBody(js.Null())
		d := &discardBody{ResponseWriter: rw}
		h.ServeHTTP(d, r)
		// The head is sent when the handler returns (nothing was
		// written): a handler that left the length to the server (the
		// model list, an error page) gets it, as from net/http.
		if rw.Header().Get("Content-Length") == "" && d.n > 0 {
			rw.Header().Set("Content-Length", strconv.FormatInt(d.n, 10))
		}
	})
}

// discardBody is a ResponseWriter whose body goes nowhere; it counts it.
type discardBody struct {
	http.ResponseWriter
	n int64
}

func (d *discardBody) Write(p []byte) (int, error) { d.n += int64(len(p)); return len(p), nil }

// backpressured writes a body whose Content-Length is set into a
// FixedLengthStream of its own, waiting for the stream to take each chunk
// before the handler reads the next. syumai/workers' own stream takes the
// chunks without waiting: for a client on a slow link, or one that went
// away, the isolate read the whole weights file into memory (128 MB is
// its limit). A write that fails (the client went) ends the handler's
// copy. Other bodies, and HEAD, go the library's way.
func backpressured(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw, ok := w.(rawBodyWriter)
		ready, readyOK := w.(interface{ Ready() })
		if r.Method == http.MethodHead || !ok || !readyOK || js.Global().Get("FixedLengthStream").IsUndefined() {
			h.ServeHTTP(w, r)
			return
		}
		sw := &streamWriter{rawBodyWriter: rw, ready: ready}
		h.ServeHTTP(sw, r)
		sw.close()
	})
}

// streamWriter is backpressured's ResponseWriter.
type streamWriter struct {
	rawBodyWriter
	ready       interface{ Ready() } // sends the response (its head)
	wroteHeader bool
	writer      js.Value // the stream's writer; undefined: the library's way
	err         error
}

func (s *streamWriter) WriteHeader(code int) {
	if s.wroteHeader {
		return
	}
	s.wroteHeader = true
	s.rawBodyWriter.WriteHeader(code)
	n, err := strconv.ParseInt(s.Header().Get("Content-Length"), 10, 64)
	if err != nil || n <= 0 || (code != http.StatusOK && code != http.StatusPartialContent) {
		return
	}
	stream := js.Global().Get("FixedLengthStream").New(n)
	s.writer = stream.Get("writable").Call("getWriter")
	s.WriteRawJSBody(stream.Get("readable"))
	s.ready.Ready() // the status and headers are set
}

func (s *streamWriter) Write(p []byte) (int, error) {
	if !s.wroteHeader {
		s.WriteHeader(http.StatusOK)
	}
	if s.writer.IsUndefined() {
		return s.rawBodyWriter.Write(p)
	}
	if s.err != nil {
		return 0, s.err
	}
	if _, err := jsawait.Await(s.writer.Get("ready")); err != nil {
		s.err = fmt.Errorf("the client is gone: %v", err)
		return 0, s.err
	}
	b := js.Global().Get("Uint8Array").New(len(p))
	js.CopyBytesToJS(b, p)
	if _, err := jsawait.Await(s.writer.Call("write", b)); err != nil {
		s.err = fmt.Errorf("the client is gone: %v", err)
		return 0, s.err
	}
	return len(p), nil
}

// close ends the stream once the handler is done (a short body then
// fails the response, as the client must learn).
func (s *streamWriter) close() {
	if s.writer.IsUndefined() {
		return
	}
	if s.err == nil {
		_, _ = jsawait.Await(s.writer.Call("close"))
		return
	}
	s.writer.Call("abort")
}
