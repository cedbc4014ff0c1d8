package tokenize

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dataDir holds the shared treebanks, beside the repository.
const dataDir = "../../shared/data/alpino-cdb"

// readExportSentences returns the gold tokens of each sentence of a NEGRA
// export file: the first field of the token lines between "#BOS" and "#EOS"
// (node lines "#5xx" and comment lines are left out).
func readExportSentences(t testing.TB, name string) [][]string {
	t.Helper()
	f := openData(t, filepath.Join(dataDir, name))
	defer f.Close()
	var sents [][]string
	var cur []string
	in := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#BOS"):
			cur, in = nil, true
		case strings.HasPrefix(line, "#EOS"):
			sents = append(sents, cur)
			in = false
		case !in || strings.HasPrefix(line, "%%") || isNodeLine(line):
		default:
			word, _, _ := strings.Cut(line, "\t")
			cur = append(cur, word)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return sents
}

// openData opens a file of the shared data, or skips the test when it is
// not there.
func openData(t testing.TB, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			t.Skipf("treebank data not found at %s (it lives in ../shared/data beside the repository): %v", path, err)
		}
		t.Fatal(err)
	}
	return f
}

// isNodeLine reports whether an export line is a phrasal node ("#500 ...").
func isNodeLine(line string) bool {
	return len(line) > 1 && line[0] == '#' && line[1] >= '0' && line[1] <= '9'
}

// detokenize joins gold tokens the way raw text would show them: with
// spaces, except before , . ) : ; ! ? and after (.
func detokenize(words []string) string {
	var b strings.Builder
	glue := true
	for _, w := range words {
		if !glue && !attachesLeft(w) {
			b.WriteByte(' ')
		}
		b.WriteString(w)
		glue = w == "("
	}
	return b.String()
}

// attachesLeft reports whether a token is written against the one before.
func attachesLeft(w string) bool {
	switch w {
	case ",", ".", ")", ":", ";", "!", "?":
		return true
	}
	return false
}

// detokenizeQuotes goes further than detokenize, closer to edited text:
// ellipses attach to the word before, and straight double quotes are glued
// to the text they enclose. A '"' that ends the sentence closes a quotation
// and one that starts it opens one (quotations may run over several
// sentences); the others alternate.
func detokenizeQuotes(words []string) string {
	var b strings.Builder
	glue := true
	open := false
	for i, w := range words {
		left := attachesLeft(w) || strings.Trim(w, ".") == "" && len(w) > 1
		if w == "\"" {
			switch {
			case i == len(words)-1:
				open = false
				left = true
			case i == 0:
				open = true
			default:
				left = open
				open = !open
			}
		}
		if !glue && !left {
			b.WriteByte(' ')
		}
		b.WriteString(w)
		glue = w == "(" || w == "\"" && open
	}
	return b.String()
}

// reproduce tokenizes each detokenized sentence and returns the share that
// gives back the gold tokens exactly, and the failures.
func reproduce(sents [][]string, detok func([]string) string) (float64, []string) {
	var fails []string
	for _, gold := range sents {
		text := detok(gold)
		got := Words(text)
		if !equalWords(got, gold) {
			fails = append(fails, "text: "+text+"\n  got:  "+strings.Join(got, " | ")+"\n  gold: "+strings.Join(gold, " | "))
		}
	}
	return 100 * float64(len(sents)-len(fails)) / float64(len(sents)), fails
}

