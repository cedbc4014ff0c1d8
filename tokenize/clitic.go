package tokenize

import (
	"strings"
	"unicode/utf8"
)

// core emits text[lo:hi], what is left of a piece once its punctuation is
// peeled off, as one token or as a word and its clitic.
func (s *scanner) core(lo, hi int) {
	if k := cliticAt(s.lang, s.text[lo:hi]); k > 0 {
		s.emit(lo, lo+k)
		s.emit(lo+k, hi)
		return
	}
	s.emit(lo, hi)
}

// cliticAt returns where the clitic of w starts, or 0 when w is one token.
// Both languages split n't ("do" "n't", "ca" "n't") and 'm 'd 'll 're 've
// after a word of letters ("I" "'m", "we" "'ll"); 's is split after any word
// in English ("John" "'s") but in Dutch only after the English pronouns and
// function words that take it ("it" "'s", "that" "'s"), so that "auto's" and
// "Smit's" stay whole. Dutch splits 't (het) after a word of letters
// ("kan" "'t"), and n't only after the English words that take it (see
// englishNegated). English also splits "cannot" ("can" "not").
func cliticAt(lang Language, w string) int {
	if len(w) < 2 {
		return 0
	}
	if strings.IndexByte(w, '\'') < 0 && !strings.Contains(w, "’") {
		if lang == English && len(w) == 6 && strings.EqualFold(w, "cannot") {
			return 3
		}
		return 0
	}
	if k := negationAt(w); k > 0 && (lang == English || englishNegated[strings.ToLower(w[:k])]) {
		return k
	}
	a, n := lastApostrophe(w)
	if a <= 0 {
		return 0
	}
	stem, suf := w[:a], w[a+n:]
	switch strings.ToLower(suf) {
	case "t":
		if lang == Dutch && allLetters(stem) {
			return a // "kan't", "ben't": "kan" "'t" (het)
		}
	case "m", "d", "ll", "re", "ve":
		if allLetters(stem) {
			return a
		}
	case "s":
		if lang == English && isWord(lastRune(stem)) {
			return a
		}
		if allLetters(stem) && len(stem) <= 5 && englishS[strings.ToLower(stem)] {
			return a
		}
	}
	return 0
}

// englishNegated holds the English words that n't follows ("do" of
// "don't", "ca" of "can't"): in Dutch text only these take n't, so that
// "kan't" is "kan" "'t" (het).
var englishNegated = map[string]bool{
	"do": true, "does": true, "did": true, "ca": true, "wo": true, "sha": true,
	"is": true, "are": true, "was": true, "were": true, "ai": true,
	"have": true, "has": true, "had": true, "could": true, "would": true,
	"should": true, "must": true, "need": true, "might": true, "dare": true,
}

// englishS holds the English words whose 's (is, has, us) Dutch text splits
// off too: they cannot be Dutch plurals or genitives.
var englishS = map[string]bool{
	"it": true, "he": true, "she": true, "that": true, "what": true,
	"there": true, "here": true, "who": true, "where": true, "how": true,
	"let": true, "when": true, "why": true,
}

// negationAt returns where "n't" starts when w ends in it after a letter
// ("don't", "can't", "isn’t"), or 0.
func negationAt(w string) int {
	if len(w) < 4 {
		return 0
	}
	t := w[len(w)-1]
	if t != 't' && t != 'T' {
		return 0
	}
	a, n := lastApostrophe(w)
	if a < 2 || a+n != len(w)-1 {
		return 0
	}
	if c := w[a-1]; c != 'n' && c != 'N' {
		return 0
	}
	if !isLetter(lastRune(w[:a-1])) {
		return 0
	}
	return a - 1
}

// lastApostrophe returns the byte index and size of the last apostrophe in
// w, or -1.
func lastApostrophe(w string) (int, int) {
	i := strings.LastIndexByte(w, '\'')
	j := strings.LastIndex(w, "’")
	if j > i {
		return j, len("’")
	}
	if i >= 0 {
		return i, 1
	}
	return -1, 0
}

// allLetters reports whether w is a non-empty run of letters.
func allLetters(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if !isLetter(r) {
			return false
		}
	}
	return true
}

// elision reports whether rest, what follows an apostrophe at the start of a
// word, makes an elided word with it: Dutch "'s", "'t", "'n", "'m", "'k",
// "'r", "'ns" (also "'s-Gravenhage"), English "'em", "'cause", "'til", or a
// year "'69" ("'67-'68", "'90s").
func elision(rest string) bool {
	if len(rest) >= 2 && isDigit(rune(rest[0])) && isDigit(rune(rest[1])) {
		return len(rest) == 2 || !isDigit(rune(rest[2]))
	}
	i := 0
	for i < len(rest) && i <= 6 && rest[i] < utf8.RuneSelf && isLetter(rune(rest[i])) {
		i++
	}
	if i == 0 || i > 6 {
		return false
	}
	if i < len(rest) && isWord(firstRune(rest[i:])) {
		return false
	}
	switch strings.ToLower(rest[:i]) {
	case "s", "t", "n", "m", "k", "r", "ns", "em", "cause", "til", "tis", "twas":
		return true
	}
	return false
}
