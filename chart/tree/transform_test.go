package tree_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

// dataDir holds the shared treebanks (see ../../../shared/data/README.txt).
const dataDir = "../../../shared/data/alpino-cdb"

// parseBracket reads one discbracket tree, e.g.
// "(ROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John)) (? 3=?))". A bracket whose
// only child is a leaf "i=word" is a preterminal; an outer ROOT/VROOT/TOP
// bracket is the virtual root. Phrasal nodes come in pre-order. It is a
// test helper, not a full reader (no escapes, no comments).
func parseBracket(s string) (*tree.Tree, error) {
	s, _, _ = strings.Cut(s, "\t")
	s = strings.ReplaceAll(strings.ReplaceAll(s, "(", " ( "), ")", " ) ")
	toks := strings.Fields(s)
	pos := 0
	t := &tree.Tree{}
	type leaf struct {
		tok tree.Token
		idx int
	}
	var leaves []leaf
	var rec func(parent int, top bool) error
	rec = func(parent int, top bool) error {
		if pos+1 >= len(toks) || toks[pos] != "(" {
			return fmt.Errorf("token %d: want '(' and a label", pos)
		}
		label := toks[pos+1]
		pos += 2
		if pos+1 < len(toks) && toks[pos+1] == ")" && strings.Contains(toks[pos], "=") && toks[pos] != "(" {
			i, w, _ := strings.Cut(toks[pos], "=")
			idx, err := strconv.Atoi(i)
			if err != nil {
				return fmt.Errorf("token %d: bad leaf %q", pos, toks[pos])
			}
			leaves = append(leaves, leaf{tree.Token{Word: w, Tag: label, Parent: parent}, idx})
			pos += 2
			return nil
		}
		me := parent
		if !(top && (label == "ROOT" || label == "VROOT" || label == "TOP")) {
			me = len(t.Nodes)
			t.Nodes = append(t.Nodes, tree.Node{Label: label, Parent: parent})
		}
		for pos < len(toks) && toks[pos] == "(" {
			if err := rec(me, false); err != nil {
				return err
			}
		}
		if pos >= len(toks) || toks[pos] != ")" {
			return fmt.Errorf("token %d: want ')'", pos)
		}
		pos++
		return nil
	}
	if err := rec(tree.Root, true); err != nil {
		return nil, err
	}
	if pos != len(toks) {
		return nil, fmt.Errorf("trailing input at token %d", pos)
	}
	t.Tokens = make([]tree.Token, len(leaves))
	for _, l := range leaves {
		if l.idx < 0 || l.idx >= len(leaves) || t.Tokens[l.idx].Word != "" {
			return nil, fmt.Errorf("bad or repeated word index %d", l.idx)
		}
		t.Tokens[l.idx] = l.tok
	}
	return t, t.Validate()
}

// mustParse is parseBracket for hand-written test trees.
func mustParse(tb testing.TB, s string) *tree.Tree {
	tb.Helper()
	t, err := parseBracket(s)
	if err != nil {
		tb.Fatalf("parse %q: %v", s, err)
	}
	return t
}

// readTrees reads a discbracket file of the shared data, skipping the test
// when the data is absent.
func readTrees(tb testing.TB, name string) []*tree.Tree {
	tb.Helper()
	path := filepath.Join(dataDir, name)
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		tb.Skipf("shared data not found (%s): skipping the real-data test", path)
	}
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var trees []*tree.Tree
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		t, err := parseBracket(sc.Text())
		if err != nil {
			tb.Fatalf("%s:%d: %v", path, line, err)
		}
		t.ID = strconv.Itoa(line)
		trees = append(trees, t)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return trees
}

// bracket writes t canonically: the virtual root as ROOT, children ordered
// by their first word, then phrases before words.
func bracket(t *tree.Tree) string {
	tokKids, nodeKids := t.Children()
	yields := t.Yields()
	firstWord := func(node int) int {
		if len(yields[node]) == 0 {
			return len(t.Tokens)
		}
		return yields[node][0]
	}
	type child struct{ first, node, tok int }
	var write func(b *strings.Builder, label string, toks, nodes []int)
	write = func(b *strings.Builder, label string, toks, nodes []int) {
		var cs []child
		for _, n := range nodes {
			cs = append(cs, child{firstWord(n), n, -1})
		}
		for _, i := range toks {
			cs = append(cs, child{i, -1, i})
		}
		slices.SortStableFunc(cs, func(a, b child) int { return a.first - b.first })
		b.WriteString("(" + label)
		for _, c := range cs {
			b.WriteString(" ")
			if c.tok >= 0 {
				fmt.Fprintf(b, "(%s %d=%s)", t.Tokens[c.tok].Tag, c.tok, t.Tokens[c.tok].Word)
				continue
			}
			write(b, t.Nodes[c.node].Label, tokKids[c.node], nodeKids[c.node])
		}
		b.WriteString(")")
	}
	var rootToks, rootNodes []int
	for i, tok := range t.Tokens {
		if tok.Parent == tree.Root {
			rootToks = append(rootToks, i)
		}
	}
	for i, n := range t.Nodes {
		if n.Parent == tree.Root {
			rootNodes = append(rootNodes, i)
		}
	}
	var b strings.Builder
	write(&b, "ROOT", rootToks, rootNodes)
	return b.String()
}

