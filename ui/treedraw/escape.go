package treedraw

import "unicode/utf8"

// escape appends s to b escaped as XML character data: &, < and > as
// entities, and characters that XML 1.0 does not allow (most control
// characters, invalid UTF-8) as U+FFFD.
func escape(b []byte, s string) []byte { return escapeXML(b, s, false) }

// escapeAttr appends s escaped for a double-quoted attribute value:
// also " and the white-space characters that attribute normalisation
// would change.
func escapeAttr(b []byte, s string) []byte { return escapeXML(b, s, true) }

func escapeXML(b []byte, s string, inAttr bool) []byte {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '&':
			b = append(b, "&amp;"...)
		case r == '<':
			b = append(b, "&lt;"...)
		case r == '>':
			b = append(b, "&gt;"...)
		case r == '"' && inAttr:
			b = append(b, "&quot;"...)
		case (r == '\t' || r == '\n' || r == '\r') && inAttr:
			b = append(b, "&#x"...)
			b = append(b, "0123456789abcdef"[r>>4], "0123456789abcdef"[r&15], ';')
		case r == utf8.RuneError && size == 1, !xmlChar(r):
			b = append(b, "\uFFFD"...)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return b
}

// xmlChar reports whether XML 1.0 allows r in a document.
func xmlChar(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD ||
		(r >= 0x20 && r <= 0xD7FF) ||
		(r >= 0xE000 && r <= 0xFFFD) ||
		(r >= 0x10000 && r <= 0x10FFFF)
}
