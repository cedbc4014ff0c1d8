package network

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Reserved word ids.
const (
	UnkWord = iota // unknown word
	BOSWord        // begin-of-sentence token
	EOSWord        // end-of-sentence token
	numReservedWords
)

// Reserved character ids.
const (
	UnkChar = iota // unknown character
	BOWChar        // begin of a word's character sequence
	EOWChar        // end of a word's character sequence
	BOSChar        // the character of the BOS token
	EOSChar        // the character of the EOS token
	numReservedChars
)

var (
	reservedWords = []string{"<unk>", "<bos>", "<eos>"}
	reservedChars = []string{"<unk>", "<bow>", "<eow>", "<bos>", "<eos>"}
)

// Input is one encoded sentence of n words: WordIDs[i] is the id of the
// lower-cased word i, CharIDs[i] the ids of its characters (case kept; the
// model reads only the first Config.MaxChars), both of the word's
// Vocab.Spelling. BOS/EOS are NOT included: the model adds them.
type Input struct {
	WordIDs []int
	CharIDs [][]int
}

// Len returns the number of words.
func (in Input) Len() int { return len(in.WordIDs) }

// Vocab maps words, characters, constituent labels and POS tags to ids. It is
// JSON-serialisable. Words holds lower-cased words, ids 0..2 reserved for
// <unk>, <bos>, <eos>; Chars holds single characters (as strings), ids 0..4
// reserved for <unk>, <bow>, <eow>, <bos>, <eos>.
type Vocab struct {
	Words  []string `json:"words"`
	Chars  []string `json:"chars"`
	Labels []string `json:"labels"`
	Tags   []string `json:"tags"`

	wordID  map[string]int
	charID  map[rune]int
	labelID map[string]int
	tagID   map[string]int
}

// SameAs reports an error naming the first list that differs between v and
// o (words, characters, labels or tags), or nil when the two encode every
// sentence alike, as the members of an ensemble must.
func (v *Vocab) SameAs(o *Vocab) error {
	for _, d := range []struct {
		what string
		a, b []string
	}{
		{"words", v.Words, o.Words},
		{"characters", v.Chars, o.Chars},
		{"labels", v.Labels, o.Labels},
		{"tags", v.Tags, o.Tags},
	} {
		if !slices.Equal(d.a, d.b) {
			return fmt.Errorf("the %s differ (%d and %d entries)", d.what, len(d.a), len(d.b))
		}
	}
	return nil
}

// NewVocab builds the word and character vocabularies from training
// sentences: the lower-cased words seen at least minCount times (model.md: 2),
// most frequent first, ties in byte order, and every character seen, in rune
// order. Labels and tags start empty (see AddLabel and AddTag).
func NewVocab(sentences [][]string, minCount int) *Vocab {
	wordCount := map[string]int{}
	charSet := map[rune]bool{}
	for _, s := range sentences {
		for _, w := range s {
			wordCount[strings.ToLower(w)]++
			for _, r := range w {
				charSet[r] = true
			}
		}
	}
	var words []string
	for w, c := range wordCount {
		if c >= minCount && !isReserved(reservedWords, w) {
			words = append(words, w)
		}
	}
	sort.Slice(words, func(i, j int) bool {
		ci, cj := wordCount[words[i]], wordCount[words[j]]
		if ci != cj {
			return ci > cj
		}
		return words[i] < words[j]
	})
	var runes []rune
	for r := range charSet {
		runes = append(runes, r)
	}
	sort.Slice(runes, func(i, j int) bool { return runes[i] < runes[j] })
	v := &Vocab{Words: append(append([]string{}, reservedWords...), words...), Chars: append([]string{}, reservedChars...)}
	for _, r := range runes {
		v.Chars = append(v.Chars, string(r))
	}
	if err := v.reindex(); err != nil {
		panic("network: " + err.Error()) // cannot happen: built from distinct entries
	}
	return v
}

func isReserved(list []string, s string) bool {
	for _, r := range list {
		if r == s {
			return true
		}
	}
	return false
}

