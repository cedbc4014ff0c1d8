//go:build !js

package main

import (
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/ui/app/apptest"
)

// On a network that connects but never answers (a train's, a hotel's), a
// page that the service worker controls starts from the copies it keeps,
// each request waiting at most networkWaitMs (sw.js) for the network,
// instead of waiting for the browser to give up; on one whose every
// answer is a redirect to a login page, it starts from its copies too, and
// those copies are not replaced by the login page: the app then starts
// with no network at all. Each time it parses as it did online.
func TestBrowserUnansweringNetwork(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	words, other, _ := devData(t)
	data := apptest.Model(t, 1, words, other)
	const (
		answering = iota
		silent
		portal
	)
	var mode atomic.Int32
	release := make(chan struct{})
	srv := serveAppWrapped(t, web, data, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case mode.Load() == silent:
				select { // no answer until the browser gives up or the test ends
				case <-release:
				case <-r.Context().Done():
				}
				panic(http.ErrAbortHandler) // then the connection breaks: no answer at all
			case mode.Load() == portal && r.URL.Path == "/login":
				w.Header().Set("Content-Type", "text/html")
				_, _ = w.Write([]byte("<!doctype html><title>Log in</title><p>Log in to use this network."))
			case mode.Load() == portal:
				http.Redirect(w, r, "/login", http.StatusFound)
			default:
				h.ServeHTTP(w, r)
			}
		})
	})
	stopHanging := sync.OnceFunc(func() { close(release) })
	t.Cleanup(stopHanging) // before the server closes (cleanups run last first)
	ctx := newBrowser(t, chrome)
	load(t, ctx, srv.URL+"/?backend=cpu")
	var controlled bool
	if err := chromedp.Run(ctx, chromedp.Poll(`navigator.serviceWorker.controller !== null`, &controlled, chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("no service worker: %v", err)
	}
	want := nativeConstituents(t, data, words, decode.N3)
	checkTree(t, "online", parseInPage(t, ctx, words, "n3"), want)

	mode.Store(silent)
	ready, _, _ := load(t, ctx, srv.URL+"/?backend=cpu")
	t.Logf("reload with a network that does not answer: ready after %.0f ms by the page's clock", ready)
	checkTree(t, "no answer from the network", parseInPage(t, ctx, words, "n3"), want)

	mode.Store(portal)
	ready, _, _ = load(t, ctx, srv.URL+"/?backend=cpu")
	t.Logf("reload with every answer a redirect to a login page: ready after %.0f ms", ready)
	checkTree(t, "redirected to a login page", parseInPage(t, ctx, words, "n3"), want)

	stopHanging() // the server waits for its requests to end
	srv.Close()
	if err := chromedp.Run(ctx, network.Enable(), network.EmulateNetworkConditions(true, 0, -1, -1)); err != nil {
		t.Logf("network emulation: %v (the server is closed anyway)", err)
	}
	ready, _, _ = load(t, ctx, srv.URL+"/?backend=cpu")
	t.Logf("then offline: ready after %.0f ms", ready)
	checkTree(t, "offline after the login page", parseInPage(t, ctx, words, "n3"), want)
}
