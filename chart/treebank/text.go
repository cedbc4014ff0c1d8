package treebank

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// errText marks a word, label or field that a treebank file cannot hold
// (see checkText).
var errText = errors.New("not writable text")

// checkText rejects what the writers do not put in a file although the
// readers may pass it on: invalid UTF-8 and NUL bytes, which break the
// tools that read treebanks (white space is each format's own concern).
// The error wraps errText and names the byte offset.
func checkText(s string) error {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				return fmt.Errorf("%w: invalid UTF-8 (byte %#02x at offset %d)", errText, c, i)
			}
			i += size
			continue
		}
		if c == 0 {
			return fmt.Errorf("%w: NUL byte at offset %d", errText, i)
		}
		i++
	}
	return nil
}

// LooksUTF16 reports whether data, the start of a file, is UTF-16 text:
// a UTF-16 byte order mark, or one of its first two bytes zero (ASCII
// text in UTF-16), which UTF-8 text never has. The readers take UTF-8
// only; a caller says so before reading.
func LooksUTF16(data []byte) bool {
	if len(data) >= 2 && (data[0] == 0xFF && data[1] == 0xFE || data[0] == 0xFE && data[1] == 0xFF) {
		return true
	}
	return len(data) >= 2 && (data[0] == 0) != (data[1] == 0)
}
