package tokenize

import (
	"testing"
	"unicode"
)

// checkInvariants checks what holds for every tokenization: tokens are
// non-empty, in order and apart, inside the input, equal to the input slice
// they cover (Tokenize normalises nothing), free of white space, and only
// white space and characters drawn as nothing (see invisible) lie between
// them.
func checkInvariants(t testing.TB, in string, toks []Token) {
	t.Helper()
	prev := 0
	for i, tok := range toks {
		switch {
		case tok.Start < prev || tok.End <= tok.Start || tok.End > len(in):
			t.Fatalf("%q: token %d %+v out of order, empty or outside the input (previous end %d)", in, i, tok, prev)
		case tok.Text != in[tok.Start:tok.End]:
			t.Fatalf("%q: token %d text %q differs from input slice %q", in, i, tok.Text, in[tok.Start:tok.End])
		}
		for _, r := range tok.Text {
			if unicode.IsSpace(r) {
				t.Fatalf("%q: token %d %q holds white space", in, i, tok.Text)
			}
		}
		for _, r := range in[prev:tok.Start] {
			if !isSpace(r) && !invisible(string(r)) {
				t.Fatalf("%q: %q between tokens %d and %d is not white space", in, in[prev:tok.Start], i-1, i)
			}
		}
		prev = tok.End
	}
	for _, r := range in[prev:] {
		if !isSpace(r) && !invisible(string(r)) {
			t.Fatalf("%q: text %q after the last token was dropped", in, in[prev:])
		}
	}
}
