//go:build js && wasm

package main

import (
	"errors"
	"net/http"
	"syscall/js"

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
	return rejoinHeaders(headOnly(h)), nil
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
		h.ServeHTTP(discardBody{rw}, r)
	})
}

// discardBody is a ResponseWriter whose body goes nowhere.
type discardBody struct{ http.ResponseWriter }

func (d discardBody) Write(p []byte) (int, error) { return len(p), nil }
