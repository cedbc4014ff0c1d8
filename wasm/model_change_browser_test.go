//go:build !js

package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/server"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// longN6 returns a 150-word sentence, the app's last example (without its
// full stop) over and over: with n6, minutes of work in wasm (the test
// sentences' words, which a random model scores flat, took 50 ms).
func longN6() []string {
	ex := strings.Fields(app.Examples[len(app.Examples)-1].Text)
	ex = ex[:len(ex)-1]
	return append(slices.Concat(ex, ex, ex)[:149], ".")
}

// Switching the backend while a long n6 parse runs cancels the parse (the
// worker running it is replaced) and loads the model at once: the parse
// never completes (the sequence of parses shown does not move), the page
// says it was cancelled, and the new backend parses; the page says which
// backend scored the parse and why WebGPU was not used.
func TestBrowserBackendSwitch(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	srv := serveApp(t, web, apptest.Model(t, 1))
	ctx := newBrowser(t, chrome)
	load(t, ctx, srv.URL+"/?backend=cpu")
	words := longN6()

	var r struct {
		Started bool   `json:"started"`
		Seq     string `json:"seq"`
		SeqNow  string `json:"seqNow"`
		Err     string `json:"err"`
		Why     string `json:"why"`
		Phase   string `json:"phase"`
		Reason  string `json:"reason"`
	}
	js := fmt.Sprintf(`(async (text) => {
		const app = document.querySelector('#app');
		const pause = (ms) => new Promise((r) => setTimeout(r, ms));
		const ta = document.querySelector('#text');
		ta.value = text;
		ta.dispatchEvent(new Event('input', {bubbles: true}));
		const v = document.querySelector('#variant');
		v.value = 'n6';
		v.dispatchEvent(new Event('change', {bubbles: true}));
		await pause(50);
		const seq = app.dataset.seq;
		document.querySelector('#parse').click();
		let started = false;
		for (let i = 0; i < 5000 && !started; i++) { started = !!document.querySelector('#job'); if (!started) await pause(2); }
		if (!started || app.dataset.seq !== seq) return {started: false, seq, seqNow: app.dataset.seq};
		const b = document.querySelector('#backend-choice');
		b.value = 'auto';
		b.dispatchEvent(new Event('change', {bubbles: true}));
		await pause(20);
		while (app.dataset.phase !== 'ready' || document.querySelector('#job')) {
			if (app.dataset.phase === 'failed') break;
			await pause(10);
		}
		const err = document.querySelector('#parse-error'), why = document.querySelector('.modelbar .why');
		return {started, seq, seqNow: app.dataset.seq, err: err ? err.textContent : '', why: why ? why.textContent : '', phase: app.dataset.phase, reason: app.dataset.reason};
	})(%q)`, strings.Join(words, " "))
	if err := chromedp.Run(ctx, chromedp.Evaluate(js, &r, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
		return p.WithAwaitPromise(true)
	})); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d words with n6, then backend auto: %+v", len(words), r)
	if !r.Started {
		t.Fatalf("the n6 parse of %d words did not start as a job (or ended at once): %+v", len(words), r)
	}
	// Headless Chromium's only adapter is SwiftShader, which auto skips.
	if r.Phase != "ready" || r.SeqNow != r.Seq || r.Err != "cancelled" || r.Reason != parser.ReasonSoftware || !strings.Contains(r.Why, "WebGPU is not used: the WebGPU adapter is a software one") {
		t.Errorf("after the switch: phase %s, parses shown %s then %s (want no new one), error %q (want cancelled), backend reason %s %q (want software)",
			r.Phase, r.Seq, r.SeqNow, r.Err, r.Reason, r.Why)
	}
	// The new engine parses, and the work says which backend scored.
	p := parseInPage(t, ctx, apptest.Sentences[0], "n3")
	if !strings.Contains(p.Work, "scored on\tcpu") || !strings.Contains(p.Work, "WebGPU is not used: the WebGPU adapter is a software one") {
		t.Errorf("the work shown does not say the CPU scored and why:\n%s", p.Work)
	}
}

