package treedraw

import (
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

func TestTextGolden(t *testing.T) {
	tests := []struct {
		name  string
		tree  string
		opt   Options
		ascii bool
		want  string
	}{
		{
			name: "discontinuous VP",
			tree: "(S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?))",
			opt:  DefaultOptions(),
			want: `
      S
    ┌─┼──────┐
    │ VP     │
┌─╌╌│╌┴──┐   │
VB  NP   JJ  ?
│   │    │   │
is John rich ?
`,
		},
		{
			name:  "continuous, ASCII, no tags",
			tree:  "(ROOT (S (NP (DT 0=the) (NN 1=dog)) (VP (VBZ 2=barks))) (. 3=.))",
			ascii: true,
			want: `
      ROOT
     +-+------+
     S        |
   +-+----+   |
   NP     VP  |
 +-+-+    |   |
the dog barks .
`,
		},
		{
			name: "nested discontinuity",
			tree: "(S (VP (PP (P 0=a) (N 2=c)) (V 4=e)) (X 1=b) (Y 3=d))",
			opt:  DefaultOptions(),
			want: `
      S
  ┌───┼──┐
  │   VP │
  │ ┌─┴╌╌│╌┐
  │ PP   │ │
┌╌│╌┴─┐  │ │
P X   N  Y V
│ │   │  │ │
a b   c  d e
`,
		},
		{
			name: "merged unary chain",
			tree: "(ROOT (S/VP (N 0=x) (N 1=y)))",
			want: `
  S
  │
  VP
┌─┴─┐
x   y
`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Layout(parse(t, tc.tree), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			got := Text(g)
			if tc.ascii {
				got = ASCII(g)
			}
			if want := strings.TrimPrefix(tc.want, "\n"); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func TestTextEdgeCases(t *testing.T) {
	tests := []struct {
		name string
		tree *tree.Tree
		want string
	}{
		{"empty tree", &tree.Tree{}, ""},
		{"single word", &tree.Tree{Tokens: []tree.Token{{Word: "hi", Tag: "UH", Parent: tree.Root}}}, "UH\n│\nhi\n"},
		{"empty tag", &tree.Tree{Tokens: []tree.Token{{Word: "hi", Parent: tree.Root}}}, "│\n│\nhi\n"},
		{"wide characters", &tree.Tree{
			Tokens: []tree.Token{{Word: "日本", Tag: "N", Parent: 0}, {Word: "x", Tag: "N", Parent: 0}},
			Nodes:  []tree.Node{{Label: "NP", Parent: tree.Root}},
		}, "   NP\n ┌─┴─┐\n N   N\n │   │\n日本 x\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Layout(tc.tree, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if got := Text(g); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestTextClusterWidths: a word is drawn in the cells a terminal gives its
// grapheme clusters (an emoji, an emoji sequence or a flag two, a letter
// with combining marks one, a combining mark on its own one), so that its
// drawing is that of a word of as many cells in plain or East Asian
// letters, the word put in its place. A word starting with a combining mark
// used to shift the rest of its label and index past the canvas.
func TestTextClusterWidths(t *testing.T) {
	for _, tc := range []struct{ word, like string }{
		{"🤔🤔", "日本"},
		{"👨‍👩‍👧x", "日x"},
		{"👍🏽", "日"},
		{"🇳🇱", "日"},
		{"e\u0301e\u0301", "ee"},
		{"\u0301你", "a你"},
		{"\u0301", "a"},
	} {
		draw := func(word string) string {
			t.Helper()
			tr := &tree.Tree{
				Tokens: []tree.Token{{Word: "q", Tag: "N", Parent: 0}, {Word: word, Tag: "N", Parent: 0}, {Word: word, Tag: "N", Parent: tree.Root}},
				Nodes:  []tree.Node{{Label: "NP", Parent: tree.Root}},
			}
			g, err := Layout(tr, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			return Text(g)
		}
		got := draw(tc.word)
		want := strings.ReplaceAll(draw(tc.like), tc.like, tc.word)
		if got != want {
			t.Errorf("%q drawn\n%s\nwant, as %q\n%s", tc.word, got, tc.like, want)
		}
	}
}

// TestEstimateWidthByCluster: the SVG's width estimate counts a grapheme
// cluster once: an emoji sequence or a flag as one wide character, a
// letter with combining marks as the letter.
func TestEstimateWidthByCluster(t *testing.T) {
	for _, tc := range []struct{ s, like string }{
		{"👨‍👩‍👧", "日"},
		{"👍🏽", "日"},
		{"🇳🇱🤔", "日本"},
		{"e\u0301te\u0301", "ete"},
	} {
		if got, want := EstimateWidth(tc.s), EstimateWidth(tc.like); got != want {
			t.Errorf("EstimateWidth(%q) = %g, want %g as %q", tc.s, got, want, tc.like)
		}
	}
}
