package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// splitAtCommas splits header values as syumai/workers does.
func splitAtCommas(h http.Header) http.Header {
	out := http.Header{}
	for k, vs := range h {
		for _, v := range vs {
			for part := range strings.SplitSeq(v, ",") {
				out.Add(k, part)
			}
		}
	}
	return out
}

func TestRejoinHeaders(t *testing.T) {
	for _, tc := range []struct {
		name, header, value string
	}{
		{"multi range", "Range", "bytes=0-9,20-29"},
		{"etag list", "If-None-Match", `"a", "b", "c"`},
		{"encodings", "Accept-Encoding", "gzip, deflate, br"},
		{"single", "Range", "bytes=5-"},
		{"empty parts", "X-Test", ",a,,b,"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			h := rejoinHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got = r.Header.Values(tc.header)
			}))
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			r.Header.Set(tc.header, tc.value)
			r.Header = splitAtCommas(r.Header)
			h.ServeHTTP(httptest.NewRecorder(), r)
			if want := []string{tc.value}; !slices.Equal(got, want) {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

func TestLazy(t *testing.T) {
	calls := 0
	l := &lazy{build: func() (http.Handler, error) {
		calls++
		return http.NotFoundHandler(), nil
	}}
	for range 3 {
		rec := httptest.NewRecorder()
		l.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
		if rec.Code != http.StatusNotFound {
			t.Fatalf("status %d", rec.Code)
		}
	}
	if calls != 1 {
		t.Errorf("built %d times, want 1", calls)
	}
	// A failed build is answered 500, and the next request builds again.
	fails := 1
	failing := &lazy{build: func() (http.Handler, error) {
		if fails > 0 {
			fails--
			return nil, http.ErrMissingFile
		}
		return http.NotFoundHandler(), nil
	}}
	rec := httptest.NewRecorder()
	failing.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/models", nil))
	var e struct{ Error string }
	if rec.Code != http.StatusInternalServerError || rec.Header().Get("Content-Type") != "application/json" ||
		json.Unmarshal(rec.Body.Bytes(), &e) != nil || !strings.Contains(e.Error, "discspan worker") {
		t.Errorf("failing build: %d %s %q; want a JSON error under /api/", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	rec = httptest.NewRecorder()
	failing.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("the request after a failed build: %d; want it built again and served", rec.Code)
	}
}
