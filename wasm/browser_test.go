//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/internal/bankfile"
	"github.com/discspan/discspan/internal/headless"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/server"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// The browser tests run the built app in headless Chromium against the
// real server handler, with a small random model:
//
//   - a 20-word dev sentence parsed with WebGPU (SwiftShader, forced with
//     ?backend=webgpu) and with the CPU (?backend=cpu) gives, in the page's
//     constituent table and in the SVG's labels, the tree the parser gives
//     natively in Go for the same weights;
//   - a treebank file opens, its sentences parse with their F1, and a PNG
//     export comes out;
//   - with the network gone (emulated, and the server closed) a reload
//     still starts and parses, from the service worker's and the app's
//     caches.
//
// They log the wasm's size, the cold load time and the parse latency per
// backend, and check none of them against a limit: waits have no time
// limit of their own (a busy machine may be slow), only the browser's
// context and the test binary's -timeout end them.
// DISCSPAN_SCREENSHOTS=DIR saves screenshots there. DISCSPAN_WEB points at
// an app already built by make wasm; otherwise the test builds one.
// DISCSPAN_WEIGHTS=FILE uses a trained model instead of the random one
// (for measurements).

// chromiumPath returns the Chromium to drive, or skips the test.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: no browser tests")
	}
	for _, p := range []string{os.Getenv("CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("chromium is not installed (apt-get install chromium, or make test, which installs it): skipping the browser tests")
	return ""
}

// appDir returns a directory with the built app: DISCSPAN_WEB, or a fresh
// build (the wasm, the web files, wasm_exec.js and a gzip variant).
func appDir(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("DISCSPAN_WEB"); d != "" {
		if _, err := os.Stat(filepath.Join(d, "main.wasm")); err != nil {
			t.Fatalf("DISCSPAN_WEB=%s: %v", d, err)
		}
		return d
	}
	dir := t.TempDir()
	build := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(dir, "main.wasm"), ".")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the wasm: %v\n%s", err, out)
	}
	loader, err := headless.WasmExecPath()
	if err != nil {
		t.Fatal(err)
	}
	copyFile(t, loader, filepath.Join(dir, "wasm_exec.js"))
	files, err := filepath.Glob("web/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		copyFile(t, f, filepath.Join(dir, filepath.Base(f)))
	}
	// The worker's script holds wasm_exec.js, as the Makefile builds it.
	loaderJS, err := os.ReadFile(loader)
	if err != nil {
		t.Fatal(err)
	}
	workerJS, err := os.ReadFile(filepath.Join("web", "worker.js"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "worker.js"), append(loaderJS, workerJS...), 0o644); err != nil {
		t.Fatal(err)
	}
	// The build's name in index.html and sw.js, as the Makefile writes it.
	stampApp(t, dir)
	gzipFile(t, filepath.Join(dir, "main.wasm"))
	return dir
}

