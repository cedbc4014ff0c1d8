package treedraw

import (
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

// layoutCases are hand-built trees covering the shapes Layout must handle.
var layoutCases = []struct {
	name string
	tree string // discbracket; "" for the empty tree
	rows int    // rows with tags shown
	disc []string
}{
	{name: "continuous", tree: "(ROOT (S (NP (DT 0=the) (NN 1=dog)) (VP (VBZ 2=barks))) (. 3=.))", rows: 5},
	{name: "discontinuous VP", tree: "(S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?))", rows: 4, disc: []string{"VP"}},
	{name: "unary chain", tree: "(ROOT (S (VP (NP (N 0=x)))))", rows: 5},
	{name: "merged unary chain", tree: "(ROOT (S/VP/NP (N 0=x) (N 1=y)))", rows: 5},
	{name: "nested discontinuity", tree: "(S (VP (PP (P 0=a) (N 2=c)) (V 4=e)) (X 1=b) (Y 3=d))", rows: 5, disc: []string{"PP", "VP"}},
	{name: "block degree 3", tree: "(S (VP (A 0=a) (B 2=c) (C 4=e)) (X 1=b) (Y 3=d))", rows: 4, disc: []string{"VP"}},
	{name: "crossing discontinuities", tree: "(S (A (a 0=a) (a 2=c)) (B (b 1=b) (b 3=d)))", rows: 5, disc: []string{"A", "B"}},
	{name: "words hanging from the root", tree: "(ROOT (S (A 0=a) (B 2=b)) (P 1=,) (C 3=c))", rows: 4, disc: []string{"S"}},
	{name: "single word", tree: "(ROOT (N 0=x))", rows: 2},
	{name: "empty tree", tree: "", rows: 0},
}

func TestLayoutInvariants(t *testing.T) {
	for _, tc := range layoutCases {
		for _, opt := range []Options{{}, DefaultOptions(), {ShowTags: true, Compact: true}} {
			t.Run(tc.name, func(t *testing.T) {
				tr := &tree.Tree{}
				if tc.tree != "" {
					tr = parse(t, tc.tree)
				}
				g, err := Layout(tr, opt)
				if err != nil {
					t.Fatalf("Layout: %v", err)
				}
				for _, msg := range checkGrid(tr, g) {
					t.Error(msg)
				}
				if opt.ShowTags && !opt.Compact && g.Rows != tc.rows {
					t.Errorf("rows: got %d, want %d\n%s", g.Rows, tc.rows, Text(g))
				}
				var disc []string
				for _, nd := range g.Nodes {
					if nd.Discontinuous && nd.Kind == Phrase {
						disc = append(disc, nd.Label)
					}
				}
				if got, want := strings.Join(disc, " "), strings.Join(tc.disc, " "); got != want {
					t.Errorf("discontinuous: got %q, want %q", got, want)
				}
			})
		}
	}
}

func TestLayoutDiscontinuousVP(t *testing.T) {
	g, err := Layout(parse(t, "(S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?))"), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	type cell struct {
		label    string
		row, col int
	}
	var got []cell
	for _, nd := range g.Nodes {
		got = append(got, cell{nd.Label, nd.Row, nd.Col})
	}
	want := []cell{
		{"is", 0, 0}, {"John", 0, 2}, {"rich", 0, 4}, {"?", 0, 6},
		{"VB", 1, 0}, {"NP", 1, 2}, {"JJ", 1, 4}, {"?", 1, 6},
		{"VP", 2, 3}, {"S", 3, 3},
	}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for k := range want {
		if got[k] != want[k] {
			t.Errorf("node %d: got %v, want %v", k, got[k], want[k])
		}
	}
	// John's edge crosses the bar of VP, whose middle piece is dashed.
	var crossing []string
	for _, e := range g.Edges {
		if e.Crossing {
			crossing = append(crossing, g.Nodes[e.Child].Label)
		}
	}
	if got, want := strings.Join(crossing, " "), "NP"; got != want {
		t.Errorf("crossing edges from: got %q, want %q", got, want)
	}
	vp := g.Nodes[8]
	var gaps []bool
	for _, s := range vp.Bar {
		gaps = append(gaps, s.Gap)
	}
	if len(gaps) != 3 || gaps[0] || !gaps[1] || gaps[2] {
		t.Errorf("VP bar gaps: got %v, want [false true false]", gaps)
	}
	john := g.Nodes[5].X
	if !(vp.Bar[1].X1 < john && john < vp.Bar[1].X2) {
		t.Errorf("VP gap %g..%g does not cover John at %g", vp.Bar[1].X1, vp.Bar[1].X2, john)
	}
}

func TestLayoutErrors(t *testing.T) {
	cycle := &tree.Tree{
		Tokens: []tree.Token{{Word: "a", Parent: 0}},
		Nodes:  []tree.Node{{Label: "A", Parent: 1}, {Label: "B", Parent: 0}},
	}
	empty := &tree.Tree{
		Tokens: []tree.Token{{Word: "a", Parent: tree.Root}},
		Nodes:  []tree.Node{{Label: "E", Parent: tree.Root}},
	}
	badParent := &tree.Tree{Tokens: []tree.Token{{Word: "a", Parent: 3}}}
	tests := []struct {
		name string
		tree *tree.Tree
		want string
	}{
		{"cycle", cycle, "cycle"},
		{"phrase without words", empty, "covers no word"},
		{"parent out of range", badParent, "out of range"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Layout(tc.tree, DefaultOptions())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestLayoutDoesNotChangeTree(t *testing.T) {
	tr := parse(t, "(ROOT (S/VP (V 0=a) (N 2=b)) (P 1=c))")
	before := tr.Clone()
	if _, err := Layout(tr, DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	if got, want := tr.Nodes[0].Label, before.Nodes[0].Label; got != want || len(tr.Nodes) != len(before.Nodes) {
		t.Errorf("tree changed: got %q with %d nodes, want %q with %d", got, len(tr.Nodes), want, len(before.Nodes))
	}
}

func TestPhraseNodes(t *testing.T) {
	g, err := Layout(parse(t, "(ROOT (S/VP (V 0=a) (N 1=b)))"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := g.PhraseNodes()[0]
	var labels []string
	for _, id := range got {
		labels = append(labels, g.Nodes[id].Label)
	}
	if want := "S VP"; strings.Join(labels, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(labels, " "), want)
	}
}