func equalWords(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestTreebankReproduction(t *testing.T) {
	cases := []struct {
		file string
		min  float64 // lowest share of sentences reproduced exactly, in %
	}{
		{"train.export", 97},
		{"dev.export", 96},
		// The Alpino suites (../alpino-suites): questions (qa,
		// qtleap1q), and other genres; i_suite and ovis hold spelled-out
		// words and speech markers ("<@>"), which no raw text has.
		{"../alpino-suites/qa.export", 99},
		{"../alpino-suites/qtleap1q.export", 99},
		{"../alpino-suites/eans.export", 99},
		{"../alpino-suites/extra.export", 99},
		{"../alpino-suites/g_suite.export", 99},
		{"../alpino-suites/h_suite.export", 99},
		{"../alpino-suites/j_suite.export", 99},
		{"../alpino-suites/wpspel.export", 99},
		{"../alpino-suites/i_suite.export", 96},
		{"../alpino-suites/ovis.export", 90},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			sents := readExportSentences(t, c.file)
			pct, fails := reproduce(sents, detokenize)
			pctQ, failsQ := reproduce(sents, detokenizeQuotes)
			t.Logf("%s: %d sentences, %.2f%% reproduced exactly (%d differ); with glued quotes and ellipses %.2f%% (%d differ)",
				c.file, len(sents), pct, len(fails), pctQ, len(failsQ))
			if testing.Verbose() || pct < c.min {
				for _, f := range fails {
					t.Log(f)
				}
			}
			if pct < c.min {
				t.Errorf("%.2f%% of %s reproduced, want >= %.0f%%", pct, c.file, c.min)
			}
		})
	}
}

// mergeUnits merges each gold sentence that does not end in a full stop,
// "!", "?", an ellipsis or an abbreviation (but for closing quotation marks
// and brackets) with the sentences after it: the treebank also ends
// sentences at ":" and ";", which raw text gives no sign of.
func mergeUnits(sents [][]string) [][]string {
	var units [][]string
	var cur []string
	for _, s := range sents {
		cur = append(cur, s...)
		last := ""
		for k := len(s) - 1; k >= 0; k-- {
			if w := s[k]; w != "\"" && w != ")" && w != "'" {
				last = w
				break
			}
		}
		if strings.HasSuffix(last, ".") || last == "!" || last == "?" {
			units = append(units, cur)
			cur = nil
		}
	}
	if cur != nil {
		units = append(units, cur)
	}
	return units
}

// sentenceRecovery joins the sentences, detokenized by detok, into
// paragraphs of size sentences each and returns the share of gold sentences that Sentences
// gives back exactly (same tokens, same boundaries), with a few misses.
func sentenceRecovery(sents [][]string, size int, detok func([]string) string) (float64, []string) {
	found, total := 0, 0
	var misses []string
	for i := 0; i < len(sents); i += size {
		group := sents[i:min(i+size, len(sents))]
		texts := make([]string, len(group))
		gold := map[string]int{}
		for j, g := range group {
			texts[j] = detok(g)
			gold[strings.Join(g, " ")]++
		}
		total += len(group)
		for _, s := range Sentences(strings.Join(texts, " ")) {
			words := make([]string, len(s))
			for k, tok := range s {
				words[k] = tok.Text
			}
			key := strings.Join(words, " ")
			if gold[key] > 0 {
				found++
				gold[key]--
			} else if len(misses) < 60 {
				misses = append(misses, key)
			}
		}
	}
	return 100 * float64(found) / float64(total), misses
}

func TestTreebankSentences(t *testing.T) {
	for _, c := range []struct {
		file string
		min  float64
	}{
		{"train.export", 97},
		{"dev.export", 96},
		// The questions of the Alpino suites, which begin with a capital
		// and end with a mark; the other suites' sentences mostly do not
		// (lists of phrases, speech), so text gives no sign where they end.
		{"../alpino-suites/qa.export", 99},
		{"../alpino-suites/qtleap1q.export", 98},
	} {
		t.Run(c.file, func(t *testing.T) {
			units := mergeUnits(readExportSentences(t, c.file))
			pct, misses := sentenceRecovery(units, 20, detokenizeQuotes)
			pctS, _ := sentenceRecovery(units, 20, detokenize)
			t.Logf("%s: %.2f%% of %d sentences (ending in . ! ? or an abbreviation) split off exactly from paragraphs of 20 (%.2f%% with spaced quotes)",
				c.file, pct, len(units), pctS)
			if testing.Verbose() || pct < c.min {
				for _, m := range misses {
					t.Log("miss: " + m)
				}
			}
			if pct < c.min {
				t.Errorf("%.2f%% of the sentences of %s recovered, want >= %.0f%%", pct, c.file, c.min)
			}
		})
	}
}