// stampApp names the build of the app's files in dir (wasm/stamp) and
// returns the name.
func stampApp(t *testing.T, dir string) string {
	t.Helper()
	out, err := exec.Command("go", "run", "./stamp", dir).Output()
	if err != nil {
		var stderr []byte
		if e, ok := err.(*exec.ExitError); ok {
			stderr = e.Stderr
		}
		t.Fatalf("go run ./stamp %s: %v\n%s", dir, err, stderr)
	}
	return strings.TrimSpace(string(out))
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// gzipFile writes path.gz beside path.
func gzipFile(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	if err := os.WriteFile(path+".gz", buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// gzipSize is the size of b gzipped at the best compression.
func gzipSize(b []byte) int {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return buf.Len()
}

// devData returns two 20-word sentences of the Alpino dev set and a few
// dev trees as a discbracket file (synthetic ones where the data is
// missing).
func devData(t *testing.T) (words, other []string, bank string) {
	t.Helper()
	data := os.Getenv("DATA")
	if data == "" {
		data = filepath.Join("..", "..", "shared", "data")
	}
	var trees []*tree.Tree
	if all, err := treebank.ReadFile(filepath.Join(data, "alpino-cdb", "dev.punctmoved.discbracket")); err == nil {
		for _, tr := range all {
			if tr.Len() == 20 && words == nil {
				words = tr.Words()
			} else if tr.Len() == 20 && other == nil {
				other = tr.Words()
			}
			if tr.Len() <= 15 && len(trees) < 3 {
				trees = append(trees, tr)
			}
		}
	} else {
		t.Logf("no Alpino dev set (%v): synthetic sentences", err)
	}
	if words == nil || other == nil {
		words = strings.Fields("Volgens de minister moeten de gemeenten de komende jaren meer woningen bouwen dan zij tot nu toe hebben gedaan .")
		other = strings.Fields("Het is niet duidelijk of de regering het plan volgende week zal steunen , zei de minister gisteren in Den Haag .")
	}
	if len(trees) == 0 {
		for _, s := range apptest.Sentences {
			tags := make([]string, len(s))
			for i := range tags {
				tags[i] = "N"
			}
			tr, err := tree.FromConstituents(s, tags, []tree.Labelled{{Label: "smain", Blocks: []tree.Span{{Start: 0, End: len(s) - 1}}}})
			if err != nil {
				t.Fatal(err)
			}
			trees = append(trees, tr)
		}
	}
	bank = filepath.Join(t.TempDir(), "dev.discbracket")
	if err := bankfile.Write(bank, trees, bankfile.Options{}); err != nil {
		t.Fatal(err)
	}
	return words, other, bank
}

// nativeConstituents parses words with the weights in Go and returns the
// tree's constituents, sorted.
func nativeConstituents(t *testing.T, data []byte, words []string, v decode.Variant) []string {
	t.Helper()
	ms, err := parser.Read(data, "default")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ms.Parser()
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.ParseWords(words, v)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, y := range r.Tree.Yields() {
		out = append(out, tree.Labelled{Label: r.Tree.Nodes[i].Label, Blocks: tree.Blocks(y)}.String())
	}
	slices.Sort(out)
	return out
}

// newBrowser starts headless Chromium (with a software WebGPU adapter) and
// returns its context; page console messages and exceptions go to the
// test log, and a Go panic or fatal error of the app (which ends it: the
// page stays, dead), or a call into it after it died, fails the test once
// the browser has closed.
func newBrowser(t *testing.T, chrome string) context.Context {
	t.Helper()
	// Not t.TempDir: Chromium's helpers may still write there for a moment
	// after the browser has gone, which would fail the test at cleanup.
	profile, err := os.MkdirTemp("", "discspan-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chrome),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(profile),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("enable-unsafe-webgpu", true),
		chromedp.WindowSize(1400, 1000),
		// chromedp gives Chromium 20 s to start by default: a cold disk on
		// a busy machine took longer (the test failed at its start).
		chromedp.WSURLReadTimeout(browserWait(t)),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	// The browser's context ends shortly before the test binary's deadline,
	// so that a wait that never ends fails the test with what it waited
	// for, not with a dump of every goroutine.
	tctx, cancelT := context.WithTimeout(ctx, browserWait(t))
	var panicked atomic.Pointer[string] // the first "panic: ..." the page logged
	t.Cleanup(func() {
		_ = chromedp.Cancel(ctx) // closes the browser and waits for it
		cancelT()
		cancelC()
		cancelA()
		if p := panicked.Load(); p != nil {
			t.Errorf("the app panicked: %s", *p)
		}
		for range 50 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("could not remove %s", profile)
	})
	chromedp.ListenTarget(ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var parts []string
			for _, a := range e.Args {
				parts = append(parts, strings.Trim(string(a.Value), `"`)+a.Description)
			}
			msg := strings.Join(parts, " ")
			t.Logf("console.%s: %s", e.Type, msg)
			if strings.HasPrefix(msg, "panic: ") || strings.HasPrefix(msg, "fatal error: ") {
				panicked.CompareAndSwap(nil, &msg)
			}
		case *runtime.EventExceptionThrown:
			msg := e.ExceptionDetails.Error()
			t.Logf("exception: %s", msg)
			if strings.Contains(msg, "Go program has already exited") {
				panicked.CompareAndSwap(nil, &msg) // a call into the app after it died
			}
		}
	})
	if err := chromedp.Run(tctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return tctx
}

// browserWait is the time a browser is given: until 20 s before the test
// binary's deadline (go test -timeout), or an hour without one.
func browserWait(t *testing.T) time.Duration {
	deadline, ok := t.Deadline()
	if !ok {
		return time.Hour
	}
	return max(time.Until(deadline)-20*time.Second, time.Second)
}

// load opens url and waits for the model; it returns the cold load time
// (navigation to ready, from the page's clock) and the backend.
func load(t *testing.T, ctx context.Context, url string) (readyMS float64, backend string, gpu bool) {
	t.Helper()
	var phase string
	err := chromedp.Run(ctx,
		chromedp.Navigate(url),
		chromedp.Poll(`(() => { const a = document.querySelector('#app'); const p = a && a.dataset.phase;
			return ['ready', 'failed', 'nomodel'].includes(p) ? p : false; })()`, &phase, chromedp.WithPollingTimeout(0)),
	)
	if err != nil {
		t.Fatalf("loading %s: %v", url, err)
	}
	if phase != "ready" {
		var msg string
		_ = chromedp.Run(ctx, chromedp.Text(`#app`, &msg, chromedp.ByQuery))
		t.Fatalf("loading %s: phase %s: %s", url, phase, msg)
	}
	var info struct {
		Ready   string `json:"ready"`
		Backend string `json:"backend"`
		GPU     string `json:"gpu"`
	}
	if err := chromedp.Run(ctx, chromedp.Evaluate(`(() => { const d = document.querySelector('#app').dataset;
		return {ready: d.readyMs, backend: d.backend, gpu: d.gpu}; })()`, &info)); err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Sscan(info.Ready, &readyMS); err != nil {
		t.Logf("data-ready-ms %q: %v", info.Ready, err)
	}
	return readyMS, info.Backend, info.GPU == "1"
}

// parseResult is what the page shows after a parse.
type parseResult struct {
	Error  string   `json:"error"`
	MS     float64  `json:"ms"`
	Rows   []string `json:"rows"`
	Labels []string `json:"labels"`
	Work   string   `json:"work"`
}

// parseInPage types the sentence, clicks Parse, waits for the new tree and
// reads the constituents from the table (data-cons) and the drawing's
// phrase labels (data-node and text), with the time from the click to the
// drawing.
func parseInPage(t *testing.T, ctx context.Context, words []string, variant string) parseResult {
	t.Helper()
	var r parseResult
	js := fmt.Sprintf(`(async (text, variant) => {
		const app = document.querySelector('#app');
		const seq = app.dataset.seq;
		const pause = (ms) => new Promise((r) => setTimeout(r, ms));
		const ta = document.querySelector('#text');
		ta.value = text;
		ta.dispatchEvent(new Event('input', {bubbles: true}));
		const sel = document.querySelector('#variant');
		sel.value = variant;
		sel.dispatchEvent(new Event('change', {bubbles: true}));
		await pause(100);
		const attempts = app.dataset.attempts;
		const t0 = performance.now();
		document.querySelector('#parse').click();
		// The page shows a young job late (app.JobBarDelay): until it has
		// rendered the click, an error shown is the last parse's.
		while (app.dataset.attempts === attempts) await pause(1);
		for (;;) {
			if (app.dataset.seq !== seq) break;
			const err = document.querySelector('#parse-error');
			if (err && !document.querySelector('#job')) return {error: err.textContent};
			await pause(1);
		}
		const ms = performance.now() - t0;
		// The constituent table is built once opened, by a click on its
		// summary as a reader would (setting the element's open property
		// would race with the app's renders, which set it from the
		// component's state). A table found closed a while after the last
		// click is clicked again. No bound on this wait (a busy machine
		// may be slow): the rows come once the table has rendered, if the
		// drawing has nodes.
		let clicked = -1e9;
		while (!document.querySelector('table.cons[data-view=main] tr[data-node]') && document.querySelector('#tree-main text.phrase')) {
			const det = document.querySelector('details.constituents');
			if (det && !det.open && performance.now() - clicked > 500) {
				det.querySelector('summary').click();
				clicked = performance.now();
			}
			await pause(2);
		}
		return {
			ms,
			rows: [...document.querySelectorAll('table.cons[data-view=main] tr[data-node]')].map((r) => r.dataset.cons),
			labels: [...document.querySelectorAll('#tree-main text.phrase[data-node]')].map((e) => e.dataset.node + ':' + e.textContent),
			work: document.querySelector('#work').innerText,
		};
	})(%q, %q)`, strings.Join(words, " "), variant)
	if err := chromedp.Run(ctx, chromedp.Evaluate(js, &r, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
		return p.WithAwaitPromise(true)
	})); err != nil {
		t.Fatalf("parsing in the page: %v", err)
	}
	if r.Error != "" {
		t.Fatalf("the page could not parse: %s", r.Error)
	}
	return r
}

// checkTree compares the page's tree with the native one: the table rows,
// and the drawing's labels (one per node, the node's label).
func checkTree(t *testing.T, what string, r parseResult, want []string) {
	t.Helper()
	got := slices.Sorted(slices.Values(r.Rows))
	if !slices.Equal(got, want) {
		t.Errorf("%s: the page drew\n %v\nthe parser gives\n %v", what, got, want)
	}
	labels := map[string]string{}
	for _, row := range r.Rows {
		labels[row] = row[:strings.IndexByte(row, '[')]
	}
	if len(r.Labels) != len(r.Rows) {
		t.Errorf("%s: %d labels drawn for %d constituents: %v", what, len(r.Labels), len(r.Rows), r.Labels)
	}
	var drawn, listed []string
	for _, l := range r.Labels {
		drawn = append(drawn, l[strings.IndexByte(l, ':')+1:])
	}
	for _, row := range r.Rows {
		listed = append(listed, labels[row])
	}
	slices.Sort(drawn)
	slices.Sort(listed)
	if !slices.Equal(drawn, listed) {
		t.Errorf("%s: drawn labels %v, constituents %v", what, drawn, listed)
	}
}

// screenshot saves the page as DISCSPAN_SCREENSHOTS/name.png when set.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("DISCSPAN_SCREENSHOTS")
	if dir == "" {
		return
	}
	var png []byte
	if err := chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// waitFile waits for a file matching pattern and returns its content. It
// has no time limit of its own: shortly before the test binary's deadline
// it fails the test.
func waitFile(t *testing.T, pattern string) []byte {
	t.Helper()
	deadline, limited := t.Deadline()
	for ; !limited || time.Until(deadline) > 5*time.Second; time.Sleep(50 * time.Millisecond) {
		m, _ := filepath.Glob(pattern)
		for _, f := range m {
			if b, err := os.ReadFile(f); err == nil && len(b) > 0 {
				return b
			}
		}
	}
	t.Fatalf("no file %s before the test's deadline", pattern)
	return nil
}

func TestBrowser(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	words, other, bank := devData(t)

	wasm, err := os.ReadFile(filepath.Join(web, "main.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	gz := gzipSize(wasm)
	t.Logf("wasm: %d bytes (%.2f MB), %d gzipped (%.2f MB; budget 4 MB)", len(wasm), float64(len(wasm))/1e6, gz, float64(gz)/1e6)
	if gz > 4e6 {
		t.Errorf("the gzipped wasm is %d bytes, over the 4 MB budget", gz)
	}

	data := weightsOrEnv(t, apptest.Model(t, 1, words, other))
	srv, requests := serveAppCounted(t, web, data)
	want := nativeConstituents(t, data, words, decode.N3)
	t.Logf("sentence (%d words): %s", len(words), strings.Join(words, " "))
	t.Logf("native n3 tree: %v", want)

	ctx := newBrowser(t, chrome)
	downloads := t.TempDir()
	if err := chromedp.Run(ctx, browser.SetDownloadBehavior(browser.SetDownloadBehaviorBehaviorAllow).WithDownloadPath(downloads)); err != nil {
		t.Fatal(err)
	}

	// The default backend: the software adapter is skipped for the CPU.
	start := time.Now()
	ready, backend, gpu := load(t, ctx, srv.URL+"/")
	t.Logf("cold load to ready (page, wasm, weights download, worker start): %.0f ms by the page's clock, %v by the test's; backend %q", ready, time.Since(start).Round(time.Millisecond), backend)
	var choice string
	if err := chromedp.Run(ctx, chromedp.Text(`.modelbar .why`, &choice, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	if gpu || !strings.HasSuffix(backend, "cpu") || !strings.Contains(choice, "software") {
		t.Errorf("default backend %q %s, want the CPU instead of the software adapter", backend, choice)
	}
	checkTree(t, "auto", parseInPage(t, ctx, words, "n3"), want)

	// WebGPU, forced onto the software adapter (SwiftShader).
	start = time.Now()
	ready, backend, gpu = load(t, ctx, srv.URL+"/?backend=webgpu")
	t.Logf("load to ready with WebGPU (weights cached; kernels compiled on SwiftShader): %.0f ms by the page's clock, %v by the test's; backend %q", ready, time.Since(start).Round(time.Millisecond), backend)
	if !gpu {
		t.Errorf("?backend=webgpu: the app scores with %q", backend)
	}
	parseInPage(t, ctx, other, "n3") // warm-up, another sentence
	r := parseInPage(t, ctx, words, "n3")
	checkTree(t, "webgpu", r, want)
	t.Logf("parse latency, WebGPU (%s), 20 words, n3: %.1f ms click to drawing\n%s", backend, r.MS, r.Work)
	screenshot(t, ctx, "discspan-webgpu")

	// The CPU, forced; the weights come from the browser's cache now.
	// The page fetches the wasm binary and Go's wasm_exec.js (through the
	// service worker, which asks the server first); the parsing worker
	// is sent the page's compiled module and has wasm_exec.js in its own
	// script, so that it fetches neither (offline, a file the worker
	// fetched could fail where the page's did not).
	start = time.Now()
	requests.take("/main.wasm", "/wasm_exec.js")
	ready, backend, gpu = load(t, ctx, srv.URL+"/?backend=cpu")
	t.Logf("warm load to ready (weights cached): %.0f ms by the page's clock, %v by the test's", ready, time.Since(start).Round(time.Millisecond))
	if n := requests.take("/main.wasm", "/wasm_exec.js"); n[0] != 1 || n[1] != 1 {
		t.Errorf("a warm load asked the server for main.wasm %d times and wasm_exec.js %d times, want once each (the page's; the worker fetches nothing)", n[0], n[1])
	}
	if gpu || !strings.HasSuffix(backend, "cpu") {
		t.Errorf("?backend=cpu: backend %q", backend)
	}
	parseInPage(t, ctx, other, "n3") // warm-up
	r = parseInPage(t, ctx, words, "n3")
	checkTree(t, "cpu", r, want)
	t.Logf("parse latency, CPU (wasm in a worker), 20 words, n3: %.1f ms click to drawing\n%s", r.MS, r.Work)
	for _, v := range []decode.Variant{decode.N4, decode.N6} {
		r := parseInPage(t, ctx, words, v.String())
		checkTree(t, "cpu "+v.String(), r, nativeConstituents(t, data, words, v))
		t.Logf("parse latency, CPU, 20 words, %s: %.1f ms", v, r.MS)
	}
	// Tables opened or closed by the reader stay so across parses (vugu
	// removes, at each render, the attributes it did not set: the
	// component holds the state).
	if err := chromedp.Run(ctx, chromedp.Click(`details.work > summary`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	parseInPage(t, ctx, other, "n3")
	parseInPage(t, ctx, words, "n3")
	var open struct {
		Work, Constituents bool
	}
	if err := chromedp.Run(ctx, chromedp.Evaluate(`({Work: document.querySelector('details.work').open,
		Constituents: document.querySelector('details.constituents').open})`, &open)); err != nil {
		t.Fatal(err)
	}
	if open.Work || !open.Constituents {
		t.Errorf("after two parses, the work table closed by a click is open %v (want false), the constituent table opened is open %v (want true)", open.Work, open.Constituents)
	}
	if err := chromedp.Run(ctx, chromedp.Click(`details.work > summary`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Run(ctx, chromedp.Click(`#compare`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	parseInPage(t, ctx, words, "n3")
	screenshot(t, ctx, "discspan-compare")
	if err := chromedp.Run(ctx, chromedp.Click(`#compare`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}

	// Hovering over a node shows its blocks, score and rule.
	var details string
	err = chromedp.Run(ctx,
		chromedp.Evaluate(`document.querySelector('#tree-main text.phrase').dispatchEvent(new MouseEvent('mouseover', {bubbles: true}))`, nil),
		chromedp.Poll(`(() => { const d = document.querySelector('#details').innerText; return d.includes('rule') ? d : false; })()`, &details, chromedp.WithPollingTimeout(0)),
	)
	if err != nil {
		t.Errorf("hovering over a node: %v", err)
	}
	t.Logf("details of a hovered node:\n%s", details)

	// The constituent table's rows are set as one piece of HTML, their
	// events handled by the table: the pointer over a row shows its node's
	// details, a click selects it (the row is marked), a second click
	// deselects it.
	var picked struct {
		Label   string `json:"label"`
		Details string `json:"details"`
		After   bool   `json:"after"`
	}
	err = chromedp.Run(ctx, chromedp.Evaluate(`(async () => {
		const pause = (ms) => new Promise((r) => setTimeout(r, ms));
		const rows = [...document.querySelectorAll('table.cons[data-view=main] tr[data-node]')];
		const row = rows[rows.length - 1], node = row.dataset.node, label = row.dataset.label;
		const find = () => document.querySelector('table.cons[data-view=main] tr[data-node="' + node + '"]');
		row.querySelector('td').dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
		while (!document.querySelector('#details').innerText.includes('node\t' + label)) await pause(5);
		const details = document.querySelector('#details').innerText;
		row.querySelector('td').click();
		while (!find().classList.contains('sel')) await pause(5);
		find().querySelector('td').click();
		while (find().classList.contains('sel')) await pause(5);
		return {label, details, after: !!document.querySelector('table.cons tr.sel')};
	})()`, &picked, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if err != nil {
		t.Errorf("clicking a constituent row: %v", err)
	} else if picked.After {
		t.Errorf("a second click on the row of %s left a row selected", picked.Label)
	} else {
		t.Logf("details of a hovered row (%s):\n%s", picked.Label, picked.Details)
	}

	// A sentence too long for a variant gets a message, at once.
	var msg string
	err = chromedp.Run(ctx, chromedp.Evaluate(fmt.Sprintf(`(async () => {
		const ta = document.querySelector('#text');
		ta.value = %q;
		ta.dispatchEvent(new Event('input', {bubbles: true}));
		const sel = document.querySelector('#variant');
		sel.value = 'n6';
		sel.dispatchEvent(new Event('change', {bubbles: true}));
		await new Promise((r) => setTimeout(r, 100));
		document.querySelector('#parse').click();
		for (let i = 0; i < 500; i++) {
			const e = document.querySelector('#parse-error');
			if (e) return e.textContent;
			await new Promise((r) => setTimeout(r, 10));
		}
		return '';
	})()`, strings.Repeat("het boek ", 100)), &msg, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if err != nil || !strings.Contains(msg, "too many for n6") {
		t.Errorf("200 words with n6: message %q, %v", msg, err)
	}
	t.Logf("200 words with n6: %s", msg)

	// Long work runs in the worker: the page's event loop keeps turning
	// while the job runs (counted, not timed: a wall-clock limit fails on
	// a busy machine), and Cancel stops it (the worker is replaced and
	// gets the model again). The job: n6 over the longest example twice
	// (120 words, within n6's 165), which takes far longer than the 300 ms
	// the page watches it before cancelling (a 60-word n6 parse can end
	// within 1.5 s, and then nothing was cancelled).
	long := strings.Fields(app.Examples[len(app.Examples)-1].Text)
	longer := append(slices.Clone(long), long...)
	var probe struct {
		MaxGap  float64 `json:"maxGap"`
		Turns   int     `json:"turns"`
		Elapsed float64 `json:"elapsed"`
		Job     bool    `json:"job"`
		Err     string  `json:"err"`
	}
	err = chromedp.Run(ctx, chromedp.Evaluate(fmt.Sprintf(`(async () => {
		const pause = (ms) => new Promise((r) => setTimeout(r, ms));
		const ta = document.querySelector('#text');
		ta.value = %q;
		ta.dispatchEvent(new Event('input', {bubbles: true}));
		await pause(100);
		document.querySelector('#parse').click();
		const t0 = performance.now();
		while (!document.querySelector('#job') && performance.now() - t0 < 5000) await pause(0);
		if (!document.querySelector('#job')) {
			const e = document.querySelector('#parse-error');
			return {maxGap: 0, turns: 0, elapsed: performance.now() - t0, job: false, err: e ? e.textContent : 'no job shown'};
		}
		const t1 = performance.now();
		let last = t1, maxGap = 0, turns = 0;
		while (document.querySelector('#job') && performance.now() - t1 < 300) {
			await pause(0);
			const now = performance.now();
			maxGap = Math.max(maxGap, now - last);
			last = now;
			turns++;
		}
		const job = !!document.querySelector('#job');
		if (!job) return {maxGap, turns, elapsed: performance.now() - t0, job, err: ''};
		document.querySelector('#cancel').click();
		for (let i = 0; i < 1000; i++) {
			const e = document.querySelector('#parse-error');
			if (!document.querySelector('#job') && e) return {maxGap, turns, elapsed: performance.now() - t0, job, err: e.textContent};
			await pause(10);
		}
		return {maxGap, turns, elapsed: performance.now() - t0, job, err: 'no message'};
	})()`, strings.Join(longer, " ")), &probe, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	switch {
	case err != nil:
		t.Errorf("long parse: %v", err)
	case !probe.Job:
		t.Errorf("the %d-word n6 parse was not running 300 ms after it showed (turns %d; %q): cancellation not tested", len(longer), probe.Turns, probe.Err)
	case probe.Err != "cancelled":
		t.Errorf("cancelled parse: message %q", probe.Err)
	}
	if probe.Job && probe.Turns < 2 {
		t.Errorf("the page's event loop turned %d times while the parse ran, want it to keep turning (the parse blocks the page)", probe.Turns)
	}
	t.Logf("%d words with n6 in the worker: %d turns of the page's event loop in its first 300 ms, the longest pause %.0f ms; cancelled, the message shown %.0f ms after the click", len(longer), probe.Turns, probe.MaxGap, probe.Elapsed)
	r = parseInPage(t, ctx, words, "n3")
	checkTree(t, "after cancelling", r, want)

	// A 60-word sentence, drawn.
	parseInPage(t, ctx, long, "n3")
	screenshot(t, ctx, "discspan-60-words")

	// A treebank file: open, parse every sentence, export a PNG.
	var score, corpus string
	err = chromedp.Run(ctx,
		chromedp.Click(`#tab-treebank`, chromedp.ByQuery),
		chromedp.SetUploadFiles(`#bankfile`, []string{bank}, chromedp.ByQuery),
		chromedp.Poll(`(() => { const s = document.querySelector('#bank-score'); return s && s.textContent.startsWith('F1') ? s.textContent : false; })()`, &score, chromedp.WithPollingTimeout(0)),
		chromedp.WaitVisible(`#tree-gold`, chromedp.ByQuery),
		chromedp.WaitVisible(`#tree-pred`, chromedp.ByQuery),
		chromedp.Click(`#bank-all`, chromedp.ByQuery),
		chromedp.Poll(`(() => { const s = document.querySelector('#bank-corpus'); return s && /^3 of 3/.test(s.textContent) ? s.textContent : false; })()`, &corpus, chromedp.WithPollingTimeout(0)),
		chromedp.Click(`#panel-pred button.export-png`, chromedp.ByQuery),
	)
	if err != nil {
		t.Fatalf("treebank: %v", err)
	}
	t.Logf("treebank: %s; %s", score, corpus)
	if png := waitFile(t, filepath.Join(downloads, "*.png")); !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("the PNG export is not a PNG (%d bytes)", len(png))
	}
	screenshot(t, ctx, "discspan-treebank")

	// Offline: the service worker controls the page; cut the network
	// (emulated, and the server closed) and reload.
	var controlled bool
	if err := chromedp.Run(ctx, chromedp.Poll(`navigator.serviceWorker.controller !== null`, &controlled, chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("no service worker: %v", err)
	}
	srv.Close()
	if err := chromedp.Run(ctx, network.Enable(), network.EmulateNetworkConditions(true, 0, -1, -1)); err != nil {
		t.Logf("network emulation: %v (the server is closed anyway)", err)
	}
	ready, _, _ = load(t, ctx, srv.URL+"/?backend=cpu")
	t.Logf("offline reload to ready: %.0f ms", ready)
	r = parseInPage(t, ctx, words, "n3")
	checkTree(t, "offline", r, want)
	screenshot(t, ctx, "discspan-offline")
}

var _ = io.Discard

// weightsOrEnv returns the weights file named by DISCSPAN_WEIGHTS when it is
// set (a trained model), else data.
func weightsOrEnv(t *testing.T, data []byte) []byte {
	t.Helper()
	path := os.Getenv("DISCSPAN_WEIGHTS")
	if path == "" {
		return data
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("weights: %s (%d bytes)", path, len(data))
	return data
}

// serveApp serves the built app in web and the weights as the model
// "default" on a loopback test server, closed when the test ends.
func serveApp(t *testing.T, web string, weights []byte) *httptest.Server {
	t.Helper()
	srv, _ := serveAppCounted(t, web, weights)
	return srv
}

// requestCounts counts the requests a test server answered, by path.
type requestCounts struct {
	mu sync.Mutex
	n  map[string]int
}

// take returns the counts so far of paths and starts them again from 0.
func (c *requestCounts) take(paths ...string) []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]int, len(paths))
	for i, p := range paths {
		out[i] = c.n[p]
		delete(c.n, p)
	}
	return out
}

// serveAppCounted is serveApp that also counts the requests by path.
func serveAppCounted(t *testing.T, web string, weights []byte) (*httptest.Server, *requestCounts) {
	t.Helper()
	counts := &requestCounts{n: map[string]int{}}
	srv := serveAppWrapped(t, web, weights, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			counts.mu.Lock()
			counts.n[r.URL.Path]++
			counts.mu.Unlock()
			h.ServeHTTP(w, r)
		})
	})
	return srv, counts
}

// serveAppWrapped is serveApp with the app's handler wrapped by wrap.
func serveAppWrapped(t *testing.T, web string, weights []byte, wrap func(http.Handler) http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(wrap(appHandler(t, web, weights)))
	t.Cleanup(srv.Close)
	return srv
}

// appHandler is the server's handler of the app in web, offering weights
// as the model "default".
func appHandler(t *testing.T, web string, weights []byte) http.Handler {
	t.Helper()
	wdir := t.TempDir()
	if err := os.WriteFile(filepath.Join(wdir, "default.safetensors"), weights, 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := server.New(server.Options{App: os.DirFS(web), Weights: []string{wdir}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	return h
}
