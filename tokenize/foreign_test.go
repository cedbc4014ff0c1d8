package tokenize_test

import (
	"testing"

	"github.com/discspan/discspan/tokenize"
	"github.com/discspan/discspan/weights"
)

// TestForeignShipped measures Foreign with the shipped Dutch model's
// vocabulary on real text: it must warn about nearly all English and
// German sentences and about nearly no Dutch one (the Dutch it does warn
// about are mostly lists of rare nouns: "2 inschatten zorgbehoefte ;").
// The vocabulary alone warned about 23 of the 40 English sentences.
func TestForeignShipped(t *testing.T) {
	def, err := weights.ReadMetaBytes(weights.DefaultBytes(), weights.DefaultName)
	if err != nil {
		t.Fatal(err)
	}
	known, lang := weights.Knows(def.Meta.Vocab), weights.Language(def.Meta)
	if lang != "Dutch" {
		t.Fatalf("the shipped model's language is %q, want Dutch", lang)
	}
	for _, tc := range []struct {
		name  string
		sents func(*testing.T) [][]string
		// the share of sentences warned about, in per cent: at least
		// min, at most max; and the language named in at least named
		// per cent of them.
		min, max, named int
		language        string
	}{
		{"cdb dev", func(t *testing.T) [][]string { return tokenize.ReadExportSentences(t, "dev.export") }, 0, 1, 0, ""},
		{"questions (qa suite)", func(t *testing.T) [][]string { return tokenize.ReadExportSentences(t, "../alpino-suites/qa.export") }, 0, 1, 0, ""},
		{"Dutch UD test", func(t *testing.T) [][]string {
			return tokenize.ReadCoNLLUSentences(t, "ud-dutch-alpino/nl_alpino-ud-test.conllu")
		}, 0, 2, 0, ""},
		{"German UD test", func(t *testing.T) [][]string {
			return tokenize.ReadCoNLLUSentences(t, "ud-german-gsd/de_gsd-ud-test.conllu")
		}, 88, 100, 80, "German"},
		{"English", func(t *testing.T) [][]string { return tokenize.ReadLines(t, "english.txt") }, 90, 100, 85, "English"},
		{"French", func(t *testing.T) [][]string { return tokenize.ReadLines(t, "french.txt") }, 90, 100, 85, "French"},
		{"Spanish", func(t *testing.T) [][]string { return tokenize.ReadLines(t, "spanish.txt") }, 90, 100, 85, "Spanish"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sents := tc.sents(t)
			warned, named := 0, 0
			for _, s := range sents {
				f := tokenize.Foreign(s, known, lang)
				if !f.Mostly() {
					continue
				}
				warned++
				if f.Language == tc.language {
					named++
				}
			}
			share := 100 * float64(warned) / float64(len(sents))
			t.Logf("%d of %d sentences (%.1f%%) warned about, %d of them naming %q", warned, len(sents), share, named, tc.language)
			if share < float64(tc.min) || share > float64(tc.max) {
				t.Errorf("warned about %.1f%% of the sentences, want %d-%d%%", share, tc.min, tc.max)
			}
			if tc.language != "" && 100*named < tc.named*warned {
				t.Errorf("named %s in %d of %d warnings, want at least %d%%", tc.language, named, warned, tc.named)
			}
		})
	}
}
