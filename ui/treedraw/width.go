package treedraw

import (
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// EstimateWidth estimates the width of s in a proportional sans-serif font,
// in abstract units of UnitEm (0.6 em, about one lower-case letter): narrow
// letters and punctuation count less, capitals and wide letters more, East
// Asian wide characters and emoji about double. It counts each grapheme
// cluster once, by its first character, so that combining marks and the
// parts of an emoji sequence ("👨‍👩‍👧", "👍🏽", a flag) add nothing. Cost
// O(len(s)).
func EstimateWidth(s string) float64 {
	var w float64 // in em
	state := -1
	for s != "" {
		if asciiCluster(s) {
			w += runeEm(rune(s[0]))
			s, state = s[1:], -1
			continue
		}
		var cluster string
		var cells int
		cluster, s, cells, state = uniseg.FirstGraphemeClusterInString(s, state)
		if cells >= 2 {
			w += 1.0
			continue
		}
		r, _ := utf8.DecodeRuneInString(cluster)
		w += runeEm(r)
	}
	return w / UnitEm
}

// UnitEm is the width of one abstract unit in em: renderers that draw a
// Grid in a font of size F put one unit at UnitEm·F.
const UnitEm = 0.6

// runeEm is the approximate advance of r in em in DejaVu Sans, one of the
// wider common sans-serif fonts, so that narrower fonts leave more room
// rather than less.
func runeEm(r rune) float64 {
	switch r {
	case 'i', 'j', 'l', '\'':
		return 0.28
	case 'I', ' ', '.', ',', ':', ';', '|', '/':
		return 0.33
	case 'f', '-', '!':
		return 0.37
	case 't', 'r', '(', ')', '[', ']', '{', '}':
		return 0.4
	case 'c', 's', 'z', '"', '*', '_', '?', '`':
		return 0.53
	case 'w':
		return 0.82
	case 'M':
		return 0.87
	case 'm', '%', 'W', '@':
		return 0.98
	}
	switch {
	case r >= 'a' && r <= 'z':
		return 0.62
	case r >= '0' && r <= '9':
		return 0.64
	case r >= 'A' && r <= 'Z':
		return 0.73
	case r < 0x80:
		return 0.84 // + = < > # & ~ ^ $
	case unicode.Is(unicode.Mn, r):
		return 0
	case unicode.IsUpper(r):
		return 0.73
	}
	return 0.62
}

// textWidth is the number of terminal cells s takes: one per grapheme
// cluster, two for wide characters and emoji (a letter with its combining
// marks, an emoji sequence or a flag is one cluster). A cluster the
// terminal would draw in no cell (a combining mark or a joiner on its own)
// takes one, so that drawText can put it somewhere.
func textWidth(s string) int {
	n := 0
	forEachCluster(s, func(_ string, cells int) { n += cells })
	return n
}

// forEachCluster calls f with each grapheme cluster of s and the cells a
// terminal draws it in, at least one and at most two.
func forEachCluster(s string, f func(cluster string, cells int)) {
	state := -1
	for s != "" {
		if asciiCluster(s) {
			f(s[:1], 1)
			s, state = s[1:], -1
			continue
		}
		var cluster string
		var cells int
		cluster, s, cells, state = uniseg.FirstGraphemeClusterInString(s, state)
		f(cluster, min(max(cells, 1), 2))
	}
}

// asciiCluster reports whether s starts with an ASCII character that is a
// grapheme cluster of its own, one cell wide: one followed by another
// printable ASCII character or by nothing (the common case, without
// uniseg's tables).
func asciiCluster(s string) bool {
	return s[0] >= ' ' && s[0] < 0x7f && (len(s) == 1 || s[1] >= ' ' && s[1] < 0x7f)
}