// reindex rebuilds the lookup maps and checks the reserved entries.
func (v *Vocab) reindex() error {
	if len(v.Words) < numReservedWords || len(v.Chars) < numReservedChars {
		return fmt.Errorf("vocab: %d words and %d chars, want at least %d and %d reserved entries",
			len(v.Words), len(v.Chars), numReservedWords, numReservedChars)
	}
	for i, w := range reservedWords {
		if v.Words[i] != w {
			return fmt.Errorf("vocab: word %d is %q, want reserved %q", i, v.Words[i], w)
		}
	}
	for i, c := range reservedChars {
		if v.Chars[i] != c {
			return fmt.Errorf("vocab: char %d is %q, want reserved %q", i, v.Chars[i], c)
		}
	}
	var err error
	if v.wordID, err = indexStrings("word", v.Words); err != nil {
		return err
	}
	if v.labelID, err = indexStrings("label", v.Labels); err != nil {
		return err
	}
	if v.tagID, err = indexStrings("tag", v.Tags); err != nil {
		return err
	}
	v.charID = make(map[rune]int, len(v.Chars))
	for i, c := range v.Chars[numReservedChars:] {
		r, size := utf8.DecodeRuneInString(c)
		if size != len(c) || r == utf8.RuneError {
			return fmt.Errorf("vocab: char %d is %q, want one character", i+numReservedChars, c)
		}
		if _, dup := v.charID[r]; dup {
			return fmt.Errorf("vocab: duplicate char %q", c)
		}
		v.charID[r] = i + numReservedChars
	}
	return nil
}

func indexStrings(what string, list []string) (map[string]int, error) {
	m := make(map[string]int, len(list))
	for i, s := range list {
		if _, dup := m[s]; dup {
			return nil, fmt.Errorf("vocab: duplicate %s %q", what, s)
		}
		m[s] = i
	}
	return m, nil
}

// UnmarshalJSON decodes a vocabulary and rebuilds its indexes.
func (v *Vocab) UnmarshalJSON(data []byte) error {
	type plain Vocab
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return fmt.Errorf("vocab: %w", err)
	}
	*v = Vocab(p)
	return v.reindex()
}

// AddLabel returns the id of label, adding it at the end when new.
func (v *Vocab) AddLabel(label string) int { return addString(&v.Labels, &v.labelID, label) }

// AddTag returns the id of tag, adding it at the end when new.
func (v *Vocab) AddTag(tag string) int { return addString(&v.Tags, &v.tagID, tag) }

func addString(list *[]string, index *map[string]int, s string) int {
	if *index == nil {
		*index = map[string]int{}
	}
	if id, ok := (*index)[s]; ok {
		return id
	}
	(*index)[s] = len(*list)
	*list = append(*list, s)
	return len(*list) - 1
}

// WordID returns the id of the lower-cased word, or UnkWord.
func (v *Vocab) WordID(word string) int {
	if id, ok := v.wordID[strings.ToLower(word)]; ok && id >= numReservedWords {
		return id
	}
	return UnkWord
}

// CharID returns the id of the character, or UnkChar.
func (v *Vocab) CharID(r rune) int {
	if id, ok := v.charID[r]; ok {
		return id
	}
	return UnkChar
}

// LabelID returns the id of a constituent label.
func (v *Vocab) LabelID(label string) (int, bool) {
	id, ok := v.labelID[label]
	return id, ok
}

// TagID returns the id of a POS tag.
func (v *Vocab) TagID(tag string) (int, bool) {
	id, ok := v.tagID[tag]
	return id, ok
}

// Encode returns the model input for a sentence: the word and character
// ids of each word's Spelling, so that a bracket reads as the vocabulary
// knows it ("(" as -LRB- for the Alpino-trained models). The words
// themselves, which the trees show, are the caller's to keep.
func (v *Vocab) Encode(words []string) Input {
	in := Input{WordIDs: make([]int, len(words)), CharIDs: make([][]int, len(words))}
	for i, w := range words {
		w = v.Spelling(w)
		in.WordIDs[i] = v.WordID(w)
		ids := make([]int, 0, utf8.RuneCountInString(w))
		for _, r := range w {
			ids = append(ids, v.CharID(r))
		}
		in.CharIDs[i] = ids
	}
	return in
}
