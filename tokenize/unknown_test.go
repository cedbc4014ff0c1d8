package tokenize

import (
	"strings"
	"testing"
)

// vocabOf returns a known function for the lower-cased words of text.
func vocabOf(text string) func(string) bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(text)) {
		m[w] = true
	}
	return func(w string) bool { return m[strings.ToLower(w)] }
}

// dutch is a small Dutch vocabulary: the function words and a few more.
const dutch = "de het een van en in is dat op te niet met voor zijn er die aan ook als bij naar door worden wordt heeft hij ze ik wat moet doen boek gisteren gegeven zus . ?"

func TestForeign(t *testing.T) {
	known := vocabOf(dutch)
	// english is a Dutch vocabulary that, like Alpino's, knows a few
	// English words from quotations.
	english := vocabOf(dutch + " the on you")
	for _, tc := range []struct {
		name             string
		vocab            func(string) bool
		lang, text       string
		foreign, counted int
		language         string
		mostly           bool
	}{
		{"Dutch", known, "Dutch", "Hij heeft het boek gisteren aan zijn zus gegeven .", 0, 9, "", false},
		{"English question", known, "Dutch", "What should I do ?", 4, 4, "English", true},
		{"English the vocabulary knows", english, "Dutch", "The cat sat on the mat .", 6, 6, "English", true},
		{"without a language only the vocabulary counts", english, "", "The cat sat on the mat .", 3, 6, "", false},
		{"a language the package does not know", english, "Frisian", "The cat sat on the mat .", 3, 6, "", false},
		{"a Dutch word the vocabulary lacks", vocabOf("boek"), "Dutch", "het boek", 0, 2, "", false},
		{"words of both count as the model's", known, "Dutch", "is in", 0, 2, "", false},
		{"German", known, "Dutch", "Ich habe das Buch gestern gelesen .", 5, 5, "German", true},
		{"French", known, "Dutch", "Où est la gare ?", 4, 4, "French", true},
		{"Spanish", known, "Dutch", "¿ Dónde está la estación ?", 4, 4, "Spanish", true},
		{"French and Spanish alike: the first listed", known, "Dutch", "que la", 2, 2, "French", true},
		{"names left out", known, "Dutch", "Ik zag Jan Pieterszoon Coen en Piet .", 1, 3, "", false},
		{"first word counted though capitalised", known, "Dutch", "Whatever het boek .", 1, 3, "", false},
		{"numbers and punctuation left out", known, "Dutch", "1969 , 4,75 ( ) ?", 0, 0, "", false},
		{"one unknown word is not most", known, "Dutch", "Hallo", 1, 1, "", false},
		{"half is not most", known, "Dutch", "het boek zag gisteren foo bar", 3, 6, "", false},
		{"one English word names no language", known, "Dutch", "het boek van the", 1, 4, "", false},
		{"an English model", vocabOf("the cat sat on mat"), "English", "De kat zat op de mat .", 5, 6, "Dutch", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Foreign(strings.Fields(tc.text), tc.vocab, tc.lang)
			if f.Foreign != tc.foreign || f.Counted != tc.counted || f.Language != tc.language {
				t.Errorf("Foreign = %d of %d, language %q; want %d of %d, %q", f.Foreign, f.Counted, f.Language, tc.foreign, tc.counted, tc.language)
			}
			if got := f.Mostly(); got != tc.mostly {
				t.Errorf("Mostly = %v, want %v", got, tc.mostly)
			}
		})
	}
}

func TestGuessLanguage(t *testing.T) {
	for _, tc := range []struct {
		name, vocab, want string
	}{
		{"Dutch", dutch, "Dutch"},
		{"English", "the of and to a in is that for it with as was on be by at from this are have has not but which model", "English"},
		{"German", "der die und in den von zu das mit sich des auf für ist im nicht ein eine als auch es an dem wird", "German"},
		{"too few function words", "de het een van en boek", ""},
		{"none", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := GuessLanguage(vocabOf(tc.vocab)); got != tc.want {
				t.Errorf("GuessLanguage = %q, want %q", got, tc.want)
			}
		})
	}
}
