package tokenize

import (
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// Punctuation and symbols are peeled off words one user-perceived
// character (Unicode grapheme cluster, UAX #29) at a time, not one code
// point at a time, so that an emoji with a skin tone or a variation
// selector ("👍🏽", "❤️"), a ZWJ sequence ("👨‍👩‍👧"), a flag ("🇳🇱") or a
// mark with a combining accent stays one token. A cluster counts as a word
// character when its first code point does.

// firstCluster returns the first code point of s and the length in bytes
// of the grapheme cluster it starts (at least 1 for a non-empty s; a byte
// that is not UTF-8 is a cluster of its own).
func firstCluster(s string) (r rune, n int) {
	r, n = utf8.DecodeRuneInString(s)
	if n == len(s) || (r < utf8.RuneSelf && s[n] < utf8.RuneSelf) || (r == utf8.RuneError && n == 1) {
		return r, n // ASCII before ASCII: a boundary (chunks hold no CR LF)
	}
	cluster, _, _, _ := uniseg.FirstGraphemeClusterInString(s, -1)
	return r, max(n, len(cluster))
}

// clusterWindow bounds how far back lastCluster looks: the clusters of
// text are found from a point this many bytes before the end (later
// clusters do not depend on what comes before them, but for a long run of
// regional indicators or combining marks, which are then cut).
const clusterWindow = 64

// lastCluster returns the first code point of the last grapheme cluster of
// s and the cluster's length in bytes (at least 1 for a non-empty s).
func lastCluster(s string) (r rune, n int) {
	last, size := utf8.DecodeLastRuneInString(s)
	if size == len(s) || (last < utf8.RuneSelf && s[len(s)-size-1] < utf8.RuneSelf) {
		return last, size
	}
	start := max(0, len(s)-clusterWindow)
	for start < len(s)-size && !utf8.RuneStart(s[start]) {
		start++
	}
	at := start
	for rest, state := s[start:], -1; rest != ""; {
		var cluster string
		cluster, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if rest == "" {
			at = len(s) - len(cluster)
		}
	}
	at = min(at, len(s)-size) // a cluster is never shorter than its last code point
	r, _ = utf8.DecodeRuneInString(s[at:])
	return r, len(s) - at
}
