package main

import (
	"net/http"
	"strings"
)

// rejoinHeaders undoes a problem of syumai/workers (v0.32.0): it splits
// every request header value at each comma into separate values, so that
// r.Header.Get returns only the part before the first comma. That breaks
// "Range: bytes=0-9,20-29" (which would be answered as bytes=0-9),
// "If-None-Match" lists and "Accept-Encoding: gzip, br". The Fetch API
// had already combined repeated headers into one value joined by ", ", so
// joining the parts with "," gives back exactly the value the worker
// received.
func rejoinHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, vs := range r.Header {
			if len(vs) > 1 {
				r.Header[k] = []string{strings.Join(vs, ",")}
			}
		}
		h.ServeHTTP(w, r)
	})
}
