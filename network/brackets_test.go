package network

import (
	"slices"
	"strings"
	"testing"
)

// bracketVocab returns a vocabulary built (minimum count 2) from sentences
// in which ( and ) are written as open and close.
func bracketVocab(open, close string) *Vocab {
	var sents [][]string
	for _, s := range []string{
		"de minister ( justitie ) zegt",
		"het bezwaar ( klein ) blijft",
	} {
		s = strings.NewReplacer("(", open, ")", close).Replace(s)
		sents = append(sents, strings.Fields(s))
	}
	return NewVocab(sents, 2)
}

func TestSpelling(t *testing.T) {
	alpino := bracketVocab("-LRB-", "-RRB-")
	literal := bracketVocab("(", ")")
	none := NewVocab([][]string{{"de", "minister"}, {"de", "minister"}}, 2)
	both := NewVocab([][]string{{"(", ")", "-LRB-"}, {"-LRB-", "-RRB-"}, {"-LRB-", "-RRB-"}, {"(", ")"}}, 2) // -LRB- most frequent, ) before -RRB- (byte order)
	cases := []struct {
		name string
		v    *Vocab
		word string
		want string
	}{
		{"alpino: ( reads as -LRB-", alpino, "(", "-LRB-"},
		{"alpino: ) reads as -RRB-", alpino, ")", "-RRB-"},
		{"alpino: #LRB# reads as -LRB-", alpino, "#LRB#", "-LRB-"},
		{"alpino: #RRB# reads as -RRB-", alpino, "#RRB#", "-RRB-"},
		{"alpino: -LRB- stays", alpino, "-LRB-", "-LRB-"},
		{"alpino: lower-case -lrb- is known and stays", alpino, "-lrb-", "-lrb-"},
		{"alpino: bracket inside a word", alpino, "zuurstoftent(je)", "zuurstoftent-LRB-je-RRB-"},
		{"alpino: bracket at a word's start", alpino, "(werk)dag", "-LRB-werk-RRB-dag"},
		{"alpino: word without brackets", alpino, "fiets", "fiets"},
		{"alpino: square bracket has no escape", alpino, "[", "["},
		{"alpino: curly bracket has no escape", alpino, "}", "}"},
		{"literal: ( stays", literal, "(", "("},
		{"literal: -LRB- reads as (", literal, "-LRB-", "("},
		{"literal: #RRB# reads as )", literal, "#RRB#", ")"},
		{"literal: escapes inside a word", literal, "dam-LRB-men-RRB-plan", "dam(men)plan"},
		{"none: ( stays", none, "(", "("},
		{"none: -LRB- stays", none, "-LRB-", "-LRB-"},
		{"both: ( is known and stays", both, "(", "("},
		{"both: #LRB# reads as the more frequent -LRB-", both, "#LRB#", "-LRB-"},
		{"both: #RRB# reads as the more frequent )", both, "#RRB#", ")"},
		{"both: bracket inside a word", both, "a(b)", "a-LRB-b)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.v.Spelling(tc.word); got != tc.want {
				t.Errorf("Spelling(%q) = %q, want %q", tc.word, got, tc.want)
			}
		})
	}
}

// TestEncodeBrackets checks that Encode gives a bracket the word and
// character ids of the spelling the vocabulary knows.
func TestEncodeBrackets(t *testing.T) {
	v := bracketVocab("-LRB-", "-RRB-")
	got := v.Encode([]string{"de", "(", "justitie", ")"})
	want := v.Encode([]string{"de", "-LRB-", "justitie", "-RRB-"})
	if !slices.Equal(got.WordIDs, want.WordIDs) || !slices.EqualFunc(got.CharIDs, want.CharIDs, slices.Equal) {
		t.Errorf("( and ) encode as %v, -LRB- and -RRB- as %v", got, want)
	}
	if got.WordIDs[1] == UnkWord || slices.Contains(got.CharIDs[1], UnkChar) {
		t.Errorf("( encodes as %d %v, an unknown word or character", got.WordIDs[1], got.CharIDs[1])
	}
}

// TestSpellingTypographic: quotation marks, apostrophes, dashes and the
// ellipsis typed by a word processor or a phone read as the ASCII
// spellings a treebank's vocabulary knows; a typographic mark the
// vocabulary knows stays; the ASCII hyphen and apostrophe inside words
// are never rewritten, even where the vocabulary knows a typographic mark
// better.
func TestSpellingTypographic(t *testing.T) {
	ascii := NewVocab([][]string{
		{`"`, "'", "-", "...", "z'n", "“"}, {`"`, "'", "-", "...", "z'n", "“"},
	}, 2)
	dashes := NewVocab([][]string{{"—", "—", "-"}, {"—", "—", "-"}}, 2) // — more frequent than -
	cases := []struct {
		name string
		v    *Vocab
		word string
		want string
	}{
		{"low opening quote", ascii, "„", `"`},
		{"closing quote", ascii, "”", `"`},
		{"guillemet", ascii, "«", `"`},
		{"known typographic quote stays", ascii, "“", "“"},
		{"apostrophe in a word", ascii, "z’n", "z'n"},
		{"en dash", ascii, "–", "-"},
		{"em dash", ascii, "—", "-"},
		{"dash inside an unknown word", ascii, "tv–omroepen", "tv-omroepen"},
		{"ellipsis", ascii, "…", "..."},
		{"quote glued to a word", ascii, "„Nee", `"Nee`},
		{"hyphen kept where a dash is known better", dashes, "tv-omroepen", "tv-omroepen"},
		{"en dash reads as the known em dash", dashes, "–", "—"},
		{"nothing known: left alone", NewVocab([][]string{{"a"}, {"a"}}, 2), "„", "„"},
		{"soft hyphens dropped", ascii, "z\u00ad'n", "z'n"},
		{"a soft hyphen alone stays", ascii, "\u00ad", "\u00ad"},
		{"zero-width joiner dropped, then the apostrophe", ascii, "z\u200d’n", "z'n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.v.Spelling(tc.word); got != tc.want {
				t.Errorf("Spelling(%q) = %q, want %q", tc.word, got, tc.want)
			}
		})
	}
}
