//go:build !js

package network

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/internal/headless"
)

// BenchmarkBrowserForwardOne prints the scoring speed in a browser tab:
// it compiles this package's tests to js/wasm, runs their
// BenchmarkForwardOne_Tiny{10,20,40} (wasm SIMD kernels, relaxed SIMD
// where Chromium has it) and the Portable variants (the Go code) in
// headless Chromium, in rounds page load after page load, and logs the
// median of each with the ratio. Not a timed test: it reports what it
// measures. Chromium comes from $CHROMIUM or /usr/bin/chromium (make
// chromium installs Debian's); without it the benchmark is skipped, saying
// so. Run it with
//
//	go test -run '^$' -bench BrowserForwardOne -benchtime 1x ./network
func BenchmarkBrowserForwardOne(b *testing.B) {
	chrome, err := headless.Path()
	if err != nil {
		b.Skip(err)
	}
	dir := b.TempDir()
	loader, err := headless.WasmExecPath()
	if err != nil {
		b.Fatal(err)
	}
	build := exec.Command("go", "test", "-c", "-o", filepath.Join(dir, "network.wasm"), ".")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building the js/wasm tests: %v\n%s", err, out)
	}
	execJS, err := os.ReadFile(loader)
	if err != nil {
		b.Fatal(err)
	}
	const page = `<!doctype html><meta charset="utf-8"><script src="wasm_exec.js"></script><script>
(async () => {
  const go = new Go();
  go.argv = ["network.test", "-test.v", "-test.run", "^TestWasmKernelsLoad$", "-test.bench", "BenchmarkForwardOne_Tiny(10|20|40)(Portable)?$", "-test.benchtime", "60x"];
  go.exit = (code) => { window.benchExit = code; };
  const r = await WebAssembly.instantiateStreaming(fetch("network.wasm"), go.importObject);
  await go.run(r.instance);
})().catch((e) => { console.log("error: " + e); window.benchExit = -1; });
</script>`
	for name, data := range map[string][]byte{"index.html": []byte(page), "wasm_exec.js": execJS} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()

	browser, err := headless.Start(chrome)
	if err != nil {
		b.Fatal(err)
	}
	defer browser.Close()
	ctx := browser.Ctx
	re := regexp.MustCompile(`^(BenchmarkForwardOne_Tiny\d+(Portable)?)\s+\d+\s+(\d+) ns/op`)
	ns := map[string][]float64{}
	kernels := "(not reported)"
	const rounds = 3
	for round := range rounds {
		browser.ClearLines()
		var exit string
		if err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/index.html"),
			chromedp.Poll(`window.benchExit === undefined ? false : String(window.benchExit)`, &exit)); err != nil {
			b.Fatal(err)
		}
		out := browser.Lines()
		if exit != "0" {
			b.Fatalf("round %d: exit code %s:\n%s", round, exit, strings.Join(out, "\n"))
		}
		for _, l := range out {
			for _, l := range strings.Split(l, "\n") {
				if i := strings.Index(l, "wasm simd128"); i >= 0 || strings.Contains(l, "portable Go (") {
					kernels = strings.TrimSpace(l[max(i, 0):])
				}
				if m := re.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
					v, _ := strconv.ParseFloat(m[3], 64)
					ns[m[1]] = append(ns[m[1]], v)
				}
			}
		}
	}
	median := func(v []float64) float64 {
		if len(v) == 0 {
			return 0
		}
		v = slices.Clone(v)
		slices.Sort(v)
		return v[len(v)/2]
	}
	var table strings.Builder
	fmt.Fprintf(&table, "in-tab scoring, one Tiny model (random weights), median (min) of %d page loads; kernels: %s\n", rounds, kernels)
	fmt.Fprintf(&table, "| words | wasm SIMD kernels | portable Go | speed-up |\n|---|---|---|---|\n")
	for _, n := range []int{10, 20, 40} {
		kv, pv := ns[fmt.Sprintf("BenchmarkForwardOne_Tiny%d", n)], ns[fmt.Sprintf("BenchmarkForwardOne_Tiny%dPortable", n)]
		if len(kv) == 0 || len(pv) == 0 {
			b.Fatalf("%d words: no result in the page's output", n)
		}
		k, p := median(kv)/1e6, median(pv)/1e6
		fmt.Fprintf(&table, "| %d | %.2f ms (%.2f) | %.2f ms (%.2f) | %.1fx |\n", n, k, slices.Min(kv)/1e6, p, slices.Min(pv)/1e6, p/k)
		b.ReportMetric(k, fmt.Sprintf("ms/sentence-%dw", n))
	}
	b.Log("\n" + table.String())
}
