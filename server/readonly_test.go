package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/discspan/discspan/server/api"
)

// do1 sends a request with the given method and headers (pairs) without
// touching Accept-Encoding, and returns the response and its body.
func do1(t *testing.T, method, url string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
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

// TestReadOnlyMatchesNew checks that a published weights directory served
// by NewReadOnly answers like New's handler on the original files.
func TestReadOnlyMatchesNew(t *testing.T) {
	dir := t.TempDir()
	shaD := writeModel(t, filepath.Join(dir, "default.safetensors"), 87.25, 2)
	writeModel(t, filepath.Join(dir, "b.safetensors"), 80.5, 1)
	if err := os.WriteFile(filepath.Join(dir, "broken.safetensors"), []byte("nonsense"), 0o644); err != nil {
		t.Fatal(err)
	}
	pub := filepath.Join(t.TempDir(), "pub")
	ms, err := Publish(pub, []string{dir}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Name != "default" || ms[0].SHA256 != shaD {
		t.Fatalf("published %+v", ms)
	}
	full := newServer(t, Options{Weights: []string{dir}})
	ro, err := NewReadOnly(ReadOnlyOptions{Weights: os.DirFS(pub)})
	if err != nil {
		t.Fatal(err)
	}
	rosrv := httptest.NewServer(ro)
	t.Cleanup(rosrv.Close)

	w := api.WeightsURL(shaD)
	size := ms[0].Bytes
	for _, tc := range []struct {
		name, method, path string
		headers            []string
		status             int
	}{
		{"models", "GET", api.ModelsPath, nil, 200},
		{"whole", "GET", w, nil, 200},
		{"range", "GET", w, []string{"Range", "bytes=100-1099"}, 206},
		{"open range", "GET", w, []string{"Range", "bytes=1000-"}, 206},
		{"suffix", "GET", w, []string{"Range", "bytes=-7"}, 206},
		{"etag", "GET", w, []string{"If-None-Match", `"` + shaD + `"`}, 304},
		{"etag list", "GET", w, []string{"If-None-Match", `"x", "` + shaD + `"`}, 304},
		{"other etag", "GET", w, []string{"If-None-Match", `"x"`}, 200},
		{"head", "HEAD", w, nil, 200},
		{"head range", "HEAD", w, []string{"Range", "bytes=0-9"}, 206},
		{"bad range", "GET", w, []string{"Range", "bytes=" + strconv.FormatInt(size+10, 10) + "-" + strconv.FormatInt(size+20, 10)}, 416},
		{"garbage range (ignored, RFC 9110 14.2)", "GET", w, []string{"Range", "bytes=x-y"}, 200},
		{"backward range (ignored)", "GET", w, []string{"Range", "bytes=5-1"}, 200},
		{"other unit (ignored)", "GET", w, []string{"Range", "items=0-5"}, 200},
		{"empty suffix range", "GET", w, []string{"Range", "bytes=-0"}, 416},
		{"empty suffix range beside another", "GET", w, []string{"Range", "bytes=-0,0-9"}, 206},
		{"17 ranges (ignored)", "GET", w, []string{"Range", "bytes=" + strings.Repeat("0-0,", 16) + "1-1"}, 200},
		{"unknown", "GET", api.WeightsURL(strings.Repeat("0", 64)), nil, 404},
		{"not hex", "GET", api.WeightsPrefix + "default.safetensors", nil, 404},
		{"post", "POST", w, nil, 405},
		{"post models", "POST", api.ModelsPath, nil, 405},
		{"unknown API path", "GET", "/api/nothing", nil, 404},
		{"training on a server that does not train", "POST", "/api/train", nil, 404},
		{"page", "GET", "/", nil, 503},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, ab := do1(t, tc.method, full.URL+tc.path, tc.headers...)
			b, bb := do1(t, tc.method, rosrv.URL+tc.path, tc.headers...)
			if a.StatusCode != tc.status || b.StatusCode != tc.status {
				t.Fatalf("status: New %d, NewReadOnly %d, want %d", a.StatusCode, b.StatusCode, tc.status)
			}
			if !bytes.Equal(ab, bb) {
				t.Errorf("bodies differ: New %d bytes, NewReadOnly %d", len(ab), len(bb))
			}
			for _, k := range []string{"Content-Type", "Content-Length", "Content-Range", "ETag", "Cache-Control", "Accept-Ranges", "X-Content-Type-Options", "Allow"} {
				if a.Header.Get(k) != b.Header.Get(k) {
					t.Errorf("%s: New %q, NewReadOnly %q", k, a.Header.Get(k), b.Header.Get(k))
				}
			}
			// An error is never cached (a cache would keep it after the
			// file is back).
			if cc := b.Header.Get("Cache-Control"); tc.status == 404 && strings.HasPrefix(tc.path, api.WeightsPrefix) && cc != "no-store" {
				t.Errorf("Cache-Control %q on a 404, want no-store", cc)
			}
		})
	}

	// Publishing again keeps the files that are already right.
	fi1, err := os.Stat(filepath.Join(pub, shaD+api.WeightsExt))
	if err != nil {
		t.Fatal(err)
	}
	old := fi1.ModTime().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(pub, shaD+api.WeightsExt), old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := Publish(pub, []string{dir}, t.Logf); err != nil {
		t.Fatal(err)
	}
	if fi2, err := os.Stat(filepath.Join(pub, shaD+api.WeightsExt)); err != nil || !fi2.ModTime().Equal(old) {
		t.Errorf("republishing rewrote an unchanged file (%v)", err)
	}
}

