package tokenize

import (
	"strings"
	"unicode/utf8"
)

// prefix splits punctuation off the front of text[lo:hi] and returns where
// the rest starts. It stops at the first word character, and before marks
// that belong to the word that follows: an elision ("'s", "'t", "'69"), a
// quoted first part of a compound ("\"proef\"-"), a bracketed first part
// ("(werk)dag"), a leading hyphen ("-ie", "-3"), a decimal point (".5"), a
// hash tag or mention, a sign before a number ("+31"), and (Dutch) a
// currency sign before a number ("€20").
func (s *scanner) prefix(lo, hi int) int {
	text := s.text
	for lo < hi {
		r, n := firstCluster(text[lo:hi])
		if isWord(r) {
			return lo
		}
		if n > utf8.RuneLen(r) { // a symbol with a modifier, an emoji sequence
			s.emit(lo, lo+n)
			lo += n
			continue
		}
		rest := text[lo+n : hi]
		next := firstRune(rest)
		switch {
		case r == '.':
			if k := runLen(text[lo:hi], '.'); k >= 2 {
				s.emit(lo, lo+k)
				lo += k
				continue
			}
			if isDigit(next) {
				return lo
			}
		case isSingleQuote(r):
			if r != '‹' && r != '›' && elision(rest) {
				return lo
			}
			if isWord(next) {
				s.openSingle = true
			} else {
				s.openSingle = !s.openSingle
			}
		case isDoubleQuote(r):
			if quotedCompound(rest, r) {
				return lo
			}
		case isOpenBracket(r):
			if bracketedPrefix(rest, r) {
				return lo
			}
		case r == '-':
			if isWord(next) {
				return lo
			}
			if k := runLen(text[lo:hi], '-'); k >= 2 {
				s.emit(lo, lo+k)
				lo += k
				continue
			}
		case r == '#' || r == '@':
			if isWord(next) {
				return lo
			}
		case r == '+':
			if isDigit(next) {
				return lo
			}
		case isCurrency(r):
			if isDigit(next) && s.lang != English {
				return lo
			}
		}
		s.emit(lo, lo+n)
		lo += n
	}
	return lo
}

// suffix splits punctuation off the end of text[lo:hi], pushing the tokens
// on s.suf last first, and returns where the rest ends. It keeps the period
// of an abbreviation ("bijv.", "o.a.", "J."), an apostrophe closing a word
// (Dutch "Jenkins'"), a bracketed last part ("zuurstoftent(je)"), a hyphen
// ending a word ("radio-", "5,-"), and (Dutch) a percent sign after a number.
func (s *scanner) suffix(lo, hi int) int {
	text := s.text
	wordBefore := -1 // whether the piece holds a word character: unknown
	for lo < hi {
		r, n := lastCluster(text[lo:hi])
		if isWord(r) {
			return hi
		}
		if n > utf8.RuneLen(r) { // a symbol with a modifier, an emoji sequence
			s.push(hi-n, hi)
			hi -= n
			continue
		}
		body := text[lo : hi-n]
		prev := lastRune(body)
		switch {
		case r == '.':
			k := runLenBack(text[lo:hi], '.')
			if k == 2 && s.keepPeriod(lo, hi-2, false) {
				// "enz..": the abbreviation's period and the full stop.
				s.push(hi-1, hi)
				return hi - 1
			}
			if k >= 2 {
				s.push(hi-k, hi)
				hi -= k
				continue
			}
			if s.keepPeriod(lo, hi-n, true) {
				return hi
			}
		case isApostrophe(r):
			if s.openSingle {
				s.openSingle = false
				break
			}
			if isLetter(prev) && (s.lang != English || prev != 's' && prev != 'S') {
				return hi
			}
		case isCloseBracket(r):
			if bracketedSuffix(body, r) {
				return hi
			}
		case r == '-':
			if prev == '-' {
				k := runLenBack(text[lo:hi], '-')
				s.push(hi-k, hi)
				hi -= k
				continue
			}
			if wordBefore < 0 {
				// Only non-word characters have been peeled, so the
				// answer holds for the rest of the loop.
				wordBefore = 0
				if hasWord(body) {
					wordBefore = 1
				}
			}
			if wordBefore == 1 {
				return hi
			}
		case r == '%' || r == '‰':
			if isDigit(prev) && s.lang != English {
				return hi
			}
		case r == '+':
			if isDigit(prev) {
				return hi
			}
		}
		s.push(hi-n, hi)
		hi -= n
	}
	return hi
}

