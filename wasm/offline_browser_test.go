//go:build !js

package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/server/api"
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

// A new build deployed while the network is slow: the page of the new
// build comes from the network, but its main.wasm takes longer than
// networkWaitMs. The service worker keeps the old build's copies, yet
// gives the new page none of them (a page of one build running another's
// main.wasm, worker or scripts can fail in any way): the page waits for
// the network and starts as the new build, every file of it asked for
// with its build's name. The new build is then kept whole, and an offline
// visit starts it.
func TestBrowserDeployOnSlowNetwork(t *testing.T) {
	chrome := chromiumPath(t)
	webA := appDir(t)
	webB, buildB := otherBuild(t, webA)
	buildA := stampedBuild(t, webA)
	words, other, _ := devData(t)
	data := apptest.Model(t, 1, words, other)
	handlerB := appHandler(t, webB, data)
	var deployed, answered atomic.Bool
	release := make(chan struct{})
	stopHolding := sync.OnceFunc(func() { close(release) })
	srv := serveAppWrapped(t, webA, data, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !deployed.Load() {
				h.ServeHTTP(w, r)
				return
			}
			if r.URL.Path == "/main.wasm" && !answered.Load() {
				// Held until well after the service worker would have
				// taken a copy (networkWaitMs, 3 s).
				go func() {
					time.Sleep(6 * time.Second)
					answered.Store(true)
					stopHolding()
				}()
				select {
				case <-release:
				case <-r.Context().Done():
					return
				}
			}
			handlerB.ServeHTTP(w, r)
		})
	})
	t.Cleanup(stopHolding) // before the server closes (cleanups run last first)
	ctx := newBrowser(t, chrome)
	load(t, ctx, srv.URL+"/?backend=cpu")
	waitKeptBuilds(t, ctx, buildA, "")
	want := nativeConstituents(t, data, words, decode.N3)

	deployed.Store(true)
	load(t, ctx, srv.URL+"/?backend=cpu")
	if !answered.Load() {
		t.Errorf("the page of the new build was ready before the network answered its main.wasm: it ran a copy of the old build's")
	}
	if got := pageBuildAndFiles(t, ctx); got != buildB {
		t.Errorf("after the deploy the page and its files are of builds %s; want only the new build %s (the old one: %s)", got, buildB, buildA)
	}
	checkTree(t, "the new build", parseInPage(t, ctx, words, "n3"), want)
	waitKeptBuilds(t, ctx, buildB, buildA)

	srv.Close()
	if err := chromedp.Run(ctx, network.Enable(), network.EmulateNetworkConditions(true, 0, -1, -1)); err != nil {
		t.Logf("network emulation: %v (the server is closed anyway)", err)
	}
	load(t, ctx, srv.URL+"/?backend=cpu")
	if got := pageBuildAndFiles(t, ctx); got != buildB {
		t.Errorf("offline, the page and its files are of builds %s; want the new build %s", got, buildB)
	}
	checkTree(t, "offline, the new build", parseInPage(t, ctx, words, "n3"), want)
}