// labelYields returns the sorted multiset of "LABEL:positions" of t's phrasal
// nodes, leaving out nodes without words.
func labelYields(t *tree.Tree) []string {
	var out []string
	for i, y := range t.Yields() {
		if len(y) > 0 {
			out = append(out, fmt.Sprintf("%s:%v", t.Nodes[i].Label, y))
		}
	}
	slices.Sort(out)
	return out
}

func TestMergeUnaries(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{
			name: "no unary",
			in:   "(ROOT (S (NP (DT 0=the) (NN 1=dog)) (VB 2=barks)))",
			want: "(ROOT (S (NP (DT 0=the) (NN 1=dog)) (VB 2=barks)))",
		},
		{
			name: "phrase over one word is not a chain",
			in:   "(ROOT (S (NP (N 0=Jan)) (VP (V 1=slaapt))))",
			want: "(ROOT (S (NP (N 0=Jan)) (VP (V 1=slaapt))))",
		},
		{
			name: "chain of two",
			in:   "(ROOT (S (VP (VB 0=go) (RB 1=home))))",
			want: "(ROOT (S/VP (VB 0=go) (RB 1=home)))",
		},
		{
			name: "chain of three with a sibling word",
			in:   "(ROOT (SBARQ (SQ (VP (VB 0=is) (NN 1=it)))) (. 2=?))",
			want: "(ROOT (SBARQ/SQ/VP (VB 0=is) (NN 1=it)) (. 2=?))",
		},
		{
			name: "inner chain keeps its parent",
			in:   "(ROOT (S (NP (DT 0=the) (NN 1=dog)) (VP (VP (VB 2=barks) (RB 3=loud)))))",
			want: "(ROOT (S (NP (DT 0=the) (NN 1=dog)) (VP/VP (VB 2=barks) (RB 3=loud))))",
		},
		{
			name: "discontinuous chain",
			in:   "(ROOT (S (VP (INF (VB 0=a) (VB 2=c))) (NN 1=b)))",
			want: "(ROOT (S (VP/INF (VB 0=a) (VB 2=c)) (NN 1=b)))",
		},
		{
			name: "two chains in one tree",
			in:   "(ROOT (DU (SMAIN (NP (N 0=a) (N 1=b))) (CONJ (NP (N 2=c) (N 3=d)))))",
			want: "(ROOT (DU (SMAIN/NP (N 0=a) (N 1=b)) (CONJ/NP (N 2=c) (N 3=d))))",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := mustParse(t, tc.in)
			before := bracket(in)
			got := tree.MergeUnaries(in)
			if err := got.Validate(); err != nil {
				t.Fatalf("invalid result: %v", err)
			}
			if g := bracket(got); g != tc.want {
				t.Errorf("MergeUnaries:\n got %s\nwant %s", g, tc.want)
			}
			if bracket(in) != before {
				t.Errorf("input modified")
			}
		})
	}
}

func TestMergeUnariesFields(t *testing.T) {
	// S(500, edge "--") over VP(501, edge "vc") over two words; the word
	// "a" has a secondary edge to the VP.
	in := &tree.Tree{
		ID: "s1",
		Nodes: []tree.Node{
			{Num: 500, Label: "S", Edge: "top", Parent: tree.Root},
			{Num: 501, Label: "VP", Edge: "vc", Parent: 0, Sec: []tree.SecEdge{{Label: "x", Parent: 0}}},
		},
		Tokens: []tree.Token{
			{Word: "a", Tag: "V", Edge: "hd", Parent: 1, Sec: []tree.SecEdge{{Label: "su", Parent: 1}}},
			{Word: "b", Tag: "N", Edge: "obj1", Parent: 1},
		},
	}
	got := tree.MergeUnaries(in)
	wantNodes := []tree.Node{{Num: 500, Label: "S/VP", Edge: "top", Parent: tree.Root}}
	if !slices.EqualFunc(got.Nodes, wantNodes, nodeEqual) {
		t.Errorf("merged nodes: got %+v, want %+v", got.Nodes, wantNodes)
	}
	if got.ID != "s1" || got.Tokens[0].Parent != 0 || got.Tokens[1].Parent != 0 {
		t.Errorf("tokens or id: got %+v id %q", got.Tokens, got.ID)
	}
	if want := []tree.SecEdge{{Label: "su", Parent: 0}}; !slices.Equal(got.Tokens[0].Sec, want) {
		t.Errorf("secondary edge: got %+v, want %+v", got.Tokens[0].Sec, want)
	}

	split := tree.SplitUnaries(got)
	wantSplit := []tree.Node{
		{Num: 500, Label: "S", Edge: "top", Parent: tree.Root},
		{Label: "VP", Parent: 0},
	}
	if !slices.EqualFunc(split.Nodes, wantSplit, nodeEqual) {
		t.Errorf("split nodes: got %+v, want %+v", split.Nodes, wantSplit)
	}
	if split.Tokens[0].Parent != 1 || split.Tokens[1].Parent != 1 {
		t.Errorf("split tokens: got %+v", split.Tokens)
	}
	if want := []tree.SecEdge{{Label: "su", Parent: 0}}; !slices.Equal(split.Tokens[0].Sec, want) {
		t.Errorf("split secondary edge: got %+v, want %+v (edges go to the top node)", split.Tokens[0].Sec, want)
	}
}

