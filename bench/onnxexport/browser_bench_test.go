//go:build !js

package onnxexport

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/internal/headless"
)

// Rounds of BenchmarkBrowserORT, sentences scored in a row per sample,
// and the idle pause after each sample (milliseconds): without it, what
// an engine leaves running (ORT's 2-thread pool spins a while after a
// run) slows the next one down (on 2 cores under load, discspan's median
// for 10 words was 5.1-5.7 ms over six runs without it, 3.2-4.2 ms over
// five with it).
const (
	ortRounds = 60
	ortReps   = 5
	ortPause  = 100
)

// BenchmarkBrowserORT compares, in one headless-Chromium page, discspan's
// in-tab scoring (the first member of the shipped model, Go compiled to
// js/wasm with the wasm SIMD kernels: command tab) with ONNX Runtime Web
// (the pinned onnxruntime-web, wasm execution provider, 1 and 2 threads)
// running the same model exported by Export, on the first 10, 20 and 40
// words of Alpino dev sentences. The page (testdata/ortbench) alternates
// the three engines for ortRounds rounds; the benchmark logs the median
// milliseconds per sentence of each and the ratios discspan / ORT, with
// the machine's load average. With $DISCSPAN_ORT_DUMP set, it also writes
// every sample (the page's JSON) to that file; $DISCSPAN_ORT_ENGINES
// (e.g. "discspan,ort1") runs a subset of discspan, ort1 and ort2, and
// $DISCSPAN_ORT_PAUSE sets the pause after each sample in ms. Not a
// timed test: it reports what it measures. It needs Chromium ($CHROMIUM
// or /usr/bin/chromium) and onnxruntime-web (make bench-ort installs it
// and runs this), and is skipped, saying why, without them. Run it with
//
//	go test -run '^$' -bench BrowserORT -benchtime 1x ./bench/onnxexport
func BenchmarkBrowserORT(b *testing.B) {
	chrome, err := headless.Path()
	if err != nil {
		b.Skip(err)
	}
	ort, why := ortDir()
	if ort == "" {
		b.Skip(why)
	}
	dir := b.TempDir()
	if err := ortPage(dir); err != nil {
		b.Fatal(err)
	}
	m, v := shippedModel(b)
	onnx, err := Export(m.Params)
	if err != nil {
		b.Fatal(err)
	}
	var inputs []feedsJSON
	for _, words := range firstWords(b, devSentences(b), 10, 20, 40) {
		inputs = append(inputs, toJSON(words, NewFeeds(m.Config(), v.Encode(words))))
	}
	in, err := json.Marshal(inputs)
	if err != nil {
		b.Fatal(err)
	}
	for name, data := range map[string][]byte{"model.onnx": onnx, "inputs.json": in} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}

	// Cross-origin isolation (COOP and COEP) lets ORT use threads.
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir(dir)))
	mux.Handle("/ort/", http.StripPrefix("/ort/", http.FileServer(http.Dir(filepath.Join(ort, "node_modules", "onnxruntime-web", "dist")))))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cross-Origin-Opener-Policy", "same-origin")
		w.Header().Set("Cross-Origin-Embedder-Policy", "require-corp")
		mux.ServeHTTP(w, r)
	}))
	defer srv.Close()

	browser, err := headless.Start(chrome)
	if err != nil {
		b.Fatal(err)
	}
	defer browser.Close()
	ctx := browser.Ctx
	load0 := loadAvg()
	start := time.Now()
	var exit string
	pause := strconv.Itoa(ortPause)
	if p := os.Getenv("DISCSPAN_ORT_PAUSE"); p != "" {
		pause = p
	}
	url := fmt.Sprintf("%s/index.html?rounds=%d&reps=%d&pause=%s", srv.URL, ortRounds, ortReps, pause)
	if e := os.Getenv("DISCSPAN_ORT_ENGINES"); e != "" {
		url += "&engines=" + e
	}
	if err := chromedp.Run(ctx, chromedp.Navigate(url),
		chromedp.Poll(`window.benchExit === undefined ? false : String(window.benchExit)`, &exit, chromedp.WithPollingTimeout(0))); err != nil {
		b.Fatal(err)
	}
	elapsed := time.Since(start)
	load1 := loadAvg()
	out := browser.Lines()
	if exit != "0" {
		b.Fatalf("the page failed (exit %s):\n%s", exit, strings.Join(out, "\n"))
	}
	var res struct {
		MS                  map[string][]float64 `json:"ms"`
		Kernels             string               `json:"kernels"`
		Isolated            bool                 `json:"isolated"`
		ORT                 string               `json:"ort"`
		Threads             []int                `json:"threads"`
		UserAgent           string               `json:"userAgent"`
		HardwareConcurrency int                  `json:"hardwareConcurrency"`
	}
	found := false
	for _, l := range out {
		if s, ok := strings.CutPrefix(l, "RESULT "); ok {
			if err := json.Unmarshal([]byte(s), &res); err != nil {
				b.Fatalf("the page's result: %v", err)
			}
			found = true
			if d := os.Getenv("DISCSPAN_ORT_DUMP"); d != "" {
				if err := os.WriteFile(d, []byte(s), 0o644); err != nil {
					b.Fatalf("DISCSPAN_ORT_DUMP: %v", err)
				}
			}
		}
	}
	if !found {
		b.Fatalf("no RESULT line in the page's output:\n%s", strings.Join(out, "\n"))
	}
	if !res.Isolated {
		b.Fatalf("the page is not cross-origin isolated: ORT cannot use threads")
	}
	median := func(v []float64) float64 {
		v = slices.Clone(v)
		slices.Sort(v)
		if len(v)%2 == 1 {
			return v[len(v)/2]
		}
		return (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	var t strings.Builder
	fmt.Fprintf(&t, "in-tab scoring of one Tiny model (shipped model, first member), ms per sentence, median (min) of %d alternating rounds of %d sentences in a row each, %s ms pause after each\n", ortRounds, ortReps, pause)
	fmt.Fprintf(&t, "discspan: %s; onnxruntime-web %s (wasm EP, threads %v); %s, %d logical CPUs; load average %s before, %s after (%.0f s)\n",
		res.Kernels, res.ORT, res.Threads, res.UserAgent, res.HardwareConcurrency, load0, load1, elapsed.Seconds())
	fmt.Fprintf(&t, "| words | discspan (wasm SIMD) | ORT Web 1 thread | ORT Web 2 threads | discspan / ORT 1 thread | discspan / ORT 2 threads |\n|---|---|---|---|---|---|\n")
	for _, n := range []int{10, 20, 40} {
		var med, lo [3]float64
		cells := []string{strconv.Itoa(n)}
		for e, name := range []string{"discspan", "ort1", "ort2"} {
			v := res.MS[fmt.Sprintf("%s/%d", name, n)]
			if len(v) == 0 {
				cells = append(cells, "-") // left out by $DISCSPAN_ORT_ENGINES
				continue
			}
			if len(v) != ortRounds {
				b.Fatalf("%s, %d words: %d samples, want %d", name, n, len(v), ortRounds)
			}
			med[e], lo[e] = median(v), slices.Min(v)
			cells = append(cells, fmt.Sprintf("%.2f ms (%.2f)", med[e], lo[e]))
			b.ReportMetric(med[e], fmt.Sprintf("ms-%s-%dw", name, n))
		}
		for e := 1; e < 3; e++ {
			if med[0] > 0 && med[e] > 0 {
				cells = append(cells, fmt.Sprintf("%.2f", med[0]/med[e]))
			} else {
				cells = append(cells, "-")
			}
		}
		fmt.Fprintf(&t, "| %s |\n", strings.Join(cells, " | "))
	}
	b.Log("\n" + t.String())
}

// ortPage writes the benchmark's page into dir: testdata/ortbench's
// files, Go's wasm_exec.js and the js/wasm build of command tab.
func ortPage(dir string) error {
	for _, name := range []string{"index.html", "ort.html"} {
		data, err := os.ReadFile(filepath.Join("testdata", "ortbench", name))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	loader, err := headless.WasmExecPath()
	if err != nil {
		return err
	}
	execJS, err := os.ReadFile(loader)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), execJS, 0o644); err != nil {
		return err
	}
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "tab.wasm"), "./tab")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building command tab for js/wasm: %v\n%s", err, out)
	}
	return nil
}

// loadAvg returns the 1, 5 and 15-minute load averages (Linux), or "n/a".
func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "n/a"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "n/a"
	}
	return strings.Join(f[:3], " ")
}
