package webgpu

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
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

// TestEquivalenceBrowser builds internal/browsercheck for GOOS=js, serves it
// to headless Chromium with WebGPU enabled (SwiftShader without a GPU) and
// checks its report: the js backend's scores against the CPU reference (in
// the page) for float32 and float16 weights, and scorer.Select choosing it.
// It skips without Chromium and with -short.
func TestEquivalenceBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser check takes about 30 s")
	}
	if _, err := os.Stat(chromium); err != nil {
		t.Skipf("no %s (apt-get install -y chromium): %v", chromium, err)
	}
	dir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "check.wasm"), "./internal/browsercheck")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the wasm check: %v\n%s", err, out)
	}
	loader, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"/wasm_exec.js": loader, "/index.html": []byte(browserPage)}
	report := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/result":
			b, _ := io.ReadAll(r.Body)
			select {
			case report <- string(b):
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
	// Not under t.TempDir: Chromium's helper processes may still write to
	// the profile for a moment after the browser is killed, which would fail
	// the test at cleanup. Removal is retried, then given up with a log.
	profile, err := os.MkdirTemp("", "discspan-webgpu-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	browser := exec.Command(chromium, "--headless", "--no-sandbox", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+profile, "--enable-unsafe-webgpu",
		"--remote-debugging-port=0", srv.URL+"/index.html")
	if err := browser.Start(); err != nil {
		t.Fatal(err)
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
		t.Logf("could not remove %s", profile)
	}()
	var got string
	select {
	case got = <-report:
	case <-time.After(4 * time.Minute):
		t.Fatal("no report from the browser after 4 minutes")
	}
	t.Logf("browser report:\n%s", got)
	if !strings.HasSuffix(strings.TrimSpace(got), "DONE") || strings.Contains(got, "FAIL") {
		t.Errorf("the browser check failed")
	}
}
