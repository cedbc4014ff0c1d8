package tokenize

import (
	"strings"
	"testing"
)

// sentenceStrings renders sentences as their tokens joined by spaces.
func sentenceStrings(sents [][]Token) []string {
	out := make([]string, len(sents))
	for i, s := range sents {
		words := make([]string, len(s))
		for k, tok := range s {
			words[k] = tok.Text
		}
		out[i] = strings.Join(words, " ")
	}
	return out
}

func TestSentences(t *testing.T) {
	cases := []struct {
		name string
		lang Language
		in   string
		want []string // sentences, tokens joined by spaces
	}{
		{"full stop and capital", Dutch, "Hij komt. Zij gaat.", []string{"Hij komt .", "Zij gaat ."}},
		{"question and exclamation", Dutch, "Komt hij? Ja! Goed.", []string{"Komt hij ?", "Ja !", "Goed ."}},
		{"lower case goes on", Dutch, "Hij komt. en zij", []string{"Hij komt . en zij"}},
		{"no space is no boundary", Dutch, "Amsterdam.Dat", []string{"Amsterdam.Dat"}},
		{"full-width marks", Dutch, "你好，世界。我很好！", []string{"你好 ， 世界 。", "我很好 ！"}},
		{"full-width closing bracket goes with the sentence", Dutch, "他说「好。」我走了。", []string{"他说 「 好 。 」", "我走了 。"}},
		{"end of text without mark", Dutch, "Hij komt. Zij", []string{"Hij komt .", "Zij"}},
		{"digit starts a sentence", Dutch, "Dat was in 1969. 1970 was beter.", []string{"Dat was in 1969 .", "1970 was beter ."}},
		{"enumeration", Dutch, "Eerst dit. 2. op grond daarvan.", []string{"Eerst dit .", "2. op grond daarvan ."}},
		{"title does not end", Dutch, "Hij sprak met dr. Jansen en mr. J. de Vries.", []string{"Hij sprak met dr. Jansen en mr. J. de Vries ."}},
		{"initials do not end", Dutch, "Door J. F. Kennedy. Daarna", []string{"Door J. F. Kennedy .", "Daarna"}},
		{"mid abbreviation before capital", Dutch, "o.a. Amsterdam en bijv. Utrecht", []string{"o.a. Amsterdam en bijv. Utrecht"}},
		{"abbreviation that may end", Dutch, "Boeken, kranten etc. De rest niet.", []string{"Boeken , kranten etc.", "De rest niet ."}},
		{"acronyms are no abbreviations", Dutch, "Hij woont in de VS. Hij werkt bij ING. Zij bij de SEC. Dr. Jansen ook.", []string{"Hij woont in de VS .", "Hij werkt bij ING .", "Zij bij de SEC .", "Dr. Jansen ook ."}},
		{"abbreviation that may end before a number", Dutch, "sinds mei jl. 5 keer", []string{"sinds mei jl. 5 keer"}},
		{"closing quote goes with the sentence", Dutch, `Hij zei: "Ik kom." Toen ging hij.`, []string{`Hij zei : " Ik kom . "`, "Toen ging hij ."}},
		{"opening quote starts the next", Dutch, `Hij ging. "Ik kom," zei hij.`, []string{"Hij ging .", `" Ik kom , " zei hij .`}},
		{"spaced quotes alternate", Dutch, `Hij zei : " Ik kom . " Toen ging hij . " Nee . "`, []string{`Hij zei : " Ik kom . "`, "Toen ging hij .", `" Nee . "`}},
		{"closing bracket goes with the sentence", Dutch, "(Zie boven.) Dan verder.", []string{"( Zie boven . )", "Dan verder ."}},
		{"ellipsis", Dutch, "Nou... Misschien wel.", []string{"Nou ...", "Misschien wel ."}},
		{"ellipsis before lower case", Dutch, "Nou... misschien wel.", []string{"Nou ... misschien wel ."}},
		{"repeated marks", Dutch, "Wat?! Echt?", []string{"Wat ? !", "Echt ?"}},
		{"elision start", Dutch, "Het regent. 's Avonds niet. 't Is koud.", []string{"Het regent .", "'s Avonds niet .", "'t Is koud ."}},
		{"dash start", Dutch, "Hij ging. - En toen?", []string{"Hij ging .", "- En toen ?"}},
		{"blank line", Dutch, "Een kop\n\nDe tekst begint", []string{"Een kop", "De tekst begint"}},
		{"single line break", Dutch, "een regel\ndie doorloopt", []string{"een regel die doorloopt"}},
		{"English titles", English, "Mr. Smith met Dr. Jones. They talked.", []string{"Mr. Smith met Dr. Jones .", "They talked ."}},
		{"English company at end", English, "He works at Apple Inc. The company grew.", []string{"He works at Apple Inc.", "The company grew ."}},
		{"English clitics", English, "It's late. Don't go.", []string{"It 's late .", "Do n't go ."}},
		{"empty", Dutch, "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := sentenceStrings(Tokenizer{Lang: c.lang}.Sentences(c.in))
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") || len(got) != len(c.want) {
				t.Errorf("Sentences(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
		})
	}
}

func TestSentencesCoverTokens(t *testing.T) {
	in := "Hij zei: \"Ik kom.\" Toen ging hij. (Zie boven.) 1. dit\n\nKop"
	var flat []Token
	for _, s := range Sentences(in) {
		if len(s) == 0 {
			t.Fatal("empty sentence")
		}
		flat = append(flat, s...)
	}
	toks := Tokenize(in)
	if len(flat) != len(toks) {
		t.Fatalf("sentences hold %d tokens, Tokenize gives %d", len(flat), len(toks))
	}
	for i := range toks {
		if flat[i] != toks[i] {
			t.Fatalf("token %d: %+v in sentences, %+v from Tokenize", i, flat[i], toks[i])
		}
	}
}

func TestPackageFunctions(t *testing.T) {
	in := "Don't stop. John's auto's"
	if got, want := strings.Join(Words(in), " "), strings.Join(Tokenizer{}.Words(in), " "); got != want {
		t.Errorf("Words = %q, Tokenizer{}.Words = %q", got, want)
	}
	if got := len(Sentences(in)); got != 2 {
		t.Errorf("Sentences gives %d sentences, want 2", got)
	}
	if got := len(Tokenize(in)); got != 6 {
		t.Errorf("Tokenize gives %d tokens, want 6: %v", got, Words(in))
	}
}