// keepPeriod reports whether the period after text[lo:end] belongs to the
// word: an abbreviation, an initial, or the number of an enumeration at the
// start of a sentence or a line, or "1." after a colon ("1. de Stichting
// ..."). When atEnd is set, a period that ends the text (but for quotation
// marks) is the full stop instead, unless the abbreviation is one that may
// end a sentence ("etc.", "jl."): the treebank writes "... 4,6 pct ." but
// "... vanaf 15 september jl.". The period after an amount abbreviation is
// also the full stop before a capitalized function word ("4,75 pct. Op de
// beurs ...").
func (s *scanner) keepPeriod(lo, end int, atEnd bool) bool {
	w := s.text[lo:end]
	if !isWord(lastRune(w)) {
		return false
	}
	if allDigits(w) {
		return len(w) <= 2 && s.enumerationNumber(lo, w) && s.nextChunk(end+1) != ""
	}
	kind, ok := lookupAbbrev(s.lang, w)
	if !ok {
		if i := strings.LastIndexByte(w, '-'); i >= 0 {
			kind, ok = lookupAbbrev(s.lang, w[i+1:])
		}
	}
	switch {
	case !ok:
		return false
	case kind == abbrNumber:
		return isDigit(firstRune(s.nextChunk(end + 1)))
	case kind == abbrAmount:
		if atEnd && s.endOfText(end+1) {
			return false
		}
		return !startsWithStarter(s.lang, s.nextChunk(end+1))
	case kind == abbrMid && atEnd:
		return !s.endOfText(end + 1)
	}
	return true
}

// endOfText reports whether nothing but white space and quotation marks
// follows i before the end of the text or a blank line (which ends the
// sentence as the end of the text does). It looks a bounded way ahead.
func (s *scanner) endOfText(i int) bool {
	const limit = 64
	newline := false // a line break since the last quotation mark
	for n := 0; i < len(s.text); n++ {
		if n == limit {
			return false
		}
		if breaks, size := lineBreakAt(s.text, i); breaks > 0 {
			if newline || breaks > 1 {
				return true
			}
			newline = true
			i += size
			continue
		}
		r, size := utf8.DecodeRuneInString(s.text[i:])
		switch {
		case !isSpace(r) && !isDoubleQuote(r) && !isSingleQuote(r):
			return false
		case !isSpace(r):
			newline = false
		}
		i += size
	}
	return true
}

// runLen returns how many bytes b s starts with.
func runLen(s string, b byte) int {
	k := 0
	for k < len(s) && s[k] == b {
		k++
	}
	return k
}

// runLenBack returns how many bytes b s ends with.
func runLenBack(s string, b byte) int {
	k := 0
	for k < len(s) && s[len(s)-1-k] == b {
		k++
	}
	return k
}

// allDigits reports whether s is a non-empty run of ASCII digits.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// hasWord reports whether s holds a word character.
func hasWord(s string) bool {
	for _, r := range s {
		if isWord(r) {
			return true
		}
	}
	return false
}

// lookAround bounds the search for the closing quotation mark or bracket of
// a quoted or bracketed part of a word, so that long runs of marks take
// linear time.
const lookAround = 64

// quotedCompound reports whether rest, what follows an opening quotation
// mark q, closes the quotation and goes on with a hyphen: "proef"-,
// "quasienquete"-voorstel.
func quotedCompound(rest string, q rune) bool {
	i := strings.IndexAny(rest[:min(len(rest), lookAround)], closingQuotes(q))
	if i <= 0 {
		return false
	}
	_, n := utf8.DecodeRuneInString(rest[i:])
	return strings.HasPrefix(rest[i+n:], "-")
}

// bracketedPrefix reports whether rest, what follows an opening bracket b,
// closes the bracket and goes on with the word: "(werk)dag".
func bracketedPrefix(rest string, b rune) bool {
	i := strings.IndexByte(rest[:min(len(rest), lookAround)], byte(matchingBracket(b)))
	return i > 0 && isWord(firstRune(rest[i+1:]))
}

// bracketedSuffix reports whether body, what precedes a closing bracket b,
// opens the bracket right after a word character: "zuurstoftent(je)".
func bracketedSuffix(body string, b rune) bool {
	from := max(0, len(body)-lookAround)
	i := strings.LastIndexByte(body[from:], byte(matchingBracket(b)))
	if i < 0 {
		return false
	}
	i += from
	return i > 0 && i < len(body)-1 && isWord(lastRune(body[:i]))
}
