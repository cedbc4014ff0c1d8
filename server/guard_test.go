package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// send sends a request with a body and headers (pairs; "Host" sets the
// Host header) and returns the response and its body.
func send(t *testing.T, method, url string, body []byte, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	return doReq(t, req)
}

func doReq(t *testing.T, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(resp.Body)
	return resp, b.Bytes()
}

// checkSecurityHeaders fails the test when an answer lacks one of the
// security headers.
func checkSecurityHeaders(t *testing.T, what string, h http.Header) {
	t.Helper()
	for name, want := range map[string]string{
		"Content-Security-Policy":      ContentSecurityPolicy,
		"X-Content-Type-Options":       "nosniff",
		"X-Frame-Options":              "DENY",
		"Cross-Origin-Opener-Policy":   "same-origin",
		"Cross-Origin-Embedder-Policy": "require-corp",
		"Cross-Origin-Resource-Policy": "same-origin",
	} {
		if got := h.Get(name); got != want {
			t.Errorf("%s: %s %q, want %q", what, name, got, want)
		}
	}
}

// TestGuard: on a loopback server without a token, requests naming another
// host (DNS rebinding) get 421, cross-origin POSTs and DELETEs 403; every
// answer carries the security headers.
func TestGuard(t *testing.T) {
	data := shortTreebank(t, 12, 8)
	dir := t.TempDir()
	app := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>app</title>")}}
	h, err := New(Options{App: app, JobsDir: dir, Loopback: true, Hosts: HostsFor("127.0.0.1:8080", nil), TrainDefaults: tinyTrain, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.Close() })
	tests := []struct {
		name    string
		method  string
		path    string
		body    []byte
		headers []string
		want    int
	}{
		{"app", "GET", "/", nil, nil, 200},
		{"localhost", "GET", "/", nil, []string{"Host", "localhost:8080"}, 200},
		{"::1", "GET", "/api/models", nil, []string{"Host", "[::1]:8080"}, 200},
		{"upper case", "GET", "/", nil, []string{"Host", "LOCALHOST"}, 200},
		{"rebinding GET", "GET", "/api/jobs", nil, []string{"Host", "evil.example:8080"}, 421},
		{"rebinding POST", "POST", "/api/train?epochs=1", data, []string{"Host", "evil.example", "Origin", "http://evil.example"}, 421},
		{"cross-origin POST", "POST", "/api/train?epochs=1", data, []string{"Origin", "http://evil.example"}, 403},
		{"cross-site fetch", "POST", "/api/train?epochs=1", data, []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"cross-origin DELETE", "DELETE", "/api/jobs/1", nil, []string{"Origin", "http://localhost:9999"}, 403},
		{"cross-origin GET", "GET", "/api/jobs", nil, []string{"Origin", "http://evil.example"}, 200},
		{"not found", "GET", "/nothing", nil, nil, 404},
		{"method", "PUT", "/", nil, nil, 405},
		{"same-origin POST", "POST", "/api/train?epochs=1", data, []string{"Sec-Fetch-Site", "same-origin", "Origin", "SELF"}, 202},
		{"no-browser POST", "POST", "/api/train?epochs=1", data, nil, 202},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			headers := slices.Clone(tc.headers)
			for i := range headers {
				headers[i] = strings.ReplaceAll(headers[i], "SELF", srv.URL)
			}
			resp, b := send(t, tc.method, srv.URL+tc.path, tc.body, headers...)
			if resp.StatusCode != tc.want {
				t.Fatalf("%s, want %d: %s", resp.Status, tc.want, b)
			}
			checkSecurityHeaders(t, tc.name, resp.Header)
			// Every error under /api/ is JSON.
			if resp.StatusCode >= 400 && strings.HasPrefix(tc.path, "/api/") && !json.Valid(b) {
				t.Errorf("%s: a non-JSON error under /api/: %q", tc.name, b)
			}
		})
	}
	if jobs := h.jobs.list(); len(jobs) != 2 {
		t.Errorf("%d jobs, want the 2 same-origin ones", len(jobs))
	}
	for _, j := range h.jobs.list() {
		send(t, "DELETE", srv.URL+"/api/jobs/"+j.ID, nil)
	}
}

// TestReadOnlyHeaders: the read-only handler (the Worker's) sends the
// same security headers.
func TestReadOnlyHeaders(t *testing.T) {
	dir := t.TempDir()
	writeModel(t, filepath.Join(dir, "default.safetensors"), 80, 1)
	pub := t.TempDir()
	if _, err := Publish(pub, []string{dir}, t.Logf); err != nil {
		t.Fatal(err)
	}
	h, err := NewReadOnly(ReadOnlyOptions{Weights: os.DirFS(pub)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, path := range []string{"/", "/api/models", "/nothing"} {
		resp, _ := send(t, "GET", srv.URL+path, nil)
		checkSecurityHeaders(t, path, resp.Header)
	}
}

// TestHostsFor: the host names a server answers to, by its address.
func TestHostsFor(t *testing.T) {
	for _, c := range []struct {
		addr  string
		extra []string
		want  []string
	}{
		{"127.0.0.1:8080", nil, []string{"127.0.0.1", "localhost", "127.0.0.1", "::1"}},
		{"localhost:8080", nil, []string{"localhost", "localhost", "127.0.0.1", "::1"}},
		{"192.0.2.7:80", []string{"parser.example"}, []string{"192.0.2.7", "parser.example"}},
		{"0.0.0.0:80", nil, nil},
		{":80", []string{" a.example "}, []string{"a.example"}},
	} {
		if got := HostsFor(c.addr, c.extra); !slices.Equal(got, c.want) {
			t.Errorf("HostsFor(%q, %q) = %q, want %q", c.addr, c.extra, got, c.want)
		}
	}
}

// TestBearerScheme: the scheme of the Authorization header is
// case-insensitive; the token is not.
func TestBearerScheme(t *testing.T) {
	_, srv := trainServer(t, t.TempDir(), tinyTrain)
	for _, c := range []struct {
		auth string
		want int
	}{
		{"Bearer " + testToken, 200},
		{"bearer " + testToken, 200},
		{"BEARER  " + testToken, 200},
		{"Bearer " + strings.ToUpper(testToken), 401},
		{"Basic " + testToken, 401},
		{testToken, 401},
	} {
		if resp, b := send(t, "GET", srv.URL+JobsPath, nil, "Authorization", c.auth); resp.StatusCode != c.want {
			t.Errorf("Authorization %q: %s, want %d: %s", c.auth, resp.Status, c.want, b)
		}
	}
}

// TestTokenTrimmed: a configured token ending with a newline (read from a
// file or a variable) is trimmed, so that clients sending the token get
// in; a token of white space only is refused at start.
func TestTokenTrimmed(t *testing.T) {
	h, err := New(Options{JobsDir: t.TempDir(), Token: testToken + "\n", TrainDefaults: tinyTrain, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer func() { srv.Close(); h.Close() }()
	if resp, b := send(t, "GET", srv.URL+JobsPath, nil, "Authorization", "Bearer "+testToken); resp.StatusCode != 200 {
		t.Errorf("the token without its newline: %s: %s", resp.Status, b)
	}
	if _, err := New(Options{JobsDir: t.TempDir(), Token: " \n", Loopback: true, Logf: t.Logf}); err == nil || !strings.Contains(err.Error(), "white space") {
		t.Errorf("a token of white space: %v", err)
	}
}
