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

func TestUnknown(t *testing.T) {
	known := vocabOf(dutch)
	for _, tc := range []struct {
		name             string
		text             string
		unknown, counted int
		mostly           bool
	}{
		{"Dutch", "Hij heeft het boek gisteren aan zijn zus gegeven .", 0, 9, false},
		{"English", "What should I do ?", 3, 3, true},
		{"names left out", "Ik zag Jan Pieterszoon Coen en Piet .", 1, 3, false},
		{"first word counted though capitalised", "Whatever het boek .", 1, 3, false},
		{"numbers and punctuation left out", "1969 , 4,75 ( ) ?", 0, 0, false},
		{"one unknown word is not most", "Hallo", 1, 1, false},
		{"half is not most", "het boek zag gisteren foo bar", 3, 6, false},
		{"English in Dutch", "the model does not know these words at all", 9, 9, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			words := strings.Fields(tc.text)
			unknown, counted := Unknown(words, known)
			if unknown != tc.unknown || counted != tc.counted {
				t.Errorf("Unknown = %d of %d, want %d of %d", unknown, counted, tc.unknown, tc.counted)
			}
			if got := MostlyUnknown(words, known); got != tc.mostly {
				t.Errorf("MostlyUnknown = %v, want %v", got, tc.mostly)
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
