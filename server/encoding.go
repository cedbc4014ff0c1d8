package server

import (
	"strconv"
	"strings"
)

// accepts reports whether an Accept-Encoding header value accepts the
// content coding enc: named (or "*") with a q-value above zero.
func accepts(header, enc string) bool {
	star := false
	for part := range strings.SplitSeq(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name != enc && name != "*" {
			continue
		}
		ok := qValue(params) > 0
		if name == enc {
			return ok
		}
		star = ok
	}
	return star
}

// qValue returns the q parameter of an Accept-Encoding element's
// parameters, 1 when absent or malformed.
func qValue(params string) float64 {
	for p := range strings.SplitSeq(params, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return 1
			}
			return q
		}
	}
	return 1
}
