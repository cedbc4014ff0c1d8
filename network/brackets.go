package network

import "strings"

// bracketSpellings lists, for each round bracket, the spellings a word may
// have in text and treebanks: the character itself, the Penn Treebank
// escape that the Alpino discbracket files use (their readers keep it as it
// is), and disco-dop's escape (read by chart/treebank as the character, but
// possible in tokenized input). Square and curly brackets need no entry:
// the treebanks the shipped models were trained on write them as they are.
var bracketSpellings = [...][3]string{
	{"(", "-LRB-", "#LRB#"},
	{")", "-RRB-", "#RRB#"},
}

// Spelling returns the spelling of word that the network reads for it:
// word itself when the vocabulary knows it or it holds no bracket, else
// word with every spelling of a round bracket (see bracketSpellings)
// replaced by the one the vocabulary knows, as a whole word, best: the most
// frequent in training (the lowest id). A model trained on the Alpino
// discbracket files, which knows -lrb- and not "(", thus reads "(" as
// -LRB- and "zuurstoftent(je)" as "zuurstoftent-LRB-je-RRB-", in its word id and
// its characters alike; a model trained on literal parentheses reads -LRB-
// as "(". A bracket the vocabulary knows in no spelling is left alone. It
// costs one word lookup, and for an unknown word holding a bracket a few
// more and a new string.
func (v *Vocab) Spelling(word string) string {
	if v.WordID(word) != UnkWord || !hasBracket(word) {
		return word
	}
	var pairs []string
	for _, spellings := range bracketSpellings {
		known := v.knownSpelling(spellings)
		if known == "" {
			continue
		}
		for _, s := range spellings {
			if s != known {
				pairs = append(pairs, s, known)
			}
		}
	}
	if len(pairs) == 0 {
		return word
	}
	return strings.NewReplacer(pairs...).Replace(word)
}

// hasBracket reports whether word holds some spelling of a round bracket.
func hasBracket(word string) bool {
	return strings.ContainsAny(word, "()") || strings.Contains(word, "LRB") || strings.Contains(word, "RRB")
}

// knownSpelling returns the spelling of one bracket with the lowest word id
// in the vocabulary (the most frequent), or "" when it knows none.
func (v *Vocab) knownSpelling(spellings [3]string) string {
	best, bestID := "", 0
	for _, s := range spellings {
		if id := v.WordID(s); id != UnkWord && (best == "" || id < bestID) {
			best, bestID = s, id
		}
	}
	return best
}
