//go:build linux

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/discspan/discspan/server"
	"github.com/discspan/discspan/server/api"
)

// wranglerVersion is the wrangler the test installs (npm), pinned: the
// newest releases want Node 22, the build machines have Node 20.
const wranglerVersion = "4.80.0"

// maxGzipped is the free plan's limit on a worker script, gzipped.
const maxGzipped = 3_000_000

// shipped is the weights file the worker serves in the test.
var shipped = filepath.Join("..", "..", "weights", "default.safetensors")

// TestWorker builds the worker as make worker does (workers-assets-gen,
// GOOS=js GOARCH=wasm go build, publish), checks the size of its script
// (gzipped here, and as wrangler deploy --dry-run counts it), runs it under wrangler dev --local and checks its answers: the model
// list, whole weight files, ETag revalidation, single and multiple ranges,
// HEAD and unsatisfiable ranges. It needs node and npm (it installs
// wrangler with npm into the user cache directory, or $DISCSPAN_WRANGLER_DIR)
// and skips, saying so, without them or with -short.
func TestWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the worker test builds the wasm and runs wrangler")
	}
	for _, tool := range []string{"go", "node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping the worker test: %s is not installed (%v)", tool, err)
		}
	}
	data, err := os.ReadFile(shipped)
	if err != nil {
		t.Fatalf("the shipped weights: %v", err)
	}

	dir := t.TempDir()
	start := time.Now()
	build := buildWorker(t, dir)
	t.Logf("built the worker in %.1f s", time.Since(start).Seconds())
	checkScript(t, build, data)

	ms, err := server.Publish(filepath.Join(build, "assets"), []string{shipped}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 {
		t.Fatalf("published %d models, want 1", len(ms))
	}
	m := ms[0]
	// A model the list names whose file is not there (deleted, or not
	// yet uploaded): its weights are an error, not a 200 with no body.
	gone := api.Model{Name: "gone", Bytes: 1000, SHA256: strings.Repeat("cd", 32)}
	gone.URL = api.WeightsURL(gone.SHA256)
	manifest := filepath.Join(build, "assets", server.ManifestName)
	list, err := json.Marshal([]api.Model{m, gone})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(manifest, list, 0o644); err != nil {
		t.Fatal(err)
	}
	config, err := os.ReadFile("wrangler.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wrangler.jsonc"), config, 0o644); err != nil {
		t.Fatal(err)
	}

	start = time.Now()
	wrangler := installWrangler(t)
	t.Logf("wrangler %s ready in %.1f s (%s)", wranglerVersion, time.Since(start).Seconds(), wrangler)
	checkUploadSize(t, wrangler, dir)
	start = time.Now()
	base, logs := startWrangler(t, wrangler, dir)
	t.Logf("wrangler dev answered after %.1f s at %s", time.Since(start).Seconds(), base)
	t.Cleanup(func() {
		if t.Failed() {
			b, _ := os.ReadFile(logs)
			t.Logf("wrangler's output:\n%s", tail(b, 4000))
		}
	})

	checkAnswers(t, base, m, gone, data)

	// workerd reports failed responses (a HEAD response that announces a
	// body it never sends, for one) only in its log.
	b, err := os.ReadFile(logs)
	if err != nil {
		t.Fatal(err)
	}
	if i := bytes.Index(b, []byte("Uncaught")); i >= 0 {
		t.Errorf("workerd logged an error: %s", tail(b[i:], 400))
	}
}

