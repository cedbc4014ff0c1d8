package server

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/server/api"
	"github.com/discspan/discspan/weights"
)

// writeModel writes a small random model with the given dev F1 to path and
// returns the file's SHA-256.
func writeModel(t *testing.T, path string, devF1 float64, seed uint64) string {
	t.Helper()
	v := network.NewVocab([][]string{{"de", "kat", "slaapt"}}, 1)
	v.AddLabel("NP")
	v.AddTag("N")
	c := network.Tiny().WithVocab(v)
	c.WordDim, c.CharDim, c.CharHidden, c.LSTM1Hidden, c.LSTM2Hidden, c.LabelMLP, c.SpanMLP = 4, 4, 4, 4, 4, 4, 4
	m, err := network.New(c, seed)
	if err != nil {
		t.Fatal(err)
	}
	if err := weights.WriteFile(path, m.Params, weights.Meta{Vocab: v, DevF1: devF1}, weights.Float16); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func newServer(t *testing.T, o Options) *httptest.Server {
	t.Helper()
	if o.Logf == nil {
		o.Logf = t.Logf
	}
	h, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// get sends a GET with the given headers (pairs of name, value).
func get(t *testing.T, url string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	// A Transport that leaves Accept-Encoding alone.
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

func TestModels(t *testing.T) {
	dir := t.TempDir()
	shaB := writeModel(t, filepath.Join(dir, "b.safetensors"), 80.5, 1)
	shaD := writeModel(t, filepath.Join(dir, "default.safetensors"), 87.25, 2)
	if err := os.WriteFile(filepath.Join(dir, "broken.safetensors"), []byte("nonsense"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, Options{Weights: []string{dir}})

	resp, body := get(t, srv.URL+api.ModelsPath)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d, type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var got []api.Model
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	fiB, _ := os.Stat(filepath.Join(dir, "b.safetensors"))
	fiD, _ := os.Stat(filepath.Join(dir, "default.safetensors"))
	want := []api.Model{
		{Name: "default", URL: "/weights/" + shaD + ".safetensors", Bytes: fiD.Size(), SHA256: shaD, DevF1: 87.25},
		{Name: "b", URL: "/weights/" + shaB + ".safetensors", Bytes: fiB.Size(), SHA256: shaB, DevF1: 80.5},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d models %+v, want %+v", len(got), got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("model %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	// The raw JSON uses the documented keys.
	for _, k := range []string{`"name"`, `"url"`, `"bytes"`, `"sha256"`, `"dev_f1"`} {
		if !strings.Contains(string(body), k) {
			t.Errorf("JSON %s lacks %s", body, k)
		}
	}

	// A model written later shows up; a replaced one gets its new hash.
	shaC := writeModel(t, filepath.Join(dir, "c.safetensors"), 1, 3)
	shaD2 := writeModel(t, filepath.Join(dir, "default.safetensors"), 88, 4)
	_, body = get(t, srv.URL+api.ModelsPath)
	for _, s := range []string{shaC, shaD2} {
		if !strings.Contains(string(body), s) {
			t.Errorf("model list %s lacks %s", body, s)
		}
	}
	if strings.Contains(string(body), shaD) {
		t.Errorf("model list %s still has the replaced file's hash", body)
	}
	if resp, _ := get(t, srv.URL+api.WeightsURL(shaD)); resp.StatusCode != 404 {
		t.Errorf("replaced weights: status %d, want 404", resp.StatusCode)
	}
}

func TestModelsMissingDefault(t *testing.T) {
	var logged []string
	srv := newServer(t, Options{
		Weights: []string{filepath.Join(t.TempDir(), "default.safetensors")},
		Logf:    func(f string, a ...any) { logged = append(logged, f) },
	})
	resp, body := get(t, srv.URL+api.ModelsPath)
	if resp.StatusCode != 200 || strings.TrimSpace(string(body)) != "[]" {
		t.Errorf("got %d %q, want 200 []", resp.StatusCode, body)
	}
	if len(logged) != 1 {
		t.Errorf("logged %d messages, want 1 (once)", len(logged))
	}
}

func TestWeights(t *testing.T) {
	path := filepath.Join(t.TempDir(), "default.safetensors")
	sum := writeModel(t, path, 0, 1)
	data, _ := os.ReadFile(path)
	srv := newServer(t, Options{Weights: []string{path}})
	url := srv.URL + api.WeightsURL(sum)

	for _, tc := range []struct {
		name    string
		headers []string
		status  int
		body    []byte
	}{
		{"whole", nil, 200, data},
		{"range", []string{"Range", "bytes=8-15"}, 206, data[8:16]},
		{"suffix range", []string{"Range", "bytes=-4"}, 206, data[len(data)-4:]},
		{"etag", []string{"If-None-Match", `"` + sum + `"`}, 304, nil},
		{"other etag", []string{"If-None-Match", `"x"`}, 200, data},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := get(t, url, tc.headers...)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if string(body) != string(tc.body) {
				t.Errorf("got %d bytes, want %d", len(body), len(tc.body))
			}
			if got := resp.Header.Get("ETag"); got != `"`+sum+`"` {
				t.Errorf("ETag %q", got)
			}
			if got := resp.Header.Get("Cache-Control"); !strings.Contains(got, "immutable") {
				t.Errorf("Cache-Control %q, want immutable", got)
			}
		})
	}
	for _, p := range []string{
		api.WeightsURL(strings.Repeat("0", 64)),
		api.WeightsPrefix + "default.safetensors",
		api.WeightsPrefix + sum,
		api.WeightsPrefix + "../" + sum + ".safetensors",
	} {
		// Unclean paths are redirected to their clean form (ServeMux).
		if resp, _ := get(t, srv.URL+p); resp.StatusCode != 404 && resp.StatusCode != 307 {
			t.Errorf("%s: status %d, want 404 or a redirect", p, resp.StatusCode)
		}
	}
}

// TestStaticBuilds: a file asked for with the build index.html names, or
// with none, is served; one asked for with another build gets 404 saying
// so; and the build is read again when index.html changes.
func TestStaticBuilds(t *testing.T) {
	const a, b = "0123456789ab", "ba9876543210"
	app := fstest.MapFS{
		"index.html": {Data: []byte(`<!doctype html><html lang="en" data-build="` + a + `"><script src="boot.js?b=` + a + `"></script>`)},
		"boot.js":    {Data: []byte("boot")},
	}
	srv := newServer(t, Options{App: app})
	check := func(path string, status int, body string) {
		t.Helper()
		resp, got := get(t, srv.URL+path)
		if resp.StatusCode != status || !strings.Contains(string(got), body) {
			t.Errorf("%s: %d %q; want %d and %q", path, resp.StatusCode, got, status, body)
		}
	}
	check("/boot.js?b="+a, 200, "boot")
	check("/boot.js", 200, "boot")
	check("/boot.js?b=not-a-build", 200, "boot")
	check("/boot.js?b="+b, 404, "boot.js of build "+b+" is not here: the app is build "+a+" now")
	check("/?b="+b, 200, "data-build") // the page is always the build served
	// A deploy: index.html names b now.
	app["index.html"] = &fstest.MapFile{Data: []byte(`<html data-build="` + b + `">`), ModTime: time.Unix(1, 0)}
	check("/boot.js?b="+b, 200, "boot")
	check("/boot.js?b="+a, 404, "the app is build "+b+" now")
	// A page that names no build (wasm/web served as it is): no check.
	app["index.html"] = &fstest.MapFile{Data: []byte(`<html lang="en">`), ModTime: time.Unix(2, 0)}
	check("/boot.js?b="+a, 200, "boot")
}

// TestStaticStaleVariant: a precompressed variant older than its file
// (the file replaced, the variant not made again yet) is not served; one
// as old as the file is.
func TestStaticStaleVariant(t *testing.T) {
	old, now := time.Unix(100, 0), time.Unix(200, 0)
	app := fstest.MapFS{
		"index.html":    {Data: []byte(`<html data-build="0123456789ab">`), ModTime: now},
		"app.css":       {Data: []byte("new css"), ModTime: now},
		"app.css.gz":    {Data: []byte("old gzipped css"), ModTime: old},
		"boot.js":       {Data: []byte("js"), ModTime: now},
		"boot.js.gz":    {Data: []byte("gzipped js"), ModTime: now.Add(-time.Second)}, // a time kept to the second
		"alone.wasm.gz": {Data: []byte("gzipped alone"), ModTime: old},
	}
	srv := newServer(t, Options{App: app})
	for _, c := range []struct{ path, enc, body string }{
		{"/app.css", "", "new css"},
		{"/boot.js", "gzip", "gzipped js"},
		{"/alone.wasm", "gzip", "gzipped alone"},
	} {
		resp, body := get(t, srv.URL+c.path, "Accept-Encoding", "gzip")
		if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != c.enc || string(body) != c.body {
			t.Errorf("%s: %d, encoding %q, %q; want %q in encoding %q", c.path, resp.StatusCode, resp.Header.Get("Content-Encoding"), body, c.body, c.enc)
		}
	}
	// A file of no build at all is missing, whatever build is asked for.
	resp, body := get(t, srv.URL+"/nothing.js?b=ba9876543210")
	if resp.StatusCode != 404 || strings.Contains(string(body), "build") {
		t.Errorf("a missing file asked for with another build: %d %q; want a plain 404", resp.StatusCode, body)
	}
}

func TestStatic(t *testing.T) {
	app := fstest.MapFS{
		"index.html":     {Data: []byte("<!doctype html>page")},
		"main.wasm":      {Data: []byte("\x00asm raw")},
		"main.wasm.gz":   {Data: []byte("gzipped")},
		"main.wasm.br":   {Data: []byte("brotli")},
		"wasm_exec.js":   {Data: []byte("js")},
		"sw.js":          {Data: []byte("sw")},
		"app.css":        {Data: []byte("css")},
		".secret":        {Data: []byte("no")},
		"dir/.git/HEAD":  {Data: []byte("no")},
		"examples/a.txt": {Data: []byte("text")},
	}
	srv := newServer(t, Options{App: app})
	for _, tc := range []struct {
		name, path, accept string
		status             int
		ctype, enc, body   string
	}{
		{"root", "/", "", 200, "text/html; charset=utf-8", "", "<!doctype html>page"},
		{"query", "/?backend=cpu", "", 200, "text/html; charset=utf-8", "", "<!doctype html>page"},
		{"wasm raw", "/main.wasm", "", 200, "application/wasm", "", "\x00asm raw"},
		{"wasm gzip", "/main.wasm", "gzip, deflate", 200, "application/wasm", "gzip", "gzipped"},
		{"wasm br", "/main.wasm", "gzip, deflate, br", 200, "application/wasm", "br", "brotli"},
		{"br refused", "/main.wasm", "br;q=0, gzip", 200, "application/wasm", "gzip", "gzipped"},
		{"star", "/main.wasm", "*", 200, "application/wasm", "br", "brotli"},
		{"js", "/wasm_exec.js", "gzip", 200, "text/javascript; charset=utf-8", "", "js"},
		{"css", "/app.css", "", 200, "text/css; charset=utf-8", "", "css"},
		{"sub", "/examples/a.txt", "", 200, "text/plain; charset=utf-8", "", "text"},
		{"hidden", "/.secret", "", 404, "", "", ""},
		{"hidden dir", "/dir/.git/HEAD", "", 404, "", "", ""},
		{"missing", "/nothing.js", "", 404, "", "", ""},
		{"escape", "/../../etc/passwd", "", 307, "", "", ""}, // to /etc/passwd, not in App
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := get(t, srv.URL+tc.path, "Accept-Encoding", tc.accept)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if tc.status != 200 {
				return
			}
			if got := resp.Header.Get("Content-Type"); got != tc.ctype {
				t.Errorf("Content-Type %q, want %q", got, tc.ctype)
			}
			if got := resp.Header.Get("Content-Encoding"); got != tc.enc {
				t.Errorf("Content-Encoding %q, want %q", got, tc.enc)
			}
			if string(body) != tc.body {
				t.Errorf("body %q, want %q", body, tc.body)
			}
			if resp.Header.Get("ETag") == "" || resp.Header.Get("Cache-Control") != "no-cache" {
				t.Errorf("ETag %q, Cache-Control %q", resp.Header.Get("ETag"), resp.Header.Get("Cache-Control"))
			}
			again, _ := get(t, srv.URL+tc.path, "Accept-Encoding", tc.accept, "If-None-Match", resp.Header.Get("ETag"))
			if again.StatusCode != 304 {
				t.Errorf("revalidation: status %d, want 304", again.StatusCode)
			}
		})
	}
}

func TestNotBuilt(t *testing.T) {
	srv := newServer(t, Options{})
	resp, body := get(t, srv.URL+"/")
	if resp.StatusCode != 503 || !strings.Contains(string(body), "make wasm") {
		t.Errorf("got %d %q", resp.StatusCode, body)
	}
	if resp, _ := get(t, srv.URL+"/main.wasm"); resp.StatusCode != 404 {
		t.Errorf("main.wasm: status %d, want 404", resp.StatusCode)
	}
}

func TestMethods(t *testing.T) {
	srv := newServer(t, Options{App: fstest.MapFS{"index.html": {Data: []byte("x")}}})
	resp, err := http.Post(srv.URL+"/", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: %d, Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
	resp, err = http.Head(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.ContentLength != 1 {
		t.Errorf("HEAD: %d, length %d", resp.StatusCode, resp.ContentLength)
	}
}

func TestAccepts(t *testing.T) {
	for _, tc := range []struct {
		header, enc string
		want        bool
	}{
		{"", "gzip", false},
		{"gzip", "gzip", true},
		{"GZIP", "gzip", true},
		{"deflate, gzip;q=0.5", "gzip", true},
		{"gzip;q=0", "gzip", false},
		{"gzip; q=0.0", "gzip", false},
		{"*", "br", true},
		{"*;q=0, gzip", "br", false},
		{"br;q=0, *", "br", false},
		{"gzipx", "gzip", false},
	} {
		if got := accepts(tc.header, tc.enc); got != tc.want {
			t.Errorf("accepts(%q, %q) = %v, want %v", tc.header, tc.enc, got, tc.want)
		}
	}
}
