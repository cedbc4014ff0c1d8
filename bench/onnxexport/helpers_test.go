package onnxexport

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/weights"
)

// ortVersion is the pinned onnxruntime-web release (make bench-ort
// installs it).
const ortVersion = "1.30.0"

// ortDir returns the folder whose node_modules holds onnxruntime-web
// ($DISCSPAN_ORT_DIR, else the user cache's discspan/ort, where make
// bench-ort installs it), or "" and why it is not usable.
func ortDir() (string, string) {
	dir := os.Getenv("DISCSPAN_ORT_DIR")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return "", "no user cache directory: " + err.Error()
		}
		dir = filepath.Join(cache, "discspan", "ort")
	}
	pkg, err := os.ReadFile(filepath.Join(dir, "node_modules", "onnxruntime-web", "package.json"))
	if err != nil {
		return "", "onnxruntime-web is not installed in " + dir + " (make bench-ort installs it, or set DISCSPAN_ORT_DIR)"
	}
	if !strings.Contains(string(pkg), `"version": "`+ortVersion+`"`) {
		return "", "the onnxruntime-web in " + dir + " is not version " + ortVersion + " (make bench-ort installs it)"
	}
	return dir, ""
}

// shippedModel returns the first member of the shipped default model (a
// Tiny preset) and its vocabulary.
func shippedModel(tb testing.TB) (*network.Model, *network.Vocab) {
	tb.Helper()
	f, err := weights.Default()
	if err != nil {
		tb.Fatal(err)
	}
	return &network.Model{Params: f.Members[0], Workers: 1}, f.Meta.Vocab
}

// devSentences returns the words of the Alpino dev set's sentences, in
// file order, or skips tb when the treebank is not beside the repository.
func devSentences(tb testing.TB) [][]string {
	tb.Helper()
	p := filepath.Join("..", "..", "..", "shared", "data", "alpino-cdb", "dev.punctmoved.discbracket")
	f, err := os.Open(p)
	if err != nil {
		tb.Skipf("treebank not found at %s (../shared/data beside the repository): %v", p, err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		trees, err := treebank.ReadAll(strings.NewReader(sc.Text()), p, treebank.Discbracket)
		if err != nil || len(trees) != 1 {
			tb.Fatalf("%s: line %d: %v", p, len(out)+1, err)
		}
		out = append(out, trees[0].Words())
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// firstWords returns, for each n, the first n words of the first of
// sents with at least n words.
func firstWords(tb testing.TB, sents [][]string, ns ...int) [][]string {
	tb.Helper()
	out := make([][]string, len(ns))
	for i, n := range ns {
		for _, s := range sents {
			if len(s) >= n {
				out[i] = s[:n]
				break
			}
		}
		if out[i] == nil {
			tb.Fatalf("no dev sentence of %d words", n)
		}
	}
	return out
}

// feedsJSON is the JSON form of Feeds that testdata's scripts read.
type feedsJSON struct {
	Words    []string `json:"words,omitempty"`
	Tokens   int      `json:"tokens"`
	Chars    int      `json:"chars"`
	WordIDs  []int64  `json:"word_ids"`
	CharIDs  []int64  `json:"char_ids"`
	CharLens []int32  `json:"char_lens"`
}

func toJSON(words []string, f Feeds) feedsJSON {
	return feedsJSON{Words: words, Tokens: f.Tokens, Chars: f.Chars, WordIDs: f.WordIDs, CharIDs: f.CharIDs, CharLens: f.CharLens}
}
