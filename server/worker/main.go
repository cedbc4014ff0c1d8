// Command worker serves discspan's model list (/api/models) and weight files
// (/weights/<sha256>.safetensors) from a Cloudflare Worker, with the same
// handler as discspan serve (server.NewReadOnly): the same ETags,
// Cache-Control, Range, conditional and HEAD answers.
//
// The weights are not in the worker script (the free plan allows 3 MB
// gzipped): they are static assets, published by ./publish into
// build/assets next to the model list (server.ManifestName), and the worker
// reads them through its ASSETS binding. wrangler.jsonc sends every request
// to the worker first ("run_worker_first"), so the Go handler answers all of
// them. Build it with make worker (see the Makefile), or by hand:
//
//	go run github.com/syumai/workers/cmd/workers-assets-gen -mode=go
//	GOOS=js GOARCH=wasm go build -trimpath -ldflags=-s -o build/app.wasm .
//	go run ./publish -o build/assets ../../weights/default.safetensors
//	npx wrangler@4.80.0 dev --local --ip 127.0.0.1 --port 8787
//
// (wrangler 4.80.0 is the version worker_test.go pins and tests; newer
// ones want Node 22.) npx wrangler@4.80.0 deploy publishes it to Cloudflare.
// The worker script (build/app.wasm and the JavaScript glue) is about
// 2.4 MB gzipped (go1.27.3), under the free plan's 3 MB; worker_test.go
// measures it.
//
// Problems of syumai/workers v0.32.0 worked around here: it splits request
// header values at every comma (rejoinHeaders puts them back together, so
// that multi-range requests, If-None-Match lists and Accept-Encoding work),
// and it answers a HEAD request with a Content-Length through a
// FixedLengthStream that never gets its bytes, which workerd turns into a
// 500 "FixedLengthStream did not see all expected bytes" (headOnly gives
// HEAD answers a null body instead, keeping Content-Length). Each request
// starts a new Go runtime (tens of milliseconds); a weights file is
// streamed from the assets, a range by skipping to its start (wrangler's
// local asset server ignores Range requests).
//
// Built for another platform than js/wasm, it serves a published directory
// ($ASSETS_DIR, default build/assets) on $PORT (default 9900) with net/http,
// through the same handler, for debugging.
package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"github.com/syumai/workers"
)

func main() {
	workers.Serve(&lazy{build: newHandler})
}

// lazy builds its handler on the first request (a Worker's bindings, such
// as ASSETS, are read while a request is served) and keeps it for later
// ones. A build that fails (the model list could not be read) is answered
// 500 and tried again by the next request: an isolate serves many
// requests, and one failed fetch must not fail them all.
type lazy struct {
	build func() (http.Handler, error)

	mu sync.Mutex
	h  http.Handler
}

func (l *lazy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	h := l.h
	var err error
	if h == nil {
		if h, err = l.build(); err == nil {
			l.h = h
		}
	}
	l.mu.Unlock()
	if err != nil {
		msg := "discspan worker: " + err.Error()
		if strings.HasPrefix(r.URL.Path, "/api/") {
			// JSON, as every other error of the API.
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			_ = json.NewEncoder(w).Encode(struct {
				Error string `json:"error"`
			}{msg})
			return
		}
		http.Error(w, msg, http.StatusInternalServerError)
		return
	}
	h.ServeHTTP(w, r)
}