// buildWorker builds the worker's script into dir/build and returns that
// directory.
func buildWorker(t *testing.T, dir string) string {
	t.Helper()
	build := filepath.Join(dir, "build")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	run := func(env []string, args ...string) {
		t.Helper()
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		cmd.Env = append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run(nil, "go", "run", "github.com/syumai/workers/cmd/workers-assets-gen", "-mode=go", "-o", build)
	run([]string{"GOOS=js", "GOARCH=wasm"}, "go", "build", "-trimpath", "-ldflags=-s", "-o", filepath.Join(build, "app.wasm"), ".")
	return build
}

// checkScript measures the worker's script (what wrangler uploads: the wasm
// and the JavaScript modules), gzipped, against the free plan's limit, and
// checks that the weights are not in it.
func checkScript(t *testing.T, build string, weights []byte) {
	t.Helper()
	var raw, gz int64
	for _, name := range []string{"app.wasm", "worker.mjs", "runtime.mjs", "wasm_exec.js"} {
		b, err := os.ReadFile(filepath.Join(build, name))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		if _, err := zw.Write(b); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		raw += int64(len(b))
		gz += int64(buf.Len())
	}
	t.Logf("worker script: %d bytes, %d gzipped (limit %d)", raw, gz, maxGzipped)
	if gz >= maxGzipped {
		t.Errorf("worker script is %d bytes gzipped, want under %d", gz, maxGzipped)
	}
	wasm, err := os.ReadFile(filepath.Join(build, "app.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	for _, off := range []int{len(weights) / 4, len(weights) / 2, len(weights) - 100} {
		if bytes.Contains(wasm, weights[off:off+64]) {
			t.Errorf("the wasm holds the weights' bytes at offset %d: package weights' embedding is linked in", off)
		}
	}
}

// checkUploadSize asks wrangler (deploy --dry-run, which needs no account)
// for the size of the upload it would make, gzipped, and checks it against
// the free plan's limit.
func checkUploadSize(t *testing.T, wrangler, dir string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, wrangler, "deploy", "--dry-run", "--outdir", filepath.Join(dir, "dry-run"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "WRANGLER_SEND_METRICS=false", "NO_COLOR=1", "CI=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("wrangler deploy --dry-run: %v\n%s", err, tail(out, 2000))
	}
	m := regexp.MustCompile(`Total Upload: ([0-9.]+) KiB / gzip: ([0-9.]+) KiB`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("wrangler deploy --dry-run did not tell the upload size:\n%s", tail(out, 2000))
	}
	total, _ := strconv.ParseFloat(string(m[1]), 64)
	gz, _ := strconv.ParseFloat(string(m[2]), 64)
	t.Logf("wrangler deploy --dry-run: upload %.0f bytes, %.0f gzipped (limit %d)", total*1024, gz*1024, maxGzipped)
	if gz*1024 >= maxGzipped {
		t.Errorf("wrangler would upload %.0f bytes gzipped, want under %d", gz*1024, maxGzipped)
	}
}

// installWrangler returns the path of the pinned wrangler, installing it
// with npm (into the user cache directory, or $DISCSPAN_WRANGLER_DIR) when
// it is not there yet. The install goes to a temporary directory renamed
// into place, so that an interrupted one leaves nothing half done.
func installWrangler(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("DISCSPAN_WRANGLER_DIR")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			t.Skipf("skipping the worker test: no cache directory for wrangler (%v); set DISCSPAN_WRANGLER_DIR", err)
		}
		dir = filepath.Join(cache, "discspan", "wrangler-"+wranglerVersion)
	}
	bin := filepath.Join(dir, "node_modules", ".bin", "wrangler")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".wrangler-install-*")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, "package.json"), []byte(`{"private": true}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--loglevel=error", "wrangler@"+wranglerVersion)
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("skipping the worker test: npm install wrangler@%s failed (no registry?): %v\n%s", wranglerVersion, err, tail(out, 2000))
	}
	if err := os.Rename(tmp, dir); err != nil && !errors.Is(err, os.ErrExist) {
		if _, serr := os.Stat(bin); serr != nil { // not installed by another test meanwhile
			t.Fatal(err)
		}
	}
	return bin
}

// startWrangler runs wrangler dev --local on a free loopback port in dir,
// in its own process group, which is killed when the test ends, and waits
// (a bounded time) until the worker answers. It returns the base URL and
// the file collecting wrangler's output.
func startWrangler(t *testing.T, wrangler, dir string) (base, logs string) {
	t.Helper()
	port := freePort(t)
	logs = filepath.Join(dir, "wrangler.log")
	out, err := os.Create(logs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	cmd := exec.Command(wrangler, "dev", "--local", "--ip", "127.0.0.1", "--port", strconv.Itoa(port))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "WRANGLER_SEND_METRICS=false", "NO_COLOR=1", "CI=1")
	cmd.Stdout, cmd.Stderr = out, out
	// Its own process group (wrangler starts workerd and esbuild), and
	// SIGKILL to wrangler should the test binary die.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { stopGroup(t, cmd.Process.Pid, exited) })

	base = "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	deadline := time.Now().Add(90 * time.Second)
	client := &http.Client{Timeout: 5 * time.Second}
	for {
		resp, err := client.Get(base + api.ModelsPath)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base, logs
			}
		}
		select {
		case err := <-exited:
			exited <- err // for stopGroup
			b, _ := os.ReadFile(logs)
			t.Fatalf("wrangler dev exited before answering (%v):\n%s", err, tail(b, 4000))
		case <-time.After(250 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(logs)
			t.Fatalf("wrangler dev did not answer %s within 90 s (last: %v):\n%s", api.ModelsPath, err, tail(b, 4000))
		}
	}
}

// stopGroup ends the process group pgid: SIGTERM, then SIGKILL after five
// seconds, and waits for its leader.
func stopGroup(t *testing.T, pgid int, exited chan error) {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		t.Logf("wrangler ignored SIGTERM: killing its process group")
	}
	// workerd may outlive wrangler: kill what is left of the group.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// freePort returns a TCP port free on the loopback interface.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// checkAnswers checks the worker's answers for the model m, whose file
// holds data.
func checkAnswers(t *testing.T, base string, m, gone api.Model, data []byte) {
	t.Helper()
	size := int64(len(data))
	etag := `"` + m.SHA256 + `"`
	url := base + m.URL

	resp, body := request(t, http.MethodGet, base+api.ModelsPath)
	var got []api.Model
	if err := json.Unmarshal(body, &got); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %q (%v)", api.ModelsPath, resp.StatusCode, body, err)
	}
	if len(got) != 2 || got[0] != m || got[1] != gone {
		t.Errorf("%s lists %+v, want [%+v %+v]", api.ModelsPath, got, m, gone)
	}
	// HEAD gives the length a GET's body has, also where the handler
	// leaves it to the server.
	if head, _ := request(t, http.MethodHead, base+api.ModelsPath); head.ContentLength != int64(len(body)) {
		t.Errorf("HEAD %s: Content-Length %d, want %d", api.ModelsPath, head.ContentLength, len(body))
	}
	for _, method := range []string{http.MethodGet, http.MethodHead} {
		if resp, _ := request(t, method, base+gone.URL); resp.StatusCode != http.StatusNotFound || resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s of weights whose file is gone: %d, Cache-Control %q; want 404, no-store", method, resp.StatusCode, resp.Header.Get("Cache-Control"))
		}
	}
	// A client that reads slowly gets the whole file through the
	// worker's own stream, which writes as fast as the client takes the
	// bytes (the memory this saves is measured, not tested: docs/server.md).
	t.Run("slow client", func(t *testing.T) {
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		tr := &http.Transport{DisableCompression: true}
		defer tr.CloseIdleConnections()
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var got bytes.Buffer
		for {
			n, err := io.CopyN(&got, resp.Body, 256<<10)
			if err != nil || n == 0 {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if !bytes.Equal(got.Bytes(), data) {
			t.Errorf("a slow client got %d bytes of %d (equal: %v)", got.Len(), len(data), bytes.Equal(got.Bytes(), data))
		}
	})
	// The security headers of discspan serve, through workerd.
	for name, want := range map[string]string{
		"Content-Security-Policy":      server.ContentSecurityPolicy,
		"X-Content-Type-Options":       "nosniff",
		"X-Frame-Options":              "DENY",
		"Cross-Origin-Opener-Policy":   "same-origin",
		"Cross-Origin-Embedder-Policy": "require-corp",
	} {
		if got := resp.Header.Get(name); got != want {
			t.Errorf("%s: %s %q, want %q", api.ModelsPath, name, got, want)
		}
	}

	for _, tc := range []struct {
		name, method string
		headers      []string
		status       int
		body         []byte // nil: none
		contentRange string
	}{
		{"whole", http.MethodGet, nil, http.StatusOK, data, ""},
		{"revalidation", http.MethodGet, []string{"If-None-Match", etag}, http.StatusNotModified, nil, ""},
		{"revalidation list", http.MethodGet, []string{"If-None-Match", `"other", ` + etag}, http.StatusNotModified, nil, ""},
		{"stale etag", http.MethodGet, []string{"If-None-Match", `"other"`}, http.StatusOK, data, ""},
		{"range", http.MethodGet, []string{"Range", "bytes=1000-5999"}, http.StatusPartialContent, data[1000:6000],
			fmt.Sprintf("bytes 1000-5999/%d", size)},
		{"end range", http.MethodGet, []string{"Range", fmt.Sprintf("bytes=%d-", size-300)}, http.StatusPartialContent, data[size-300:],
			fmt.Sprintf("bytes %d-%d/%d", size-300, size-1, size)},
		{"suffix range", http.MethodGet, []string{"Range", "bytes=-17"}, http.StatusPartialContent, data[size-17:],
			fmt.Sprintf("bytes %d-%d/%d", size-17, size-1, size)},
		{"head", http.MethodHead, nil, http.StatusOK, nil, ""},
		// Ranges going back through the file would each read it again
		// from its start: the whole file is sent once instead.
		{"descending ranges", http.MethodGet, []string{"Range", fmt.Sprintf("bytes=%d-%d,%d-%d,0-0", size-1, size-1, size-2, size-2)}, http.StatusOK, data, ""},
		{"bad range", http.MethodGet, []string{"Range", fmt.Sprintf("bytes=%d-%d", size+10, size+20)}, http.StatusRequestedRangeNotSatisfiable, nil,
			fmt.Sprintf("bytes */%d", size)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := request(t, tc.method, url, tc.headers...)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d (%q)", resp.StatusCode, tc.status, tail(body, 200))
			}
			if got := resp.Header.Get("ETag"); tc.status != http.StatusRequestedRangeNotSatisfiable && got != etag {
				t.Errorf("ETag %q, want %q", got, etag)
			}
			if got := resp.Header.Get("Content-Range"); got != tc.contentRange {
				t.Errorf("Content-Range %q, want %q", got, tc.contentRange)
			}
			switch {
			case tc.status == http.StatusRequestedRangeNotSatisfiable:
			case tc.body == nil && len(body) != 0:
				t.Errorf("got a %d-byte body, want none", len(body))
			case tc.body != nil && !bytes.Equal(body, tc.body):
				t.Errorf("got %d bytes, want %d (equal: %v)", len(body), len(tc.body), bytes.Equal(body, tc.body))
			}
			if tc.method == http.MethodHead && resp.ContentLength != size {
				t.Errorf("HEAD: Content-Length %d, want %d", resp.ContentLength, size)
			}
			if tc.status == http.StatusOK && !strings.Contains(resp.Header.Get("Cache-Control"), "immutable") {
				t.Errorf("Cache-Control %q, want immutable", resp.Header.Get("Cache-Control"))
			}
		})
	}

	// Two ranges: a comma inside a header (see rejoinHeaders).
	t.Run("multiple ranges", func(t *testing.T) {
		resp, body := request(t, http.MethodGet, url, "Range", "bytes=0-9,2000-2099")
		mt, params, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		if resp.StatusCode != http.StatusPartialContent || err != nil || mt != "multipart/byteranges" {
			t.Fatalf("status %d, Content-Type %q, want 206 multipart/byteranges", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		for _, want := range [][2]int{{0, 9}, {2000, 2099}} {
			p, err := mr.NextPart()
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(p)
			if err != nil {
				t.Fatal(err)
			}
			if cr := fmt.Sprintf("bytes %d-%d/%d", want[0], want[1], size); p.Header.Get("Content-Range") != cr || !bytes.Equal(b, data[want[0]:want[1]+1]) {
				t.Errorf("part %q (%d bytes), want %q", p.Header.Get("Content-Range"), len(b), cr)
			}
		}
	})

	if resp, _ := request(t, http.MethodGet, base+api.WeightsURL(strings.Repeat("0", 64))); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown weights: status %d, want 404", resp.StatusCode)
	}
}

// request sends a request with headers (pairs of name and value), leaving
// Accept-Encoding alone, and returns the response and its body.
func request(t *testing.T, method, url string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	tr := &http.Transport{DisableCompression: true}
	defer tr.CloseIdleConnections()
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading: %v", method, url, err)
	}
	return resp, b
}

// tail returns at most the last n bytes of b, as a string.
func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
