package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/parser/parsertest"
	"github.com/discspan/discspan/weights"
)

// TestParseRefuses: a sentence over the word limit, one whose scores or
// chart would not fit the memory budget (with no word limit), a line that
// is not UTF-8, a parse the output format cannot hold or a malformed tree
// is refused and named; a sentence refused for its length gets a flat
// NOPARSE tree (one the readers take: 20,000 words is left out, and
// counted once), the others a blank output, so that the output lines up with
// the input; the other sentences are parsed and written, and the command
// exits with status 2 at the end.
func TestParseRefuses(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("woord ", 3000)
	text := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(text, []byte("Het bulletin sluit aan op de brief.\n"+long+"\nDe bis\xffschoppen.\nZij gaven hem uit.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.txt")
	if err := os.WriteFile(huge, []byte("Het bulletin sluit aan op de brief.\n"+strings.Repeat("woord ", 20000)+"\nZij gaven hem uit.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hashes := filepath.Join(dir, "hash.txt")
	if err := os.WriteFile(hashes, []byte("Eerste zin.\nHij staat op #1 in de hitlijst.\nDerde zin.\nWat is #BOS ?\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	poisoned := filepath.Join(dir, "in.discbracket")
	lines := poisonedLines(t, 4)
	if err := os.WriteFile(poisoned, []byte(lines[1]+lines[0]+lines[2]+lines[3]), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    []string
		ids     []string // the sentences written, by #BOS id (the line number for text)
		flat    int      // words written as flat NOPARSE trees
		refused []string // parts of the error
	}{
		{"text", []string{"--input", text}, []string{"1", "2", "4"}, 3000,
			[]string{"2 sentence(s) refused", "in.txt:2: sentence of 3000 words: longer than the limit of 300 words", "in.txt:3:7: invalid UTF-8"}},
		{"text, own limit", []string{"--input", text, "--max-words", "5"}, []string{"1", "2", "4"}, 8 + 3000,
			[]string{"3 sentence(s) refused", "in.txt:1: sentence of 8 words: longer than the limit of 5 words"}},
		{"words export cannot hold", []string{"--input", hashes}, []string{"1", "3"}, 0,
			[]string{"2 sentence(s) refused", `hash.txt:2: token 3: word "#1": reads as a node number`, `hash.txt:4: token 2: word "#BOS": reads as a sentence boundary`}},
		{"treebank", []string{"--input", poisoned}, []string{"1", "3", "4"}, 0,
			[]string{"1 sentence(s) refused", "in.discbracket:2:", "invalid UTF-8 (byte 0xff)"}},
		{"text, no word limit", []string{"--input", huge, "--max-words", "-1"}, []string{"1", "3"}, 0,
			[]string{"1 sentence(s) refused", "huge.txt:2: 20000 words and", "MiB of span scores, budget 1024 MiB", "(left out: more than 10000 tokens, the readers' limit, even for a flat tree)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, status := runCmd(append([]string{"parse", "--format", "export"}, tc.args...)...)
			if status != 2 {
				t.Errorf("status %d, want 2", status)
			}
			for _, want := range tc.refused {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr %q, want %q", stderr, want)
				}
			}
			var ids []string
			for _, l := range strings.Split(out, "\n") {
				if id, ok := strings.CutPrefix(l, "#BOS "); ok {
					ids = append(ids, strings.Fields(id)[0])
				}
			}
			if strings.Join(ids, " ") != strings.Join(tc.ids, " ") {
				t.Errorf("sentences written %v, want %v", ids, tc.ids)
			}
			if flat := strings.Count(out, "\tNOPARSE\t"); flat != tc.flat {
				t.Errorf("%d words in flat trees, want %d", flat, tc.flat)
			}
		})
	}
}

// TestParseRefusedScores: parse's output for a treebank of which some
// sentences are refused (here over --max-words 12) still has a tree per
// sentence, so eval scores it against the gold trees, counting the
// refused sentences' constituents as missed.
func TestParseRefusedScores(t *testing.T) {
	lines, err := os.ReadFile(dataPath(t, "dev.punctmoved.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	gold := filepath.Join(t.TempDir(), "gold.discbracket")
	first := strings.SplitAfterN(string(lines), "\n", 31)[:30]
	if err := os.WriteFile(gold, []byte(strings.Join(first, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, status := runCmd("parse", "--input", gold, "--max-words", "12")
	if status != 2 || !strings.Contains(stderr, "longer than the limit of 12 words") {
		t.Fatalf("parse: status %d, %s", status, stderr)
	}
	pred := filepath.Join(filepath.Dir(gold), "pred.discbracket")
	if err := os.WriteFile(pred, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	report, stderr, status := runCmd("eval", gold, pred)
	if status != 0 || !strings.Contains(report, "number of sentences:") {
		t.Fatalf("eval: status %d, %s%s", status, stderr, report)
	}
	var n []string
	for _, l := range strings.Split(report, "\n") {
		if f, ok := strings.CutPrefix(l, "number of sentences:"); ok {
			n = strings.Fields(f)
			break
		}
	}
	if len(n) == 0 || n[len(n)-1] != "30" {
		t.Errorf("eval scored %v sentences, want 30:\n%s", n, report)
	}
}

// TestParseRefusedCount: every refused sentence is counted, those the
// reader refuses (lines that are not UTF-8) and those parse refuses (too
// long) alike, and the first ten are named.
func TestParseRefusedCount(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in.txt")
	text := "Ja .\n" + strings.Repeat("caf\xe9 .\n", 12) + strings.Repeat("een twee drie vier .\n", 3)
	if err := os.WriteFile(in, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, status := runCmd("parse", "--input", in, "--max-words", "3")
	if status != 2 || !strings.Contains(stderr, "15 sentence(s) refused") || !strings.Contains(stderr, "; and 5 more") ||
		strings.Count(stderr, "invalid UTF-8") != 10 {
		t.Errorf("status %d, stderr %q; want 15 refused, ten named", status, stderr)
	}
	if lines := strings.Count(out, "\n"); lines != 16 {
		t.Errorf("%d output lines, want one per input line (16)", lines)
	}
}

// TestParseErrorNamesTheLine: a sentence the decoder cannot parse (a model
// whose scores are not finite) is named by its file and line, not by its
// place among the sentences sent to the parser (which leaves out blank
// lines).
func TestParseErrorNamesTheLine(t *testing.T) {
	f, err := weights.Read(parsertest.Model(t, 1), "test")
	if err != nil {
		t.Fatal(err)
	}
	b := f.Params.Get("cont.label.biaffine")
	for i := range b.Data {
		b.Data[i] = float32(3e38 * float64(1-2*(i%2)))
	}
	dir := t.TempDir()
	model := filepath.Join(dir, "inf.safetensors")
	if err := weights.WriteFile(model, f.Params, f.Meta, weights.Float32); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(in, []byte("\n"+strings.Join(parsertest.Sentences[0], " ")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, status := runCmd("parse", "--weights", model, "--input", in, "--tokenized")
	if status == 0 || !strings.Contains(stderr, "in.txt:2: ") {
		t.Errorf("status %d, %q; want an error naming in.txt:2, the sentence's line", status, stderr)
	}
}
