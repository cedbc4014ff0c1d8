package treebank

import (
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

// TestWriteRefusesText checks that both writers refuse words and labels
// that their files cannot hold (NUL bytes, invalid UTF-8) with an error
// naming the tree and the problem, and accept UTF-8 text beyond ASCII.
func TestWriteRefusesText(t *testing.T) {
	for _, tc := range []struct {
		name, word, label, want string
	}{
		{name: "NUL in word", word: "a\x00b", label: "NP", want: "NUL byte at offset 1"},
		{name: "invalid UTF-8 in word", word: "caf\xe9", label: "NP", want: "invalid UTF-8 (byte 0xe9 at offset 3)"},
		{name: "truncated UTF-8 in word", word: "\xe2\x82", label: "NP", want: "invalid UTF-8"},
		{name: "NUL in label", word: "a", label: "N\x00P", want: "NUL byte at offset 1"},
		{name: "UTF-8 text", word: "café€", label: "NP"},
	} {
		for _, f := range []Format{Discbracket, Export} {
			t.Run(tc.name+"/"+f.String(), func(t *testing.T) {
				tr := &tree.Tree{
					Tokens: []tree.Token{{Word: tc.word, Tag: "N", Parent: 0}},
					Nodes:  []tree.Node{{Label: tc.label, Parent: tree.Root}},
				}
				var b strings.Builder
				w := NewWriter(&b, f)
				err := w.Write(tr)
				if err == nil {
					err = w.Flush()
				}
				switch {
				case tc.want == "" && err != nil:
					t.Errorf("error %v, want none", err)
				case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "tree 1")):
					t.Errorf("error %v, want one naming tree 1 and %q", err, tc.want)
				case tc.want != "" && strings.Contains(b.String(), "\x00"):
					t.Errorf("wrote %q", b.String())
				}
			})
		}
	}
}

// TestWriterBlank checks that Blank writes an empty line in discbracket
// only, between trees, without counting as a tree.
func TestWriterBlank(t *testing.T) {
	tr := &tree.Tree{Tokens: []tree.Token{{Word: "a", Tag: "N", Parent: tree.Root}}}
	for _, tc := range []struct {
		f    Format
		want string
	}{
		{Discbracket, "(ROOT (N 0=a))\n\n(ROOT (N 0=a))\n"},
		{Export, "#BOS 1\na\t--\tN\t--\t--\t0\n#EOS 1\n#BOS 2\na\t--\tN\t--\t--\t0\n#EOS 2\n"},
	} {
		t.Run(tc.f.String(), func(t *testing.T) {
			var b strings.Builder
			w := NewWriter(&b, tc.f)
			for _, step := range []func() error{func() error { return w.Write(tr) }, w.Blank, func() error { return w.Write(tr) }, w.Flush} {
				if err := step(); err != nil {
					t.Fatal(err)
				}
			}
			got := b.String()
			if tc.f == Export {
				got = got[strings.Index(got, "#BOS"):]
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestPTBParens checks how a discbracket Writer writes parentheses: as
// #LRB# and #RRB# by default, as -LRB- and -RRB- after PTBParens.
func TestPTBParens(t *testing.T) {
	tr := &tree.Tree{
		Tokens: []tree.Token{{Word: "(", Tag: "let", Parent: 0}, {Word: "a(b)", Tag: "n", Parent: 0}},
		Nodes:  []tree.Node{{Label: "NP", Parent: tree.Root}},
	}
	for _, tc := range []struct {
		name string
		ptb  bool
		want string
	}{
		{"disco-dop", false, "(ROOT (NP (let 0=#LRB#) (n 1=a#LRB#b#RRB#)))\n"},
		{"Penn Treebank", true, "(ROOT (NP (let 0=-LRB-) (n 1=a-LRB-b-RRB-)))\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			w := NewWriter(&b, Discbracket)
			if tc.ptb {
				w.PTBParens()
			}
			if err := writeAll(w, []*tree.Tree{tr}); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got %q, want %q", b.String(), tc.want)
			}
		})
	}
}