// otherBuild returns a copy of the app in web that is another build (its
// boot.js differs by a comment), stamped, and the build's name.
func otherBuild(t *testing.T, web string) (dir, build string) {
	t.Helper()
	dir = t.TempDir()
	for _, name := range []string{"main.wasm", "wasm_exec.js", "worker.js", "vugu.js", "app.css", "boot.js"} {
		copyFile(t, filepath.Join(web, name), filepath.Join(dir, name))
	}
	for _, name := range []string{"index.html", "sw.js"} { // not stamped yet
		copyFile(t, filepath.Join("web", name), filepath.Join(dir, name))
	}
	f, err := os.OpenFile(filepath.Join(dir, "boot.js"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("\n// another build of the app, for TestBrowserDeployOnSlowNetwork\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return dir, stampApp(t, dir)
}

// stampedBuild returns the build named in web's index.html.
func stampedBuild(t *testing.T, web string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(web, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`data-build="([0-9a-f]{12})"`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s names no build (stamp it: make wasm)", filepath.Join(web, "index.html"))
	}
	return string(m[1])
}

// pageBuildAndFiles returns the builds of the page and of every file it
// and its workers asked for with ?b= (as "A" or "A B ..." when they
// differ); it fails the test when a file the page needs was asked for
// without its build.
func pageBuildAndFiles(t *testing.T, ctx context.Context) string {
	t.Helper()
	var got struct {
		Page  string   `json:"page"`
		Files []string `json:"files"`
		Plain []string `json:"plain"`
	}
	err := chromedp.Run(ctx, chromedp.Evaluate(`(() => {
		const names = performance.getEntriesByType("resource").map((e) => new URL(e.name));
		const ofBuild = /\/(app\.css|boot\.js|vugu\.js|worker\.js|wasm_exec\.js|main\.wasm)$/;
		return {
			page: document.documentElement.dataset.build,
			files: names.filter((u) => ofBuild.test(u.pathname)).map((u) => u.searchParams.get("b") || ""),
			plain: names.filter((u) => ofBuild.test(u.pathname) && !u.searchParams.get("b")).map((u) => u.pathname),
		};
	})()`, &got))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Plain) > 0 {
		t.Errorf("files asked for without the build: %v", got.Plain)
	}
	if len(got.Files) < 4 {
		t.Errorf("the page asked for %d of its build's files (%v); want its scripts, style and main.wasm", len(got.Files), got.Files)
	}
	builds := []string{got.Page}
	for _, b := range got.Files {
		if !slices.Contains(builds, b) {
			builds = append(builds, b)
		}
	}
	return strings.Join(builds, " ")
}

// waitKeptBuilds waits until the service worker has kept the build newest
// whole, and previous before it.
func waitKeptBuilds(t *testing.T, ctx context.Context, newest, previous string) {
	t.Helper()
	waitFor(t, "the service worker to keep the builds "+newest+" after "+previous, func() bool {
		var kept struct {
			Newest   string `json:"newest"`
			Previous string `json:"previous"`
		}
		evalJS(t, ctx, `caches.open("discspan-app-v3")
			.then((c) => c.match(new URL("/.builds", location).href))
			.then((r) => (r ? r.json() : {}))`, &kept)
		if kept.Newest == newest && kept.Previous != previous {
			t.Fatalf("the service worker keeps the builds %+v; want %s after %s", kept, newest, previous)
		}
		return kept.Newest == newest
	})
}

// Weights the server no longer lists (an older version of a model, under
// the URL of its SHA-256) leave the browser's data cache once the app is
// ready with the server's list; the listed model's weights stay.
func TestBrowserDropsUnlistedWeights(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	words, other, _ := devData(t)
	data := apptest.Model(t, 1, words, other)
	srv := serveApp(t, web, data)
	ctx := newBrowser(t, chrome)
	// The stale entry is put before the app starts (on another page of
	// its origin), so that the app's first load is what must drop it.
	stale := api.WeightsURL(strings.Repeat("0", 64))
	cached := func(script string) []string {
		t.Helper()
		var urls []string
		evalJS(t, ctx, `caches.open("discspan-data-v1")`+script+`
			.then((c) => c.keys()).then((keys) => keys.map((r) => new URL(r.url).pathname))`, &urls)
		return urls
	}
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/api/models")); err != nil {
		t.Fatal(err)
	}
	if urls := cached(`.then((c) => c.put("` + stale + `", new Response("weights of an older version")).then(() => c))`); !slices.Equal(urls, []string{stale}) {
		t.Fatalf("the data cache holds %v; want the stale weights only", urls)
	}
	load(t, ctx, srv.URL+"/?backend=cpu")
	waitFor(t, "the stale weights to leave the data cache", func() bool { return !slices.Contains(cached(""), stale) })
	if urls := cached(""); len(urls) != 2 || !slices.ContainsFunc(urls, func(u string) bool { return strings.HasPrefix(u, api.WeightsPrefix) }) {
		t.Errorf("after the load the data cache holds %v; want the model list and the listed model's weights", urls)
	}
}

// waitFor polls cond until it holds, failing the test with what it waited
// for shortly before the test's deadline (there is no other time limit: a
// busy machine is slow, not wrong).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline, limited := t.Deadline()
	for !cond() {
		if limited && time.Until(deadline) < 25*time.Second { // before the browser's own end (browserWait)
			t.Fatalf("gave up waiting for %s at the test's deadline", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A script of the page that does not load (the network failed, or the
// server answers a file of an older build with 404) is named, with what to
// do, instead of the page saying the browser has no WebAssembly.
func TestBrowserMissingScript(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	words, other, _ := devData(t)
	data := apptest.Model(t, 1, words, other)
	var missing atomic.Value
	srv := serveAppWrapped(t, web, data, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if m, _ := missing.Load().(string); r.URL.Path == m {
				http.NotFound(w, r)
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	for _, script := range []string{"wasm_exec.js", "vugu.js"} {
		missing.Store("/" + script)
		ctx := newBrowser(t, chrome) // a fresh profile: no service worker with copies
		var msg string
		err := chromedp.Run(ctx,
			chromedp.Navigate(srv.URL+"/?backend=cpu"),
			chromedp.Poll(`document.querySelector('#app').dataset.phase === 'failed'`, nil, chromedp.WithPollingTimeout(0)),
			chromedp.Text(`#boot`, &msg, chromedp.ByQuery),
		)
		if err != nil {
			t.Fatalf("%s missing: %v", script, err)
		}
		if !strings.Contains(msg, script+" did not load") || !strings.Contains(msg, "Reload the page") {
			t.Errorf("%s missing: the page says %q; want it named, and a reload asked for", script, msg)
		}
		if present := evalString(t, ctx, `document.getElementById('boot-stuck') ? 'yes' : ''`); present != "" {
			t.Errorf("%s missing: boot.js ran but left the hint for a page whose boot.js did not", script)
		}
	}

	// boot.js itself missing: nothing runs, and the hint, shown by CSS
	// alone after 20 s (the test finishes its animation rather than
	// wait), asks for a reload.
	missing.Store("/boot.js")
	ctx := newBrowser(t, chrome)
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/?backend=cpu")); err != nil {
		t.Fatal(err)
	}
	if v := evalString(t, ctx, `getComputedStyle(document.getElementById('boot-stuck')).visibility`); v != "hidden" {
		t.Errorf("the hint is %s at once; want it hidden for the first 20 s", v)
	}
	evalString(t, ctx, `(() => { document.getAnimations().forEach(a => a.finish()); return ''; })()`)
	if v := evalString(t, ctx, `getComputedStyle(document.getElementById('boot-stuck')).visibility`); v != "visible" {
		t.Errorf("boot.js missing: the hint is %s once its delay is over; want it visible", v)
	}
	if msg := evalString(t, ctx, `document.getElementById('boot-stuck').textContent`); !strings.Contains(msg, "Reload the page") {
		t.Errorf("boot.js missing: the hint says %q", msg)
	}
}
