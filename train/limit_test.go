package train

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/internal/bankfile"
)

// TestMaxWords: a training or dev sentence over the word limit stops the
// run before any example is built, naming the file and the sentence.
func TestMaxWords(t *testing.T) {
	dir := t.TempDir()
	small := shortSentences(t, dir, 12, 15)
	trees, err := treebank.ReadFile(small)
	if err != nil {
		t.Fatal(err)
	}
	flat := &tree.Tree{ID: "long", Nodes: []tree.Node{{Label: "S", Parent: tree.Root}}}
	for range tree.DefaultMaxWords + 1 {
		flat.Tokens = append(flat.Tokens, tree.Token{Word: "w", Tag: "N", Parent: 0})
	}
	withLong := filepath.Join(dir, "long.discbracket")
	if err := bankfile.Write(withLong, append(trees[:5:5], flat), bankfile.Options{}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		train, dev string
		maxWords   int
		want       string // part of the error; "" for none
	}{
		{"long training sentence", withLong, small, 0, "long.discbracket: sentence 6 (id 6): sentence of 301 words: longer than the limit of 300 words"},
		{"long dev sentence", small, withLong, 0, "long.discbracket: sentence 6 (id 6)"},
		{"own limit", small, "", 3, "small.discbracket: sentence 1"},
		{"within the limit", small, small, 15, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(context.Background(), Options{Train: tc.train, Dev: tc.dev, Out: filepath.Join(t.TempDir(), "w.safetensors"),
				Config: smallConfig(), Epochs: 1, Seed: 1, MaxWords: tc.maxWords, Workers: 1})
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}
