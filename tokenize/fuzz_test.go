package tokenize

import (
	"testing"
	"unicode/utf8"
)

// FuzzTokenize checks the invariants of checkInvariants for both languages,
// that Words gives the token texts, that Sentences partitions the tokens,
// and that the sentences of a text are those of its Paragraphs.
// Seeds are in testdata/fuzz/FuzzTokenize.
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{
		"",
		"Hij zei: \"'t Is 4,75 pct.\" Toen ging hij.",
		"Don't stop. John's auto's, z'n m'n 's morgens 's-Gravenhage.",
		"zie http://www.rug.nl/x?y=(1). Of mail jan@rug.nl!",
		"1. de (werk)dag; \"proef\"-ballon enz.. A.. o.a. v.Chr.",
		"Het steeg 4,6 pct.\"\n \n) en 12.\r\n\r\n'Ja",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, lang := range []Language{Dutch, English} {
			tk := Tokenizer{Lang: lang}
			toks := tk.Tokenize(in)
			checkInvariants(t, in, toks)
			words := tk.Words(in)
			if len(words) != len(toks) {
				t.Fatalf("%v: Words gives %d words, Tokenize %d tokens", lang, len(words), len(toks))
			}
			for i := range words {
				if words[i] != toks[i].Text {
					t.Fatalf("%v: word %d %q, token %q", lang, i, words[i], toks[i].Text)
				}
			}
			n := 0
			for _, s := range tk.Sentences(in) {
				if len(s) == 0 {
					t.Fatalf("%v: empty sentence", lang)
				}
				for _, tok := range s {
					if n >= len(toks) || tok != toks[n] {
						t.Fatalf("%v: sentences do not partition the tokens at %d", lang, n)
					}
					n++
				}
			}
			if n != len(toks) {
				t.Fatalf("%v: sentences hold %d of %d tokens", lang, n, len(toks))
			}
			if d := samePerParagraph(tk, in); d != "" {
				t.Fatalf("%v: the sentences of the text are not those of its paragraphs: %s", lang, d)
			}
			if utf8.ValidString(in) {
				for _, tok := range toks {
					if !utf8.ValidString(tok.Text) {
						t.Fatalf("%v: token %q of valid input is not valid UTF-8", lang, tok.Text)
					}
				}
			}
		}
	})
}
