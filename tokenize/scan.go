package tokenize

import (
	"strings"
	"unicode/utf8"
)

// scanner holds the state of one Tokenize call.
type scanner struct {
	lang Language
	text string
	toks []Token
	// suf collects the tokens split off the end of a piece, last first.
	suf []Token
	// openSingle is set while a single quotation mark is open, so that a
	// later "'" after a word closes it instead of being an apostrophe.
	openSingle bool
}

// run splits the text at white space and tokenizes each chunk.
func (s *scanner) run() {
	text := s.text
	i := 0
	for i < len(text) {
		r, n := utf8.DecodeRuneInString(text[i:])
		if isSpace(r) {
			if s.openSingle && blankLineAt(text, i) {
				s.openSingle = false
			}
			i += n
			continue
		}
		j := i + n
		for j < len(text) {
			r, n = utf8.DecodeRuneInString(text[j:])
			if isSpace(r) {
				break
			}
			j += n
		}
		s.chunk(i, j)
		i = j
	}
}

// blankLineAt reports whether a line break at i is followed by another
// one before any other text (or is a paragraph separator).
func blankLineAt(text string, i int) bool {
	breaks, size := lineBreakAt(text, i)
	if breaks == 0 {
		return false
	}
	for j := i + size; breaks < 2 && j < len(text); {
		b, n := lineBreakAt(text, j)
		if b == 0 {
			var r rune
			r, n = utf8.DecodeRuneInString(text[j:])
			if !isSpace(r) {
				return false
			}
		}
		breaks += b
		j += n
	}
	return breaks >= 2
}

// lineBreakAt returns how many line breaks text[i:] starts with, and
// their length in bytes: one for LF, CR LF, a lone CR (old Mac files),
// NEL and the line separator U+2028; two, a blank line, for the paragraph
// separator U+2029; none otherwise.
func lineBreakAt(text string, i int) (breaks, size int) {
	switch c := text[i]; {
	case c == '\n':
		return 1, 1
	case c == '\r' && i+1 < len(text) && text[i+1] == '\n':
		return 1, 2
	case c == '\r':
		return 1, 1
	case c < utf8.RuneSelf:
		return 0, 0
	}
	switch r, n := utf8.DecodeRuneInString(text[i:]); r {
	case 0x85, 0x2028:
		return 1, n
	case 0x2029:
		return 2, n
	}
	return 0, 0
}

// lineBreaks counts the line breaks of gap (see lineBreakAt).
func lineBreaks(gap string) int {
	count := 0
	for i := 0; i < len(gap); {
		b, n := lineBreakAt(gap, i)
		if b == 0 {
			_, n = utf8.DecodeRuneInString(gap[i:])
		}
		count += b
		i += n
	}
	return count
}

// emit appends the token text[lo:hi], unless nothing of it is visible.
func (s *scanner) emit(lo, hi int) {
	if invisible(s.text[lo:hi]) {
		return
	}
	s.toks = append(s.toks, Token{Text: s.text[lo:hi], Start: lo, End: hi})
}

// push records the token text[lo:hi] split off the end of the current
// piece, unless nothing of it is visible.
func (s *scanner) push(lo, hi int) {
	if invisible(s.text[lo:hi]) {
		return
	}
	s.suf = append(s.suf, Token{Text: s.text[lo:hi], Start: lo, End: hi})
}

// chunk tokenizes text[lo:hi], a run without white space. URLs and e-mail
// addresses are kept whole; elsewhere the chunk is first cut where
// punctuation between two words is not glued to both of them ("zei:"Ja" is
// cut before the colon, "4,75" and "en/of" are not cut), and each piece is
// then peeled (see piece).
func (s *scanner) chunk(lo, hi int) {
	if s.url(lo, hi) {
		return
	}
	if s.angles(lo, hi) {
		return
	}
	text := s.text
	start := lo
	seenWord := false
	prev := rune(-1)
	for i := lo; i < hi; {
		r, n := firstCluster(text[i:hi])
		if isWord(r) || !seenWord {
			seenWord = seenWord || isWord(r)
			prev = r
			i += n
			continue
		}
		// A run of non-word characters after a word: find its end.
		j := i
		for j < hi {
			r2, n2 := firstCluster(text[j:hi])
			if isWord(r2) {
				break
			}
			j += n2
		}
		if j == hi {
			break // trailing punctuation: the piece peels it
		}
		if cutRun(text[i:j], prev, firstRune(text[j:hi])) {
			s.piece(start, i)
			start = i
		}
		prev, _ = utf8.DecodeLastRuneInString(text[i:j])
		i = j
	}
	s.piece(start, hi)
}

// angles tokenizes a chunk holding angle brackets, which are always
// tokens of their own, also between word characters: the text between
// them is chunked as usual ("<b>vet</b>" gives "<" "b" ">" "vet" "<" "/"
// "b" ">", "<script>alert(1)" gives "<" "script" ">" "alert(1)"). It
// reports false, doing nothing, when the chunk has none.
func (s *scanner) angles(lo, hi int) bool {
	if !strings.ContainsAny(s.text[lo:hi], "<>") {
		return false
	}
	start := lo
	for i := lo; i < hi; i++ {
		if c := s.text[i]; c == '<' || c == '>' {
			if start < i {
				s.chunk(start, i)
			}
			s.emit(i, i+1)
			start = i + 1
		}
	}
	if start < hi {
		s.chunk(start, hi)
	}
	return true
}

