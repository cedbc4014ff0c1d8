//go:build !js

package main

import (
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/ui/app/apptest"
)

// On a network that connects but never answers (a train, a captive
// portal), a page that the service worker controls starts from the copies
// it keeps, each request waiting at most networkWaitMs (sw.js) for the
// network, instead of waiting for the browser to give up; it then parses
// as it did online.
func TestBrowserUnansweringNetwork(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	words, other, _ := devData(t)
	data := apptest.Model(t, 1, words, other)
	var hang atomic.Bool
	release := make(chan struct{})
	srv := serveAppWrapped(t, web, data, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if hang.Load() {
				select { // no answer until the browser gives up or the test ends
				case <-release:
				case <-r.Context().Done():
				}
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	t.Cleanup(func() { close(release) }) // before the server closes (cleanups run last first)
	ctx := newBrowser(t, chrome)
	load(t, ctx, srv.URL+"/?backend=cpu")
	var controlled bool
	if err := chromedp.Run(ctx, chromedp.Poll(`navigator.serviceWorker.controller !== null`, &controlled, chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("no service worker: %v", err)
	}
	want := nativeConstituents(t, data, words, decode.N3)
	checkTree(t, "online", parseInPage(t, ctx, words, "n3"), want)

	hang.Store(true)
	ready, backend, _ := load(t, ctx, srv.URL+"/?backend=cpu")
	t.Logf("reload with a network that does not answer: ready after %.0f ms by the page's clock (backend %q)", ready, backend)
	checkTree(t, "no answer from the network", parseInPage(t, ctx, words, "n3"), want)
}