// TestBrowserSwitchWhileWorkerStarts: a model chosen while the first one
// waits for the parsing worker to start (its script held by the server)
// is the one loaded once the worker runs; before, the first model's load
// went on and the second failed with "context canceled".
func TestBrowserSwitchWhileWorkerStarts(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	wdir := t.TempDir()
	for name, seed := range map[string]uint64{"a": 11, "b": 12} {
		if err := os.WriteFile(filepath.Join(wdir, name+".safetensors"), apptest.Model(t, seed), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h, err := server.New(server.Options{App: os.DirFS(web), Weights: []string{wdir}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	var once sync.Once
	defer once.Do(func() { close(release) })
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/worker.js") {
			<-release // the worker starts only when the test says
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	ctx := newBrowser(t, chrome)
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/?backend=cpu")); err != nil {
		t.Fatal(err)
	}
	first := waitJS(t, ctx, "the first model waiting for the worker", `(() => {
		const m = document.querySelector('select.models'), app = document.querySelector('#app'), b = document.querySelector('.modelbar .model b');
		return m && app && app.dataset.phase === 'loading' && b ? b.textContent : '';
	})()`)
	var chosen string
	evalJS(t, ctx, `(() => {
		const m = document.querySelector('select.models');
		m.value = [...m.options].map((o) => o.value).find((v) => v !== `+strconv.Quote(first)+`);
		m.dispatchEvent(new Event('change', {bubbles: true}));
		return m.value;
	})()`, &chosen)
	waitJS(t, ctx, "the choice taken", `document.querySelector('.modelbar .model b').textContent === `+strconv.Quote(chosen))
	once.Do(func() { close(release) })
	phase := waitJS(t, ctx, "the load's end", `(() => { const p = document.querySelector('#app').dataset.phase; return p === 'ready' || p === 'failed' ? p : ''; })()`)
	var shown, loadErr string
	evalJS(t, ctx, `document.querySelector('.modelbar .model b').textContent`, &shown)
	evalJS(t, ctx, `(() => { const e = document.querySelector('#load-error'); return e ? e.textContent : ''; })()`, &loadErr)
	if phase != "ready" || shown != chosen {
		t.Errorf("after choosing %s while %s waited for the worker: phase %s, model %s, error %q", chosen, first, phase, shown, loadErr)
	}
}

// TestBrowserRetryAfterWorkerFailed: when the parsing worker's script did
// not load (a network flake), Retry starts a new worker and the model
// loads; before, Retry asked the dead worker again until a page reload.
func TestBrowserRetryAfterWorkerFailed(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	var failing atomic.Bool
	failing.Store(true)
	srv := serveAppWrapped(t, web, apptest.Model(t, 1), func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/worker.js") && failing.Load() {
				http.Error(w, "flake", http.StatusServiceUnavailable)
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	ctx := newBrowser(t, chrome)
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/?backend=cpu")); err != nil {
		t.Fatal(err)
	}
	msg := waitJS(t, ctx, "the failure", `(() => { const e = document.querySelector('#load-error'); return document.querySelector('#app').dataset.phase === 'failed' && e ? e.textContent : ''; })()`)
	if !strings.Contains(msg, "parsing worker") {
		t.Errorf("the failure says %q; want it to name the parsing worker", msg)
	}
	failing.Store(false) // the network is fine again
	evalJS(t, ctx, `(() => { document.querySelector('#retry').click(); return true; })()`, nil)
	waitJS(t, ctx, "the retry's start", `document.querySelector('#app').dataset.phase !== 'failed'`)
	phase := waitJS(t, ctx, "the retry's end", `(() => { const p = document.querySelector('#app').dataset.phase; return p === 'ready' || p === 'failed' ? p : ''; })()`)
	if phase != "ready" {
		var loadErr string
		evalJS(t, ctx, `(() => { const e = document.querySelector('#load-error'); return e ? e.textContent : ''; })()`, &loadErr)
		t.Errorf("after Retry: %s (%q); want the model loaded in a new worker", phase, loadErr)
	}
}