// cutRun reports whether the run of non-word characters run, between the
// word characters before and after, holds a separator that is not glued to
// word material on both sides.
func cutRun(run string, before, after rune) bool {
	prev := before
	for k := 0; k < len(run); {
		r, n := utf8.DecodeRuneInString(run[k:])
		next := after
		if k+n < len(run) {
			next = firstRune(run[k+n:])
		}
		if isSeparator(r) && (r >= 0x3000 && isFullWidthMark(r) || isLongDash(r) || !(isWordish(prev) && isWordish(next))) {
			return true
		}
		prev = r
		k += n
	}
	return false
}

// firstRune returns the first rune of s, or -1 for an empty string.
func firstRune(s string) rune {
	if s == "" {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// lastRune returns the last rune of s, or -1 for an empty string.
func lastRune(s string) rune {
	if s == "" {
		return -1
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// piece tokenizes text[lo:hi]: punctuation is peeled off the front and the
// back, and what remains is one word, or a word and its clitic.
func (s *scanner) piece(lo, hi int) {
	lo = s.prefix(lo, hi)
	if lo >= hi {
		return
	}
	mark := len(s.suf)
	hi = s.suffix(lo, hi)
	if lo < hi {
		s.core(lo, hi)
	}
	for i := len(s.suf) - 1; i >= mark; i-- {
		s.toks = append(s.toks, s.suf[i])
	}
	s.suf = s.suf[:mark]
}

// enumerationNumber reports whether the number num, followed by a period,
// starting at lo, numbers an item of a list: it is the first token, or
// follows a line break or a sentence-final punctuation mark; after a colon
// only "1." does, the first item ("de volgende: 1. de Stichting"), as an
// answer is more often a number than a list ("Het antwoord: 42. Daarna").
func (s *scanner) enumerationNumber(lo int, num string) bool {
	if len(s.toks) == 0 {
		return true
	}
	last := s.toks[len(s.toks)-1]
	switch {
	case isFinalPunct(last.Text) || lineBreaks(s.text[last.End:lo]) > 0:
		return true
	case last.Text == ":":
		return num == "1"
	}
	return false
}

// nextChunk returns the rest of the text from the first non-space character
// at or after i, or "" when the text or a blank line comes first.
func (s *scanner) nextChunk(i int) string {
	newline := false
	for i < len(s.text) {
		if breaks, n := lineBreakAt(s.text, i); breaks > 0 {
			if newline || breaks > 1 {
				return ""
			}
			newline = true
			i += n
			continue
		}
		r, n := utf8.DecodeRuneInString(s.text[i:])
		if !isSpace(r) {
			return s.text[i:]
		}
		i += n
	}
	return ""
}

// Paragraphs cuts text at its blank lines (two line breaks with nothing but
// white space between them; LF, CR LF, a lone CR, NEL or U+2028 is one, the
// paragraph separator U+2029 two), where a sentence always ends and nothing
// before the blank line depends on what follows it or the reverse: the
// sentences of the text are those of its paragraphs, one after another,
// token for token (with offsets counted from each paragraph's start). A
// caller that tokenizes a text again after an edit can keep the sentences
// of the paragraphs that did not change. A paragraph ends before the first
// line break of the blank lines after it; the next begins after their
// last white space.
func Paragraphs(text string) []string {
	var paras []string
	start := 0
	for i := 0; i < len(text); {
		if b, _ := lineBreakAt(text, i); b == 0 {
			_, n := utf8.DecodeRuneInString(text[i:])
			i += n
			continue
		}
		// A run of white space from this line break: blank lines when it
		// holds another one.
		j, breaks := i, 0
		for j < len(text) {
			b, n := lineBreakAt(text, j)
			if b == 0 {
				var r rune
				r, n = utf8.DecodeRuneInString(text[j:])
				if !isSpace(r) {
					break
				}
			}
			breaks += b
			j += n
		}
		if breaks >= 2 {
			paras = append(paras, text[start:i])
			start = j
		}
		i = max(j, i+1)
	}
	return append(paras, text[start:])
}

// isFinalPunct reports whether a token is a sentence-final mark: ".", "!",
// "?", an ellipsis, a full-width "。", "！" or "？", or a run of these.
func isFinalPunct(t string) bool {
	if t == "" {
		return false
	}
	for _, r := range t {
		if r != '.' && r != '!' && r != '?' && r != '…' && !isFullWidthFinal(r) {
			return false
		}
	}
	return true
}

// Lines splits text into its lines at every line break the tokenizer
// knows (LF, CR LF, a lone CR, NEL, U+2028, and U+2029, which also ends
// an empty line after it: a blank line), without the breaks. A text that
// ends with one break has no empty last line (U+2029 at the end gives
// the empty line of its blank line); "" has no line.
func Lines(text string) []string {
	var lines []string
	start := 0
	for i := 0; i < len(text); {
		b, n := lineBreakAt(text, i)
		if b == 0 {
			_, n = utf8.DecodeRuneInString(text[i:])
			i += n
			continue
		}
		lines = append(lines, text[start:i])
		for range b - 1 {
			lines = append(lines, "")
		}
		i += n
		start = i
	}
	if start < len(text) {
		lines = append(lines, text[start:])
	}
	return lines
}
