package parser

import (
	"fmt"
	"unicode/utf8"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
)

// CheckFits reports (wrapping decode.ErrTooLong) a sentence of n words
// whose span scores or chart for variant v would exceed the decoders'
// memory budget (p.Decode.MaxBytes); with no word limit (MaxWords
// negative) it is what keeps a huge sentence from exhausting memory. It
// allocates nothing.
func (p *Parser) CheckFits(n int, v decode.Variant) error {
	return p.Decode.Fits(v, n, len(p.Vocab.Labels))
}

// CheckWords reports why a sentence cannot be parsed: more words than
// p.MaxWords (a *tree.LengthError; the network's and the decoder's memory
// grow with the square of the length and faster), or a word that is not
// valid UTF-8 (the vocabulary reads words as characters). It allocates
// nothing; callers check before scoring.
func (p *Parser) CheckWords(words []string) error {
	if err := tree.CheckLength(len(words), p.MaxWords); err != nil {
		return err
	}
	for i, w := range words {
		if !utf8.ValidString(w) {
			return fmt.Errorf("word %d (%q) is not valid UTF-8", i+1, w)
		}
	}
	return nil
}
