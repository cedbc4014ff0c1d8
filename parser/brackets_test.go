package parser

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

// TestParenthesesAsEscapes parses the dev sentences that hold -LRB- with
// the shipped fast model twice: as the treebank writes them (-LRB-, -RRB-)
// and as a user types them (( and ), inside words too). The network must
// read both alike, so the trees (labels, spans and tags) are the same; the
// words stay as given.
func TestParenthesesAsEscapes(t *testing.T) {
	const (
		dev     = "../../shared/data/alpino-cdb/dev.discbracket"
		weights = "../weights/fast.safetensors"
	)
	for _, f := range []string{dev, weights} {
		if _, err := os.Stat(f); err != nil {
			t.Skipf("%s absent (%v): skipping", f, err)
		}
	}
	gold, err := treebank.ReadFile(dev)
	if err != nil {
		t.Fatal(err)
	}
	unescape := strings.NewReplacer("-LRB-", "(", "-RRB-", ")")
	var escaped, plain [][]string
	for _, g := range gold {
		words := g.Words()
		if !slices.ContainsFunc(words, func(w string) bool { return strings.Contains(w, "-LRB-") }) {
			continue
		}
		typed := make([]string, len(words))
		for i, w := range words {
			typed[i] = unescape.Replace(w)
		}
		escaped, plain = append(escaped, words), append(plain, typed)
	}
	if len(escaped) != 37 {
		t.Fatalf("%d dev sentences hold -LRB-, want 37", len(escaped))
	}
	p, err := Load(weights)
	if err != nil {
		t.Fatal(err)
	}
	want, err := p.ParseBatch(escaped, decode.N3, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.ParseBatch(plain, decode.N3, 0)
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	for i := range plain {
		if !slices.Equal(got[i].Tree.Words(), plain[i]) {
			t.Errorf("sentence %d: tree words %q, want the input's %q", i, got[i].Tree.Words(), plain[i])
		}
		g, w := wordless(t, got[i].Tree), wordless(t, want[i].Tree)
		if g != w {
			differ++
			t.Errorf("sentence %q:\nwith ( ):     %s\nwith -LRB-: %s", strings.Join(plain[i], " "), g, w)
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d trees differ", differ, len(plain))
	}
}

// wordless returns the discbracket line of a tree with each word replaced
// by its position: its labels, spans and tags.
func wordless(t *testing.T, tr *tree.Tree) string {
	t.Helper()
	c := tr.Clone()
	for i := range c.Tokens {
		c.Tokens[i].Word = strconv.Itoa(i)
	}
	return discbracket(t, c)
}