func nodeEqual(a, b tree.Node) bool {
	return a.Num == b.Num && a.Label == b.Label && a.Lemma == b.Lemma && a.Morph == b.Morph &&
		a.Edge == b.Edge && a.Parent == b.Parent && a.Comment == b.Comment && slices.Equal(a.Sec, b.Sec)
}

func TestSplitUnaries(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{
			name: "nothing to split",
			in:   "(ROOT (S (NP (DT 0=the) (NN 1=dog)) (VB 2=barks)))",
			want: "(ROOT (S (NP (DT 0=the) (NN 1=dog)) (VB 2=barks)))",
		},
		{
			name: "chain of three",
			in:   "(ROOT (SBARQ/SQ/VP (VB 0=is) (NN 1=it)) (. 2=?))",
			want: "(ROOT (SBARQ (SQ (VP (VB 0=is) (NN 1=it)))) (. 2=?))",
		},
		{
			name: "inner discontinuous chain",
			in:   "(ROOT (S (NN 1=b) (VP/INF (VB 0=a) (VB 2=c))))",
			want: "(ROOT (S (VP (INF (VB 0=a) (VB 2=c))) (NN 1=b)))",
		},
		{
			name: "empty parts are kept whole",
			in:   "(ROOT (A//B (X 0=x) (Y 1=y)) (/ (Z 2=z) (W 3=w)))",
			want: "(ROOT (A//B (X 0=x) (Y 1=y)) (/ (Z 2=z) (W 3=w)))",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tree.SplitUnaries(mustParse(t, tc.in))
			if err := got.Validate(); err != nil {
				t.Fatalf("invalid result: %v", err)
			}
			if g := bracket(got); g != tc.want {
				t.Errorf("SplitUnaries:\n got %s\nwant %s", g, tc.want)
			}
		})
	}
}

func TestUnaryRoundTrip(t *testing.T) {
	for _, s := range []string{
		"(ROOT (S (VP (VB 0=go) (RB 1=home))))",
		"(ROOT (SBARQ (SQ (VP (VB 0=is) (NN 1=it)))) (. 2=?))",
		"(ROOT (S (VP (INF (VB 0=a) (VB 2=c))) (NN 1=b)))",
		"(ROOT (X (A (B (C (D (E 0=e) (F 3=f))))) (G 1=g) (H 2=h)))",
	} {
		in := mustParse(t, s)
		got := tree.SplitUnaries(tree.MergeUnaries(in))
		if g, w := labelYields(got), labelYields(in); !slices.Equal(g, w) {
			t.Errorf("%s: round trip got %v, want %v", s, g, w)
		}
		if g := bracket(got); g != bracket(in) {
			t.Errorf("round trip: got %s, want %s", g, bracket(in))
		}
	}
}

func TestUnaryRoundTripTreebank(t *testing.T) {
	for _, name := range []string{"train.discbracket", "train.punctmoved.discbracket"} {
		trees := readTrees(t, name)
		merged := 0
		for _, in := range trees {
			m := tree.MergeUnaries(in)
			merged += len(in.Nodes) - len(m.Nodes)
			got := tree.SplitUnaries(m)
			if g, w := labelYields(got), labelYields(in); !slices.Equal(g, w) {
				t.Fatalf("%s line %s: round trip changed the (label, yield) multiset:\n got %v\nwant %v", name, in.ID, g, w)
			}
		}
		t.Logf("%s: %d trees, %d unary nodes merged, round trip exact", name, len(trees), merged)
	}
}

func TestStripFunctionTags(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "NP", "NP"},
		{"dash", "NP-SBJ", "NP"},
		{"equals", "NP=2", "NP"},
		{"dash then equals", "NP-SBJ=2", "NP"},
		{"equals first", "S=1-TPC", "S"},
		{"leading dash kept", "-NONE-", "-NONE"},
		{"only a dash", "-", "-"},
		{"empty", "", ""},
		{"chain", "S/VP-PRD", "S/VP"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tree.StripFunctionTags(tc.in); got != tc.want {
				t.Errorf("StripFunctionTags(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
