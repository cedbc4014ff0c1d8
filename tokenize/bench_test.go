package tokenize

import (
	"strings"
	"testing"
)

// trainText returns the raw text of the train set: each sentence
// detokenized, one per line.
func trainText(tb testing.TB) string {
	sents := readExportSentences(tb, "train.export")
	lines := make([]string, len(sents))
	for i, s := range sents {
		lines[i] = detokenize(s)
	}
	return strings.Join(lines, "\n")
}

func BenchmarkTokenizeTrain(b *testing.B) {
	text := trainText(b)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Tokenize(text)
	}
}

func BenchmarkSentencesTrain(b *testing.B) {
	text := trainText(b)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Sentences(text)
	}
}

func BenchmarkTokenizeSentence(b *testing.B) {
	const text = `De heer T. Boering (56) uit Eelde zei: "'t Is 4,75 pct. meer dan bijv. in 1969, o.a. door z'n auto's."`
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Tokenize(text)
	}
}