func TestReadOnlyBroken(t *testing.T) {
	sum := strings.Repeat("ab", 32)
	manifest := func(bytes int64) []byte {
		b, _ := json.Marshal([]api.Model{{Name: "m", URL: api.WeightsURL(sum), Bytes: bytes, SHA256: sum}})
		return b
	}
	for _, tc := range []struct {
		name   string
		fsys   fstest.MapFS
		status int
	}{
		{"ok", fstest.MapFS{ManifestName: {Data: manifest(5)}, sum + ".safetensors": {Data: []byte("12345")}}, 200},
		{"missing file", fstest.MapFS{ManifestName: {Data: manifest(5)}}, 404},
		{"size mismatch", fstest.MapFS{ManifestName: {Data: manifest(9)}, sum + ".safetensors": {Data: []byte("12345")}}, 500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := NewReadOnly(ReadOnlyOptions{Weights: tc.fsys})
			if err != nil {
				t.Fatal(err)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", api.WeightsURL(sum), nil))
			if rec.Code != tc.status {
				t.Errorf("status %d, want %d (%s)", rec.Code, tc.status, rec.Body)
			}
		})
	}

	// No weights: an empty list.
	h, err := NewReadOnly(ReadOnlyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", api.ModelsPath, nil))
	if rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != "[]" {
		t.Errorf("no weights: %d %q", rec.Code, rec.Body)
	}
	// No manifest: an error naming it.
	if _, err := NewReadOnly(ReadOnlyOptions{Weights: fstest.MapFS{}}); err == nil || !strings.Contains(err.Error(), "model list") {
		t.Errorf("no manifest: %v", err)
	}
}

func TestParseManifest(t *testing.T) {
	sum := strings.Repeat("0f", 32)
	for _, tc := range []struct {
		name, json, err string
	}{
		{"empty", `[]`, ""},
		{"null", `null`, ""},
		{"ok", `[{"name":"a","url":"/weights/` + sum + `.safetensors","bytes":3,"sha256":"` + sum + `","dev_f1":1}]`, ""},
		{"not json", `{`, "models.json"},
		{"no name", `[{"url":"/weights/` + sum + `.safetensors","sha256":"` + sum + `"}]`, "no name"},
		{"bad sha", `[{"name":"a","url":"/weights/x.safetensors","sha256":"x"}]`, "sha256"},
		{"upper sha", `[{"name":"a","url":"/weights/` + strings.ToUpper(sum) + `.safetensors","sha256":"` + strings.ToUpper(sum) + `"}]`, "sha256"},
		{"bad url", `[{"name":"a","url":"/elsewhere","sha256":"` + sum + `"}]`, "url"},
		{"negative", `[{"name":"a","url":"/weights/` + sum + `.safetensors","bytes":-1,"sha256":"` + sum + `"}]`, "bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms, err := ParseManifest([]byte(tc.json))
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("error %v", err)
			case tc.err == "" && ms == nil:
				t.Fatal("nil list")
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error %v, want one containing %q", err, tc.err)
			}
		})
	}
}
