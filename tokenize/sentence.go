package tokenize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// splitSentences groups toks, the tokens of text, into sentences.
//
// A sentence ends after ".", "!", "?" or an ellipsis, together with the
// closing quotation marks and brackets and further such marks that follow,
// when the next token starts with a capital or a digit (also after an
// opening quotation mark or bracket, or after an elision such as "'t" as in
// "'t Is"); after a full-width "。", "！" or "？" it always ends. Abbreviations that may close a sentence ("etc.", "jl.",
// "Inc.") end one on the same terms; titles, initials and the other
// abbreviations never do. A blank line always ends a sentence.
func splitSentences(lang Language, text string, toks []Token) [][]Token {
	var sents [][]Token
	start := 0
	quoteOpen := false // a '"' is open
	// blankBefore reports whether a blank line comes before toks[j]: the
	// sentence ends there, and nothing after it is looked at, so that the
	// sentences of a text are those of its paragraphs (see Paragraphs).
	blankBefore := func(j int) bool { return j > 0 && blankLine(text[toks[j-1].End:toks[j].Start]) }
	for i := 0; i < len(toks); i++ {
		if blankBefore(i) {
			quoteOpen = false
		}
		if toks[i].Text == "\"" {
			quoteOpen = doubleQuoteOpens(toks, i, quoteOpen)
		}
		end := -1
		switch {
		case i+1 < len(toks) && blankBefore(i+1):
			end = i + 1
		case isFinalPunct(toks[i].Text) || finalAbbrev(lang, toks[i].Text):
			j := i + 1
			for j < len(toks) && !blankBefore(j) && closesSentence(toks, j, &quoteOpen) {
				j++
			}
			if j == len(toks) || fullWidthFinal(toks[i].Text) || blankBefore(j) || startsSentence(text, toks, j, isFinalPunct(toks[i].Text)) {
				end = j
			}
		}
		if end < 0 {
			continue
		}
		sents = append(sents, toks[start:end:end])
		start = end
		i = end - 1
	}
	if start < len(toks) {
		sents = append(sents, toks[start:])
	}
	return sents
}

// doubleQuoteOpens reports whether the '"' at toks[i] opens a quotation,
// given whether one was open before it; it returns the new state. Spacing
// decides where it can ("zei: "Ja" en"), else the marks alternate.
func doubleQuoteOpens(toks []Token, i int, open bool) bool {
	gluedLeft := i > 0 && toks[i-1].End == toks[i].Start
	gluedRight := i+1 < len(toks) && toks[i+1].Start == toks[i].End
	switch {
	case gluedRight && !gluedLeft:
		return true
	case gluedLeft && !gluedRight:
		return false
	}
	return !open
}

// closesSentence reports whether toks[j] goes with the end of the sentence
// before it: a further final mark, a closing bracket or a closing quotation
// mark. It updates the state of an open '"'.
func closesSentence(toks []Token, j int, quoteOpen *bool) bool {
	t := toks[j].Text
	switch {
	case isFinalPunct(t):
		return true
	case t == "\"":
		if doubleQuoteOpens(toks, j, *quoteOpen) {
			return false
		}
		*quoteOpen = false
		return true
	}
	r, n := utf8.DecodeRuneInString(t)
	if n != len(t) {
		return false
	}
	switch r {
	case ')', ']', '}', '”', '»', '’', '\'', '›', '）', '」', '』', '】', '》', '〉', '〕':
		return true
	}
	return false
}

// startsSentence reports whether toks[j] can begin a sentence: it starts
// with a capital, or with a digit if digits is set, possibly after opening
// quotation marks, brackets, a dash or an elision. It looks no further
// than a blank line after toks[j].
func startsSentence(text string, toks []Token, j int, digits bool) bool {
	for first := j; j < len(toks); j++ {
		if j > first && blankLine(text[toks[j-1].End:toks[j].Start]) {
			return false
		}
		t := toks[j].Text
		r := firstRune(t)
		switch {
		case unicode.IsUpper(r) || digits && isDigit(r):
			return true
		case isSingleQuote(r) && len(t) > 1 && elision(t[utf8.RuneLen(r):]):
			continue // 't Is, 's Avonds
		case len(t) == utf8.RuneLen(r) && (isOpenBracket(r) || isDoubleQuote(r) || isSingleQuote(r) || isDash(r) || r == '¿' || r == '¡'):
			continue
		case r == '#' || r == '@':
			return true
		}
		return false
	}
	return false
}

// fullWidthFinal reports whether t ends with a full-width sentence-final
// mark ("。", "！", "？"), which ends a sentence whatever follows: the
// scripts that use them have no capitals.
func fullWidthFinal(t string) bool {
	r, _ := utf8.DecodeLastRuneInString(t)
	return isFullWidthFinal(r)
}

// finalAbbrev reports whether t is an abbreviation that may end a sentence.
func finalAbbrev(lang Language, t string) bool {
	w, ok := strings.CutSuffix(t, ".")
	if !ok || w == "" {
		return false
	}
	k, ok := lookupAbbrev(lang, w)
	return ok && k == abbrFinal
}

// blankLine reports whether the white space gap holds two line breaks.
func blankLine(gap string) bool {
	return lineBreaks(gap) >= 2
}
