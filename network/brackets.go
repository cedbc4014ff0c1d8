package network

import "strings"

// spellingGroups lists, for each character of the text whose spelling
// varies, the spellings a word may have in text and treebanks. For a round
// bracket: the character itself, the Penn Treebank escape that the Alpino
// discbracket files use (their readers keep it as it is), and disco-dop's
// escape (read by chart/treebank as the character, but possible in
// tokenized input). For quotation marks, apostrophes, dashes and the
// ellipsis: the ASCII spelling of the treebanks the shipped models were
// trained on (Alpino writes " ' - ...), and the typographic ones a word
// processor or a phone types (on the Alpino dev set with its quotes
// written „…”, the shipped pair's F1 on the 87 sentences holding them fell
// from 79.91 to 73.82 when it read them as unknown words). Square and
// curly brackets need no entry: the treebanks write them as they are.
//
// A group whose first spelling is ASCII punctuation that also occurs
// inside words (the apostrophe of "z'n", the hyphen of "tv-omroepen")
// never has that spelling rewritten, whatever the vocabulary knows best.
var spellingGroups = [...]struct {
	spellings []string
	keepFirst bool
}{
	{[]string{"(", "-LRB-", "#LRB#"}, false},
	{[]string{")", "-RRB-", "#RRB#"}, false},
	{[]string{"\"", "„", "”", "“", "‟", "″", "«", "»"}, true},
	{[]string{"'", "’", "‘", "‚", "‛", "′"}, true},
	{[]string{"-", "–", "—", "‐", "‑", "‒", "−"}, true},
	{[]string{"...", "…"}, true},
}

// Spelling returns the spelling of word that the network reads for it:
// word itself when the vocabulary knows it or it holds no variable
// character, else word with every spelling of such a character (see
// spellingGroups) replaced by the one the vocabulary knows, as a whole
// word, best: the most frequent in training (the lowest id). A model
// trained on the Alpino discbracket files, which knows -lrb- and not "(",
// thus reads "(" as -LRB- and "zuurstoftent(je)" as
// "zuurstoftent-LRB-je-RRB-", "„" as a straight quote, "z’n" as "z'n" and
// "–" as "-", in its word id and its characters alike; a model trained on
// literal parentheses reads -LRB- as "(". A character the vocabulary knows
// in no spelling is left alone. Soft hyphens and zero-width joiners are
// dropped from an unknown word ("ver\u00adkiezingen" reads as
// "verkiezingen"). It costs one word lookup, and for an unknown word
// holding such a character a few more and a new string.
func (v *Vocab) Spelling(word string) string {
	if v.WordID(word) != UnkWord {
		return word
	}
	if strings.ContainsAny(word, invisibleInWords) {
		// A soft hyphen (where a word may break across lines) or a
		// zero-width joiner pasted with the text: not part of the word.
		visible := strings.Map(func(r rune) rune {
			if strings.ContainsRune(invisibleInWords, r) {
				return -1
			}
			return r
		}, word)
		if visible == "" {
			return word // nothing else: leave it
		}
		if word = visible; v.WordID(word) != UnkWord {
			return word
		}
	}
	if !hasVariant(word) {
		return word
	}
	var pairs []string
	for _, g := range spellingGroups {
		if !containsAny(word, g.spellings) {
			continue
		}
		known := v.knownSpelling(g.spellings)
		if known == "" {
			continue
		}
		for i, s := range g.spellings {
			if s != known && (i > 0 || !g.keepFirst) {
				pairs = append(pairs, s, known)
			}
		}
	}
	if len(pairs) == 0 {
		return word
	}
	return strings.NewReplacer(pairs...).Replace(word)
}

// invisibleInWords are the characters Spelling drops from an unknown word:
// the soft hyphen and the zero-width non-joiner and joiner.
const invisibleInWords = "\u00ad\u200c\u200d"

// hasVariant reports whether word holds a spelling of spellingGroups.
func hasVariant(word string) bool {
	for _, g := range spellingGroups {
		if containsAny(word, g.spellings) {
			return true
		}
	}
	return false
}

// containsAny reports whether word contains one of the spellings.
func containsAny(word string, spellings []string) bool {
	for _, s := range spellings {
		if strings.Contains(word, s) {
			return true
		}
	}
	return false
}

// knownSpelling returns the spelling of a group with the lowest word id in
// the vocabulary (the most frequent), or "" when it knows none.
func (v *Vocab) knownSpelling(spellings []string) string {
	best, bestID := "", 0
	for _, s := range spellings {
		if id := v.WordID(s); id != UnkWord && (best == "" || id < bestID) {
			best, bestID = s, id
		}
	}
	return best
}
