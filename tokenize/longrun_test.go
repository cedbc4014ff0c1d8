package tokenize

import (
	"strings"
	"testing"
)

// TestLongRuns feeds long runs of marks without white space and checks the
// token invariants on them (BenchmarkLongRun measures that the scanner stays
// linear on such input).
func TestLongRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("long inputs")
	}
	const n = 1 << 18
	for _, unit := range []string{
		"(", ")", "\"", "'", "-.", ".-", "a.", "a-", "x)", "(x", "'s", ".", ",a", "\"a", "a\"-",
		"http://x.nl/" + strings.Repeat(")", 3),
	} {
		in := strings.Repeat(unit, n/len(unit))
		for _, lang := range []Language{Dutch, English} {
			tk := Tokenizer{Lang: lang}
			checkInvariants(t, in, tk.Tokenize(in))
			tk.Sentences(in)
		}
	}
}

// BenchmarkLongRun tokenizes 256 KB of closing brackets: a quadratic scanner
// would take minutes here.
func BenchmarkLongRun(b *testing.B) {
	in := strings.Repeat(")", 1<<18)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		Tokenize(in)
	}
}
