//go:build !js

package main

import (
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/ui/app/apptest"
)

// On a network that connects but never answers (a train's, a hotel's), a
// page that the service worker controls starts from the copies it keeps,
// each request waiting at most networkWaitMs (sw.js) for the network,
// instead of waiting for the browser to give up; on one whose every
// answer is a redirect to a login page, it starts from its copies too
// (sw.js neither serves nor keeps a redirect), and those copies are not
// replaced by the login page: the app then starts with no network at all. Each time it parses as it did online.
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
	var waiting atomic.Int32 // requests held unanswered
	redirected := &requestCounts{n: map[string]int{}}
	release := make(chan struct{})
	srv := serveAppWrapped(t, web, data, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case mode.Load() == silent:
				waiting.Add(1)
				defer waiting.Add(-1)
				select { // no answer until the browser gives up or the test ends
				case <-release:
				case <-r.Context().Done():
				}
				panic(http.ErrAbortHandler) // then the connection breaks: no answer at all
			case mode.Load() == portal && r.URL.Path == "/login":
				w.Header().Set("Content-Type", "text/html")
				_, _ = w.Write([]byte("<!doctype html><title>Log in</title><p>Log in to use this network."))
			case mode.Load() == portal:
				redirected.mu.Lock()
				redirected.n[r.URL.Path]++
				redirected.mu.Unlock()
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

	// The requests held break (the browser's few connections to the
	// server are free again), and every answer is a redirect. The first
	// reload takes the copies at once (no answer since the network went
	// silent); its answers, redirects, are not kept, and the second
	// reload, whose page and files the network answers, takes the copies
	// instead of the redirects.
	mode.Store(portal)
	stopHanging()
	for waiting.Load() > 0 {
		time.Sleep(10 * time.Millisecond)
	}
	for _, round := range []string{"first", "second"} {
		redirected.take("/", "/boot.js")
		ready, _, _ = load(t, ctx, srv.URL+"/?backend=cpu")
		n := redirected.take("/", "/boot.js")
		t.Logf("%s reload with every answer a redirect to a login page: ready after %.0f ms; the page redirected %d times, boot.js %d", round, ready, n[0], n[1])
		if round == "second" && (n[0] == 0 || n[1] == 0) {
			t.Errorf("the second reload did not ask the network (the page %d times, boot.js %d): the redirects are not tested", n[0], n[1])
		}
		checkTree(t, round+" reload redirected to a login page", parseInPage(t, ctx, words, "n3"), want)
	}

	srv.Close()
	if err := chromedp.Run(ctx, network.Enable(), network.EmulateNetworkConditions(true, 0, -1, -1)); err != nil {
		t.Logf("network emulation: %v (the server is closed anyway)", err)
	}
	ready, _, _ = load(t, ctx, srv.URL+"/?backend=cpu")
	t.Logf("then offline: ready after %.0f ms", ready)
	checkTree(t, "offline after the login page", parseInPage(t, ctx, words, "n3"), want)
}
