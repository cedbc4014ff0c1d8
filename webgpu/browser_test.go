package webgpu

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/discspan/discspan/internal/headless"
)

// chromium is Debian's Chromium (apt-get install -y chromium).
const chromium = "/usr/bin/chromium"

const browserPage = `<!doctype html>
<html><head><meta charset="utf-8"><script src="wasm_exec.js"></script></head>
<body><script>
const go = new Go();
WebAssembly.instantiateStreaming(fetch("check.wasm"), go.importObject).then((result) => {
  globalThis.wasm = result; // the wgpu js backend's WriteBuffer reads the memory from here
  go.run(result.instance);
}).catch((e) => fetch("/result", {method: "POST", body: "FAIL loading: " + e + "\nDONE\n"}));
</script></body></html>`

// browserRun is the one run of internal/browsercheck in headless Chromium,
// shared by TestEquivalenceBrowser and TestSelfCheckBrowser (a test
// fixture: the page takes about 30 s).
var browserRun struct {
	once         sync.Once
	report, skip string
	err          error
	log          []string
}

// browserReport returns the report of internal/browsercheck, built for
// GOOS=js and served to headless Chromium with WebGPU enabled (SwiftShader
// without a GPU). It skips without Chromium and with -short.
func browserReport(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the browser check takes about 30 s")
	}
	browserRun.once.Do(func() {
		browserRun.report, browserRun.skip, browserRun.err = runBrowserCheck(func(f string, a ...any) {
			browserRun.log = append(browserRun.log, fmt.Sprintf(f, a...))
		})
	})
	for _, l := range browserRun.log {
		t.Log(l)
	}
	if browserRun.skip != "" {
		t.Skip(browserRun.skip)
	}
	if browserRun.err != nil {
		t.Fatal(browserRun.err)
	}
	return browserRun.report
}

// runBrowserCheck builds and runs the page and returns its report, or why
// it cannot run here (skip), or an error.
func runBrowserCheck(logf func(string, ...any)) (report, skip string, err error) {
	if _, err := os.Stat(chromium); err != nil {
		return "", fmt.Sprintf("no %s (apt-get install -y chromium): %v", chromium, err), nil
	}
	dir, err := os.MkdirTemp("", "discspan-browsercheck-")
	if err != nil {
		return "", "", err
	}
	defer os.RemoveAll(dir)
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "check.wasm"), "./internal/browsercheck")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("building the wasm check: %v\n%s", err, out)
	}
	loaderPath, err := headless.WasmExecPath()
	if err != nil {
		return "", "", err
	}
	loader, err := os.ReadFile(loaderPath)
	if err != nil {
		return "", "", err
	}
	files := map[string][]byte{"/wasm_exec.js": loader, "/index.html": []byte(browserPage)}
	reports := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/result":
			b, _ := io.ReadAll(r.Body)
			select {
			case reports <- string(b):
			default:
			}
		case r.URL.Path == "/check.wasm":
			w.Header().Set("Content-Type", "application/wasm")
			http.ServeFile(w, r, filepath.Join(dir, "check.wasm"))
		case files[r.URL.Path] != nil:
			http.ServeContent(w, r, r.URL.Path, time.Time{}, bytes.NewReader(files[r.URL.Path]))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	// Chromium's helper processes may still write to the profile for a
	// moment after the browser is killed: removal is retried, then given
	// up with a log.
	profile, err := os.MkdirTemp("", "discspan-webgpu-chromium-")
	if err != nil {
		return "", "", err
	}
	browser := exec.Command(chromium, "--headless", "--no-sandbox", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+profile, "--enable-unsafe-webgpu",
		"--remote-debugging-port=0", srv.URL+"/index.html")
	if err := browser.Start(); err != nil {
		return "", "", err
	}
	defer func() {
		browser.Process.Kill()
		browser.Wait()
		for range 50 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		logf("could not remove %s", profile)
	}()
	// Not a timing assertion: a page that never reports (a crash, a hang)
	// must end the run.
	select {
	case report = <-reports:
	case <-time.After(8 * time.Minute):
		return "", "", fmt.Errorf("no report from the browser after 8 minutes")
	}
	logf("browser report:\n%s", report)
	if !strings.HasSuffix(strings.TrimSpace(report), "DONE") {
		return report, "", fmt.Errorf("the browser check did not finish:\n%s", report)
	}
	return report, "", nil
}

// reportLines returns the report's lines that do (selfCheck) or do not
// start with "ok selfcheck"/"FAIL selfcheck", DONE left out.
func reportLines(report string, selfCheck bool) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(report), "\n") {
		if l == "DONE" || l == "" {
			continue
		}
		_, rest, _ := strings.Cut(l, " ")
		if strings.HasPrefix(rest, "selfcheck") == selfCheck {
			out = append(out, l)
		}
	}
	return out
}

// TestEquivalenceBrowser checks the page's equivalence lines: the js
// backend's scores against the CPU reference (in the page) for float32 and
// float16 weights, an ensemble of two on one device against the mean of
// the CPU references (also with its Linear products split over their inner
// dimension and its LSTM loops' unit sums split over invocations, as on a
// hardware adapter), and scorer.Select keeping it.
func TestEquivalenceBrowser(t *testing.T) {
	lines := reportLines(browserReport(t), false)
	if len(lines) < 8 {
		t.Errorf("%d equivalence lines, want at least 8: %q", len(lines), lines)
	}
	ensemble, split, units := false, 0, 0
	for _, l := range lines {
		if !strings.HasPrefix(l, "ok ") {
			t.Errorf("%s", l)
		}
		ensemble = ensemble || strings.Contains(l, "ensemble on one device")
		if strings.Contains(l, "products split") {
			split++
		}
		if strings.Contains(l, "unit sums split") {
			units++
			if !strings.Contains(l, "workgroups of 1024") {
				t.Logf("the browser's adapter allows smaller workgroups: its loops ran unsplit: %s", l)
			}
		}
	}
	if !ensemble || split != 2 || units != 2 {
		t.Errorf("lines for the ensemble on one device: %v, for products split: %d, for unit sums split: %d, want 2 each: %q", ensemble, split, units, lines)
	}
}

// TestSelfCheckBrowser checks the page's self-check lines: in the browser
// too, webgpu.New accepts the correct kernels and refuses a deliberately
// broken lstm.wgsl and lstm_loop.wgsl with ErrSelfCheck.
func TestSelfCheckBrowser(t *testing.T) {
	lines := reportLines(browserReport(t), true)
	if len(lines) != 3 {
		t.Errorf("%d self-check lines, want 3: %q", len(lines), lines)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "ok ") {
			t.Errorf("%s", l)
		}
	}
}
