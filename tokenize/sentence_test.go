package tokenize

import (
	"slices"
	"strconv"
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
		{"amount abbreviation before a sentence", Dutch, "De rente steeg 4,75 pct. Op de beurs bleef het stil.", []string{"De rente steeg 4,75 pct .", "Op de beurs bleef het stil ."}},
		{"amount abbreviation before a name", Dutch, "Er kwamen 2 mln. Nederlanders en 8 pct. BNG-obligaties.", []string{"Er kwamen 2 mln. Nederlanders en 8 pct. BNG-obligaties ."}},
		{"amount abbreviation before lower case", Dutch, "Het steeg 3 pct. op de beurs.", []string{"Het steeg 3 pct. op de beurs ."}},
		{"a number after a colon is an answer", Dutch, "Het antwoord: 42. Daarna niets.", []string{"Het antwoord : 42 .", "Daarna niets ."}},
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
		{"lone CR", Dutch, "een regel\rdie doorloopt", []string{"een regel die doorloopt"}},
		{"blank line of lone CRs", Dutch, "Een kop\r\rA. Jansen zei", []string{"Een kop", "A. Jansen zei"}},
		{"paragraph separator", Dutch, "Een kop\u2029A. Jansen zei", []string{"Een kop", "A. Jansen zei"}},
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

// samePerParagraph reports the first difference between the sentences of
// text and those of its paragraphs one after another, or "".
func samePerParagraph(tk Tokenizer, text string) string {
	whole := sentenceStrings(tk.Sentences(text))
	var parts []string
	for _, p := range Paragraphs(text) {
		parts = append(parts, sentenceStrings(tk.Sentences(p))...)
	}
	for i := range max(len(whole), len(parts)) {
		var w, p string
		if i < len(whole) {
			w = whole[i]
		}
		if i < len(parts) {
			p = parts[i]
		}
		if w != p || i >= len(whole) || i >= len(parts) {
			return "sentence " + strconv.Itoa(i+1) + ": whole text " + strconv.Quote(w) + ", paragraphs " + strconv.Quote(p)
		}
	}
	return ""
}

// TestParagraphs: Paragraphs cuts at blank lines only, and the sentences of
// a text are those of its paragraphs, also where what ends a paragraph
// would go with what begins the next were there no blank line between
// (an abbreviation, an enumeration number, a closing bracket, an opening
// quote, a single quote left open).
func TestParagraphs(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", []string{""}},
		{"een\ntwee", []string{"een\ntwee"}},
		{"een\n\ntwee", []string{"een", "twee"}},
		{"een \r\n \t\r\n\n  twee\n", []string{"een ", "twee\n"}},
		{"\n\neen", []string{"", "een"}},
		{"een\n\u00a0\ntwee\n\n", []string{"een", "twee", ""}},
		// Other line ends: a lone CR (old Mac files), NEL and U+2028 are
		// one line break, CR LF too, the paragraph separator U+2029 a
		// blank line.
		{"een\r\rtwee", []string{"een", "twee"}},
		{"een\r\ntwee\r\n\r\ndrie", []string{"een\r\ntwee", "drie"}},
		{"een\u2029twee", []string{"een", "twee"}},
		{"een\u2028twee\u0085drie", []string{"een\u2028twee\u0085drie"}},
		{"een\u2028 \u2028twee", []string{"een", "twee"}},
	} {
		if got := Paragraphs(c.in); strings.Join(got, "|") != strings.Join(c.want, "|") || len(got) != len(c.want) {
			t.Errorf("Paragraphs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		name, in string
		want     []string
	}{
		{"mid abbreviation before a blank line", "Het steeg 4,6 pct.\n\nDaarna niet.", []string{"Het steeg 4,6 pct .", "Daarna niet ."}},
		{"enumeration number alone", "Hoofdstuk 3.\n\nDe inleiding.", []string{"Hoofdstuk 3 .", "De inleiding ."}},
		{"closing bracket after a blank line", "Hij ging.\n\n) en toen", []string{"Hij ging .", ") en toen"}},
		{"closing brackets on both sides of a blank line", "Hij ging. )\n\n) De rest.", []string{"Hij ging . )", ") De rest ."}},
		{"enumeration number before a blank line", "Eerst dit.\n3.\n\nDe rest.", []string{"Eerst dit .", "3 .", "De rest ."}},
		{"opening bracket before a blank line", "Hij ging. (\n\nDe rest.", []string{"Hij ging . (", "De rest ."}},
		{"quote left open", "Hij zei: \" ja .\n\nNee . \" Zo .", []string{"Hij zei : \" ja .", "Nee .", "\" Zo ."}},
		{"single quote left open", "'Ja\n\nnee' zei hij", []string{"' Ja", "nee' zei hij"}}, // an apostrophe: the quote closed at the blank line
	} {
		t.Run(c.name, func(t *testing.T) {
			got := sentenceStrings(Tokenizer{}.Sentences(c.in))
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") || len(got) != len(c.want) {
				t.Errorf("Sentences(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
			if d := samePerParagraph(Tokenizer{}, c.in); d != "" {
				t.Errorf("%q: %s", c.in, d)
			}
		})
	}
	// Real text: the dev sentences of the treebank, as running text, cut
	// into paragraphs of 1 to 7 sentences by blank lines of several kinds.
	units := readExportSentences(t, "dev.export")
	var b strings.Builder
	gaps := []string{"\n\n", "\r\n\r\n", "\n \n", "\n\t\n\n"}
	for i, u := range units {
		b.WriteString(detokenize(u))
		if i%7 == 3 || i%5 == 0 {
			b.WriteString(gaps[i%len(gaps)])
		} else {
			b.WriteString(" ")
		}
	}
	for _, lang := range []Language{Dutch, English} {
		if d := samePerParagraph(Tokenizer{Lang: lang}, b.String()); d != "" {
			t.Errorf("dev as text, %v: %s", lang, d)
		}
	}
}

// TestLines: Lines breaks at each line end the tokenizer knows, as
// Paragraphs and Sentences do.
func TestLines(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"een", []string{"een"}},
		{"een\ntwee\n", []string{"een", "twee"}},
		{"een\r\ntwee\rdrie", []string{"een", "twee", "drie"}},
		{"een\n\ntwee", []string{"een", "", "twee"}},
		{"een\u0085twee\u2028drie", []string{"een", "twee", "drie"}},
		{"een\u2029twee", []string{"een", "", "twee"}},
		{"\r\r\n", []string{"", ""}},
		{"één\u00a0twee", []string{"één\u00a0twee"}},
	} {
		if got := Lines(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Lines(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
