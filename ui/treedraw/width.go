package treedraw

import "unicode"

// EstimateWidth estimates the width of s in a proportional sans-serif font,
// in abstract units of UnitEm (0.6 em, about one lower-case letter): narrow
// letters and punctuation count less, capitals and wide letters more, East
// Asian wide characters about double. Cost O(len(s)).
func EstimateWidth(s string) float64 {
	var w float64 // in em
	for _, r := range s {
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
	case isWide(r):
		return 1.0
	case unicode.Is(unicode.Mn, r):
		return 0
	case unicode.IsUpper(r):
		return 0.73
	}
	return 0.62
}

// isWide reports whether r is an East Asian wide or full-width character.
func isWide(r rune) bool {
	return r >= 0x1100 && (r <= 0x115f || // Hangul Jamo
		(r >= 0x2e80 && r <= 0xa4cf && r != 0x303f) || // CJK ... Yi
		(r >= 0xac00 && r <= 0xd7a3) || // Hangul syllables
		(r >= 0xf900 && r <= 0xfaff) || // CJK compatibility ideographs
		(r >= 0xfe30 && r <= 0xfe4f) || // CJK compatibility forms
		(r >= 0xff00 && r <= 0xff60) || // full-width forms
		(r >= 0xffe0 && r <= 0xffe6) ||
		(r >= 0x1f300 && r <= 0x1f64f) || // pictographs, emoticons
		(r >= 0x20000 && r <= 0x3fffd))
}

// textWidth is the number of terminal cells s takes: one per rune, two for
// wide characters, none for combining marks.
func textWidth(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case isWide(r):
			n += 2
		case unicode.Is(unicode.Mn, r):
		default:
			n++
		}
	}
	return n
}
