package tokenize

import (
	"strings"
	"unicode"
)

// Unknown counts the words of a sentence that a model's vocabulary does
// not know (known reports whether it knows a word). It counts only words
// with a letter, and leaves out capitalised words after the first, since
// names are unknown to a model in any language: of "What should I do ?"
// it counts "What", "should" and "do". Cost O(total length of words).
func Unknown(words []string, known func(string) bool) (unknown, counted int) {
	for i, w := range words {
		if !strings.ContainsFunc(w, unicode.IsLetter) {
			continue
		}
		if i > 0 && strings.ContainsFunc(w, unicode.IsUpper) {
			continue
		}
		counted++
		if !known(w) {
			unknown++
		}
	}
	return unknown, counted
}

// MostlyUnknown reports whether most of the words Unknown counts, and at
// least two, are unknown: text in another language than the model's.
func MostlyUnknown(words []string, known func(string) bool) bool {
	unknown, counted := Unknown(words, known)
	return unknown >= 2 && 2*unknown > counted
}

// functionWords are frequent words of each language that a treebank's
// vocabulary holds whatever its texts are about.
var functionWords = []struct {
	lang  string
	words []string
}{
	{"Dutch", strings.Fields("de het een van en in is dat op te niet met voor zijn er die aan ook als bij naar door worden wordt heeft hij ze")},
	{"English", strings.Fields("the of and to a in is that for it with as was on be by at from this are have has not but which")},
	{"German", strings.Fields("der die und in den von zu das mit sich des auf für ist im nicht ein eine als auch es an dem wird")},
}

// GuessLanguage returns the language ("Dutch", "English" or "German")
// whose frequent function words a vocabulary knows best, when it knows at
// least three quarters of them and more than of any other's; "" otherwise.
func GuessLanguage(known func(string) bool) string {
	best, bestN, second := -1, 0, 0
	for k, l := range functionWords {
		n := 0
		for _, w := range l.words {
			if known(w) {
				n++
			}
		}
		if n > bestN {
			best, bestN, second = k, n, bestN
		} else if n > second {
			second = n
		}
	}
	if best < 0 || 4*bestN < 3*len(functionWords[best].words) || bestN == second {
		return ""
	}
	return functionWords[best].lang
}
