package tokenize

import (
	"strings"
	"unicode/utf8"
)

// url tokenizes text[lo:hi] when, after any opening punctuation, it is a URL
// or an e-mail address: the address is one token, the punctuation around it
// is split off. It reports whether it did.
func (s *scanner) url(lo, hi int) bool {
	text := s.text
	p := lo
	for p < hi {
		r, n := utf8.DecodeRuneInString(text[p:hi])
		if isWord(r) {
			break
		}
		p += n
	}
	if p >= hi {
		return false
	}
	cand := text[p:hi]
	end := urlLen(cand)
	if end == 0 {
		end = emailLen(cand)
	}
	if end == 0 {
		return false
	}
	s.piece(lo, p)
	s.emit(p, p+end)
	s.piece(p+end, hi)
	return true
}

// urlSchemes start a URL.
var urlSchemes = [...]string{"http://", "https://", "ftp://", "www."}

// urlLen returns the length of the URL that s starts with, leaving out the
// punctuation that ends a sentence or closes a quotation or a bracket the
// URL did not open, or 0.
func urlLen(s string) int {
	scheme := 0
	for _, p := range urlSchemes {
		if len(s) > len(p) && strings.EqualFold(s[:len(p)], p) {
			scheme = len(p)
			break
		}
	}
	if scheme == 0 {
		return 0
	}
	end := len(s)
	opened, closed := strings.Count(s, "("), strings.Count(s, ")")
	for end > scheme {
		r, n := utf8.DecodeLastRuneInString(s[:end])
		switch {
		case r == ')' && opened < closed:
			closed--
		case strings.ContainsRune(".,;:!?'\"”’»]}>*", r):
		default:
			return end
		}
		end -= n
	}
	return 0
}

// emailLen returns the length of the e-mail address that s starts with, or
// 0: a local part of letters, digits and ._%+- and a domain of letters,
// digits, hyphens and periods with at least one period.
func emailLen(s string) int {
	at := strings.IndexByte(s, '@')
	if at <= 0 {
		return 0
	}
	for _, r := range s[:at] {
		if !isWord(r) && !strings.ContainsRune("._%+-", r) {
			return 0
		}
	}
	end := at + 1
	for end < len(s) {
		r, n := utf8.DecodeRuneInString(s[end:])
		if !isWord(r) && r != '.' && r != '-' {
			break
		}
		end += n
	}
	for end > at+1 && (s[end-1] == '.' || s[end-1] == '-') {
		end--
	}
	dom := s[at+1 : end]
	dot := strings.LastIndexByte(dom, '.')
	if dot <= 0 || len(dom)-dot-1 < 2 || !allLetters(dom[dot+1:]) {
		return 0
	}
	return end
}
