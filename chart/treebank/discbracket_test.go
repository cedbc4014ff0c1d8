package treebank

import (
	"reflect"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

func TestReadDiscbracket(t *testing.T) {
	// (S (VP is rich) John ?): VP is discontinuous.
	isRich := &tree.Tree{
		ID: "1",
		Tokens: []tree.Token{
			{Word: "is", Tag: "VB", Parent: 0},
			{Word: "John", Tag: "NP", Parent: 1},
			{Word: "rich", Tag: "JJ", Parent: 0},
			{Word: "?", Tag: "?", Parent: 1},
		},
		Nodes: []tree.Node{
			{Num: 500, Label: "VP", Parent: 1},
			{Num: 501, Label: "S", Parent: tree.Root},
		},
	}
	withComment := isRich.Clone()
	withComment.BOSExtra = "a comment\twith a tab"
	parens := &tree.Tree{
		ID: "1",
		Tokens: []tree.Token{
			{Word: "(", Tag: "$(", Parent: 0},
			{Word: "-LRB-", Tag: "-LRB-", Parent: 0},
			{Word: "a=b", Tag: "", Parent: 0},
		},
		Nodes: []tree.Node{{Num: 500, Label: "NP-SBJ=2", Parent: tree.Root}},
	}
	rootToken := &tree.Tree{ID: "1", Tokens: []tree.Token{{Word: "x", Tag: "ROOT", Parent: tree.Root}}}
	emptyLabel := &tree.Tree{ID: "1", Tokens: []tree.Token{{Word: "x", Tag: "T", Parent: 0}}, Nodes: []tree.Node{{Num: 500, Parent: tree.Root}}}
	tests := []struct {
		name string
		text string
		want *tree.Tree
	}{
		{"ROOT", "(ROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?)))", isRich},
		{"VROOT", "(VROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?)))", isRich},
		{"TOP", "(TOP (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?)))", isRich},
		{"unlabelled outer bracket", "( (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?)))", isRich},
		{"no root bracket", "(S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?))", isRich},
		{"children in any order", "(ROOT (S (? 3=?) (NP 1=John) (VP (JJ 2=rich) (VB 0=is))))", isRich},
		{"white space", "  (ROOT(S(VP(VB 0=is)(JJ 2=rich))( NP 1=John )(?   3=?)))  ", isRich},
		{"comment", "(ROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?)))\ta comment\twith a tab", withComment},
		{"escapes, function tags, empty tag", "(ROOT (NP-SBJ=2 ($#LRB# 0=#LRB#) (-LRB- 1=-LRB-) (-- 2=a=b)))", parens},
		{"preterminal outside", "(ROOT 0=x)", rootToken},
		{"empty label", "(ROOT ( (T 0=x)))", emptyLabel},
		{"empty tree", "(ROOT)", &tree.Tree{ID: "1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := mustRead(t, "\n"+tc.text+"\n\n", Discbracket)
			if len(got) != 1 {
				t.Fatalf("got %d trees, want 1", len(got))
			}
			if !reflect.DeepEqual(got[0], tc.want) {
				t.Errorf("got  %+v\nwant %+v", *got[0], *tc.want)
			}
		})
	}
}

func TestDiscbracketIDs(t *testing.T) {
	got := mustRead(t, "(ROOT (A 0=a))\n\n(ROOT (B 0=b))\n", Discbracket)
	if len(got) != 2 || got[0].ID != "1" || got[1].ID != "2" {
		t.Errorf("got ids %v, want 1 2", got)
	}
}

func TestWriteDiscbracket(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"canonical", "(ROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?)))", ""},
		{"sorted by leftmost word", "(S (? 3=?) (NP 1=John) (VP (JJ 2=rich) (VB 0=is)))",
			"(ROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?)))"},
		{"escapes", "(ROOT (NP ($#LRB# 0=#LRB#) (-LRB- 1=-LRB-) (-- 2=a=b) (X 3=#RRB#x)))", ""},
		{"comment", "(ROOT (A 0=a))\tid=5", ""},
		{"empty tree", "()", "(ROOT)"},
		{"empty label", "(ROOT ( (T 0=x)))", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if want == "" {
				want = tc.in
			}
			if got := mustWrite(t, mustRead(t, tc.in, Discbracket), Discbracket); got != want+"\n" {
				t.Errorf("got  %q\nwant %q", got, want+"\n")
			}
		})
	}
}

func TestWriteDiscbracketErrors(t *testing.T) {
	tests := []struct {
		name string
		tree *tree.Tree
		want string
	}{
		{"space in word", &tree.Tree{Tokens: []tree.Token{{Word: "a b", Tag: "T", Parent: tree.Root}}}, "white space"},
		{"tab in label", &tree.Tree{Tokens: []tree.Token{{Word: "a", Tag: "T", Parent: 0}}, Nodes: []tree.Node{{Label: "A\tB", Parent: tree.Root}}}, "white space"},
		{"node without words", &tree.Tree{Nodes: []tree.Node{{Label: "A", Parent: tree.Root}}}, "dominates no word"},
		{"cycle", &tree.Tree{Tokens: []tree.Token{{Word: "a", Tag: "T", Parent: 0}}, Nodes: []tree.Node{{Label: "A", Parent: 1}, {Label: "B", Parent: 0}}}, "cycle"},
		{"line break in comment", &tree.Tree{BOSExtra: "a\nb"}, "line break"},
		// A reader would take them for parentheses: "a#LRB#b" read back
		// as "a(b".
		{"escape in word", &tree.Tree{Tokens: []tree.Token{{Word: "a#LRB#b", Tag: "T", Parent: tree.Root}}}, "word \"a#LRB#b\": contains #LRB#, which discbracket readers take for a parenthesis"},
		{"escape in label", &tree.Tree{Tokens: []tree.Token{{Word: "a", Tag: "T", Parent: 0}}, Nodes: []tree.Node{{Label: "#RRB#", Parent: tree.Root}}}, "contains #RRB#"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := WriteDiscbracket(&strings.Builder{}, []*tree.Tree{tc.tree})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestDiscbracketExportConversion converts a discontinuous tree to export
// and back.
func TestDiscbracketExportConversion(t *testing.T) {
	const text = "(ROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) ($#LRB# 3=#LRB#)))\n"
	trees := mustRead(t, text, Discbracket)
	exp := mustWrite(t, trees, Export)
	back := mustRead(t, exp, Export)
	if got := mustWrite(t, back, Discbracket); got != text {
		t.Errorf("got %q, want %q (export was\n%s)", got, text, exp)
	}
	if diff := treesEqual(back, trees, false); diff != "" {
		t.Error(diff)
	}
}
