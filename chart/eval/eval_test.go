package eval

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

// counts is what a sentence pair is expected to yield.
type counts struct {
	matched, gold, cand    int
	dMatched, dGold, dCand int
	exact                  bool
	words, posCorrect, len int
}

func got(r SentenceResult) counts {
	return counts{r.Matched, r.Gold, r.Cand, r.DiscMatched, r.DiscGold, r.DiscCand, r.Exact, r.Words, r.POSCorrect, r.Length}
}

// TestRules checks every transformation rule of proper.prm on a hand-made
// sentence pair with hand-computed bracket counts.
func TestRules(t *testing.T) {
	tests := []struct {
		name       string
		gold, cand string
		want       counts
	}{
		{
			name: "identical; root and preterminals not counted",
			gold: "(ROOT (S (NP (lid 0=De) (n 1=man)) (ww 2=slaapt)) (let 3=.))",
			cand: "(ROOT (S (NP (lid 0=De) (n 1=man)) (ww 2=slaapt)) (let 3=.))",
			// S{0,1,2} NP{0,1}
			want: counts{2, 2, 2, 0, 0, 0, true, 3, 3, 4},
		},
		{
			name: "nodes attached to the virtual root count, whatever its label",
			gold: "(VROOT (NP (n 0=a)) (VP (v 1=b)))",
			cand: "(TOP (NP (n 0=a)) (VP (v 1=b)))",
			want: counts{2, 2, 2, 0, 0, 0, true, 2, 2, 2},
		},
		{
			name: "punctuation attachment does not matter",
			gold: "(ROOT (S (NP (n 0=Jan) (let 1=,) (n 2=Piet)) (ww 3=lopen)))",
			cand: "(ROOT (S (NP (n 0=Jan) (n 2=Piet)) (ww 3=lopen)) (let 1=,))",
			// both: NP{0,1} S{0,1,2} after renumbering
			want: counts{2, 2, 2, 0, 0, 0, true, 3, 3, 4},
		},
		{
			name: "a gap made only by punctuation is no discontinuity",
			gold: "(ROOT (S (VP (ww 0=zag) (ww 2=komen)) (n 3=hem)) (let 1=,))",
			cand: "(ROOT (S (VP (ww 0=zag) (ww 2=komen)) (n 3=hem)) (let 1=,))",
			// VP{0,2} becomes VP{0,1}
			want: counts{2, 2, 2, 0, 0, 0, true, 3, 3, 4},
		},
		{
			name: "discontinuous bracket",
			gold: "(ROOT (S (VP (ww 0=zag) (ww 2=komen)) (n 1=hem)))",
			cand: "(ROOT (S (VP (ww 0=zag) (n 1=hem) (ww 2=komen))))",
			// gold S{0,1,2} VP{0,2}*; cand S{0,1,2} VP{0,1,2}
			want: counts{1, 2, 2, 0, 1, 0, false, 3, 3, 3},
		},
		{
			name: "discontinuous bracket matched",
			gold: "(ROOT (S (VP (ww 0=zag) (ww 2=komen)) (n 1=hem)))",
			cand: "(ROOT (S (n 1=hem) (VP (ww 2=komen) (ww 0=zag))))",
			want: counts{2, 2, 2, 1, 1, 1, true, 3, 3, 3},
		},
		{
			name: "DELETE_WORD removes a token whatever its tag",
			gold: "(ROOT (S (NP (n 0=a) (n 1=,)) (n 2=b)))",
			cand: "(ROOT (S (NP (n 0=a)) (n 1=,) (n 2=b)))",
			// NP{0} S{0,1} on both sides; tag n is not a DELETE_LABEL
			want: counts{2, 2, 2, 0, 0, 0, true, 2, 2, 3},
		},
		{
			name: "DELETE_LABEL tag removes a token whatever its word",
			gold: "(ROOT (S (NP (n 0=a) (let 1=xx)) (n 2=b)))",
			cand: "(ROOT (S (NP (n 0=a)) (let 1=xx) (n 2=b)))",
			want: counts{2, 2, 2, 0, 0, 0, true, 2, 2, 3},
		},
		{
			name: "the gold tag decides deletion in the candidate",
			gold: "(ROOT (S (NP (n 0=a) (let 1=xx)) (n 2=b)))",
			cand: "(ROOT (S (NP (n 0=a) (n 1=xx)) (n 2=b)))",
			// token 1 goes on both sides; its wrong tag is not scored
			want: counts{2, 2, 2, 0, 0, 0, true, 2, 2, 3},
		},
		{
			name: "a candidate punctuation tag deletes nothing",
			gold: "(ROOT (S (NP (n 0=a) (n 1=xx)) (n 2=b)))",
			cand: "(ROOT (S (NP (n 0=a) (let 1=xx)) (n 2=b)))",
			// nothing deleted; the tag let counts as a POS error
			want: counts{2, 2, 2, 0, 0, 0, true, 3, 2, 3},
		},
		{
			name: "EQ_LABEL ADVP = PRT",
			gold: "(ROOT (S (ADVP (bw 0=op)) (ww 1=staat)))",
			cand: "(ROOT (S (PRT (bw 0=op)) (ww 1=staat)))",
			want: counts{2, 2, 2, 0, 0, 0, true, 2, 2, 2},
		},
		{
			name: "function tags cut at the first - or =",
			gold: "(ROOT (S-TOP (NP-SBJ (n 0=a)) (VP=2 (v 1=b))))",
			cand: "(ROOT (S (NP-SBJ=1 (n 0=a)) (VP-HD (v 1=b))))",
			want: counts{3, 3, 3, 0, 0, 0, true, 2, 2, 2},
		},
		{
			name: "function tags cut on POS tags too",
			gold: "(ROOT (S (NP (n-hd 0=a)) (v 1=b)))",
			cand: "(ROOT (S (NP (n 0=a)) (v=1 1=b)))",
			want: counts{2, 2, 2, 0, 0, 0, true, 2, 2, 2},
		},
		{
			name: "-NONE- keeps its leading dash and is deleted; emptied nodes go",
			gold: "(ROOT (S (NP (-NONE- 0=*T*)) (n 1=a) (v 2=b)))",
			cand: "(ROOT (S (n 1=a) (v 2=b) (X (-NONE- 0=*T*))))",
			// NP and X dominate only a deleted token: removed. S{0,1}
			want: counts{1, 1, 1, 0, 0, 0, true, 2, 2, 3},
		},
		{
			name: "every node of a unary chain counts",
			gold: "(ROOT (S (NP (NP (n 0=a))) (v 1=b)))",
			cand: "(ROOT (S (NP (n 0=a)) (v 1=b)))",
			// gold S{0,1} NP{0} NP{0}; cand S{0,1} NP{0}: a multiset
			want: counts{2, 3, 2, 0, 0, 0, false, 2, 2, 2},
		},
		{
			name: "unary chain with different labels",
			gold: "(ROOT (S (VP (NP (n 0=a))) (v 1=b)))",
			cand: "(ROOT (S (NP (VP (n 0=a))) (v 1=b)))",
			want: counts{3, 3, 3, 0, 0, 0, true, 2, 2, 2},
		},
		{
			name: "node over punctuation only is removed",
			gold: "(ROOT (S (n 0=a) (v 1=b) (PU (let 2=.))))",
			cand: "(ROOT (S (n 0=a) (v 1=b)) (let 2=.))",
			want: counts{1, 1, 1, 0, 0, 0, true, 2, 2, 3},
		},
		{
			name: "phrasal node with a deleted label is replaced by its children",
			gold: "(ROOT (S (VROOT (NP (n 0=a)) (v 1=b))))",
			cand: "(ROOT (S (NP (n 0=a)) (v 1=b)))",
			want: counts{2, 2, 2, 0, 0, 0, true, 2, 2, 2},
		},
		{
			name: "NOPARSE candidate has no brackets",
			gold: "(ROOT (S (NP (n 0=a)) (v 1=b)))",
			cand: "(ROOT (NOPARSE (n 0=a) (v 1=b)))",
			want: counts{0, 2, 0, 0, 0, 0, false, 2, 2, 2},
		},
		{
			name: "sentence of punctuation only",
			gold: "(ROOT (let 0=.))",
			cand: "(ROOT (let 0=.))",
			want: counts{0, 0, 0, 0, 0, 0, true, 0, 0, 1},
		},
		{
			name: "tag parentheses are compared as brackets",
			gold: "(ROOT (S (n 0=a) (VZ#LRB#init#RRB# 1=xx) (v 2=b)))",
			cand: "(ROOT (S (n 0=a) (VZ[init] 1=xx) (v 2=b)))",
			// disco-dop's export reader writes VZ(init) as VZ[init]
			want: counts{1, 1, 1, 0, 0, 0, true, 3, 3, 3},
		},
		{
			name: "label mismatch",
			gold: "(ROOT (S (NP (n 0=a) (n 1=b)) (v 2=c)))",
			cand: "(ROOT (S (XX (n 0=a) (n 1=b)) (v 2=c)))",
			want: counts{1, 2, 2, 0, 0, 0, false, 3, 3, 3},
		},
		{
			name: "bracket escapes inside words are the same word",
			gold: "(ROOT (S (n 0=a#LRB#b#RRB#) (v 1=c)))",
			cand: "(ROOT (S (n 0=a-LRB-b-RRB-) (v 1=c)))",
			want: counts{1, 1, 1, 0, 0, 0, true, 2, 2, 2},
		},
		{
			name: "the gold word decides DELETE_WORD in the candidate",
			gold: "(ROOT (S (NP (n 0=a) (n 1=#LRB#)) (n 2=b)))",
			cand: "(ROOT (S (NP (n 0=a)) (n 1=-LRB-) (n 2=b)))",
			// gold "(" is a DELETE_WORD: gone on both sides
			want: counts{2, 2, 2, 0, 0, 0, true, 2, 2, 3},
		},
		{
			name: "PTB -LRB- tokens stay and equal ( by EQ_WORD",
			gold: "(ROOT (S (-LRB- 0=-LRB-) (n 1=a) (-RRB- 2=-RRB-)))",
			cand: "(ROOT (S (-LRB- 0=#LRB#) (n 1=a) (-RRB- 2=#RRB#)))",
			want: counts{1, 1, 1, 0, 0, 0, true, 3, 3, 3},
		},
		{
			name: "candidate without punctuation is aligned on words",
			gold: "(ROOT (S (NP (n 0=a) (let 1=,) (n 2=b)) (v 3=c)) (let 4=.))",
			cand: "(ROOT (S (NP (n 0=a) (n 1=b)) (v 2=c)))",
			want: counts{2, 2, 2, 0, 0, 0, true, 3, 3, 5},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := NewEvaluator(ProperPrm())
			r, err := e.Add(mk(t, tc.gold), mk(t, tc.cand))
			if err != nil {
				t.Fatal(err)
			}
			if g := got(r); g != tc.want {
				t.Errorf("got  %+v\nwant %+v", g, tc.want)
			}
		})
	}
}

// TestDiscoDopDoctests reproduces the examples in the docstrings of disco-dop's
// eval.bracketings and eval.transitiveclosure.
func TestDiscoDopDoctests(t *testing.T) {
	// (S (NP 1) (VP (VB 0) (JJ 2))) with no deletions: S 0b111, VP 0b101.
	tr := mk(t, "(ROOT (S (NP 1=b) (VP (VB 0=a) (JJ 2=c))))")
	empty := Params{Labeled: true}
	bs, err := Brackets(tr, empty)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"S[0 1 2]", "VP[0 2]"}
	if g := bracketStrings(bs); !reflect.DeepEqual(g, want) {
		t.Errorf("brackets %v, want %v", g, want)
	}
	// With DELETE_LABEL VP only S remains.
	empty.DeleteLabel = map[string]bool{"VP": true}
	bs, _ = Brackets(tr, empty)
	if g := bracketStrings(bs); !reflect.DeepEqual(g, []string{"S[0 1 2]"}) {
		t.Errorf("brackets with VP deleted %v", g)
	}
	// transitiveclosure({('A','B'), ('B','C')}) is one class {A,B,C}.
	m := closure([][2]string{{"A", "B"}, {"B", "C"}})
	if len(m) != 3 || m["A"] != m["B"] || m["B"] != m["C"] {
		t.Errorf("closure %v", m)
	}
	// alignsent(['No'], ['``', 'No', '.', "''"]) maps candidate 0 to gold 1.
	g := mk(t, "(ROOT (`` 0=``) (S (RB 1=No)) (. 2=.) ('' 3=''))")
	c := mk(t, "(ROOT (S (RB 0=No)))")
	a, err := align(g, c, ProperPrm())
	if err != nil || !reflect.DeepEqual(a, []int{1}) {
		t.Errorf("align = %v, %v", a, err)
	}
}

func bracketStrings(bs []Bracket) []string {
	var s []string
	for _, b := range bs {
		s = append(s, fmt.Sprintf("%s%v", b.Label, b.Positions))
	}
	sort.Strings(s)
	return s
}

func TestCutFunction(t *testing.T) {
	tests := []struct{ in, want string }{
		{"NP", "NP"},
		{"NP-SBJ", "NP"},
		{"NP=2", "NP"},
		{"NP-SBJ=2", "NP"},
		{"NP=2-X", "NP"},
		{"-NONE-", "-NONE-"},
		{"-LRB-", "-LRB-"},
		{"-NONE-=1", "-NONE-"}, // '-' at 0: only '=' cuts (as disco-dop)
		{"=X-Y", "=X"},
		{"$(", "$("},
		{"", ""},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if g := cutFunction(tc.in); g != tc.want {
				t.Errorf("cutFunction(%q) = %q, want %q", tc.in, g, tc.want)
			}
		})
	}
}

// TestParams checks proper.prm's lists and that an EVALB-style file with the
// same settings parses to the same parameters.
func TestParams(t *testing.T) {
	p := ProperPrm()
	for _, l := range []string{"NOPARSE", "TOP", "ROOT", "VROOT", "$,", "$(", "$[", "$.", "PUNCT", "punct",
		"LET[]", "LET()", "LET", "let[]", "let()", "let", ",", ":", "``", "''", ".", "-NONE-"} {
		if !p.DeleteLabel[l] {
			t.Errorf("DELETE_LABEL lacks %q", l)
		}
	}
	if len(p.DeleteLabel) != 22 {
		t.Errorf("%d delete labels", len(p.DeleteLabel))
	}
	for _, w := range strings.Fields(`. , : ; ' ` + "`" + ` " ` + "``" + ` '' - ( ) / & $ ! !!! ? ?? ??? .. ... « »`) {
		if !p.DeleteWord[w] {
			t.Errorf("DELETE_WORD lacks %q", w)
		}
	}
	if len(p.DeleteWord) != 24 {
		t.Errorf("%d delete words", len(p.DeleteWord))
	}
	if p.EqLabel["PRT"] != p.EqLabel["ADVP"] || p.EqLabel["ADVP"] == "" {
		t.Errorf("EQ_LABEL %v", p.EqLabel)
	}
	if p.EqWord["-LRB-"] != p.EqWord["("] || p.EqWord["-RRB-"] != p.EqWord[")"] || p.EqWord["("] == p.EqWord[")"] {
		t.Errorf("EQ_WORD %v", p.EqWord)
	}
	if p.CutoffLen != 40 || !p.Labeled || p.DiscOnly || p.DeleteRootPreterms || len(p.DeleteLabelForLength) != 0 {
		t.Errorf("scalars %+v", p)
	}
	// Round trip through the parameter-file syntax.
	q, err := ParseParams(strings.NewReader("# comment\nDEBUG 0\nMAX_ERROR 10\n"+p.String()), "proper.prm")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p, q) {
		t.Errorf("round trip differs:\n%+v\n%+v", p, q)
	}
	// A byte order mark, as an editor on Windows writes it, is taken.
	q, err = ParseParams(strings.NewReader("\uFEFF"+p.String()), "proper.prm")
	if err != nil || !reflect.DeepEqual(p, q) {
		t.Errorf("with a byte order mark: %v", err)
	}
	// Errors.
	for _, bad := range []string{"CUTOFF_LEN 40\nCUTOFF_LEN 41\n", "FOO 1\n", "EQ_LABEL A\n", "LABELED x\n", "DELETE_WORD\n"} {
		if _, err := ParseParams(strings.NewReader(bad), "bad.prm"); err == nil {
			t.Errorf("ParseParams(%q) succeeded", bad)
		}
	}
	// Independent values: changing one does not touch the next.
	p.DeleteLabel["NP"] = true
	if ProperPrm().DeleteLabel["NP"] {
		t.Error("ProperPrm shares state between calls")
	}
}

// TestOtherParams covers the parameters that proper.prm leaves at defaults.
func TestOtherParams(t *testing.T) {
	tests := []struct {
		name       string
		edit       func(*Params)
		gold, cand string
		want       counts
	}{
		{
			name: "EQ_WORD makes words equal",
			edit: func(p *Params) { p.EqWord = closure([][2]string{{"colour", "color"}}) },
			gold: "(ROOT (S (n 0=colour) (v 1=b)))",
			cand: "(ROOT (S (n 0=color) (v 1=b)))",
			want: counts{1, 1, 1, 0, 0, 0, true, 2, 2, 2},
		},
		{
			name: "unlabelled",
			edit: func(p *Params) { p.Labeled = false },
			gold: "(ROOT (S (NP (n 0=a) (n 1=b)) (v 2=c)))",
			cand: "(ROOT (S (XX (n 0=a) (n 1=b)) (v 2=c)))",
			want: counts{2, 2, 2, 0, 0, 0, true, 3, 3, 3},
		},
		{
			name: "DELETE_ROOT_PRETERMS",
			edit: func(p *Params) { p.DeleteRootPreterms = true },
			gold: "(ROOT (S (NP (n 0=a) (n 2=b)) (v 3=c)) (x 1=y))",
			cand: "(ROOT (S (NP (n 0=a) (n 2=b)) (v 3=c) (x 1=y)))",
			// token 1 hangs under the gold root: deleted on both sides
			want: counts{2, 2, 2, 0, 0, 0, true, 3, 3, 4},
		},
		{
			name: "DELETE_LABEL_FOR_LENGTH",
			edit: func(p *Params) { p.DeleteLabelForLength = map[string]bool{"let": true} },
			gold: "(ROOT (S (n 0=a) (v 1=b)) (let 2=.))",
			cand: "(ROOT (S (n 0=a) (v 1=b)) (let 2=.))",
			want: counts{1, 1, 1, 0, 0, 0, true, 2, 2, 2},
		},
		{
			name: "no deletions keep punctuation",
			edit: func(p *Params) { *p = Params{Labeled: true} },
			gold: "(ROOT (S (NP (n 0=a) (let 1=,) (n 2=b)) (v 3=c)))",
			cand: "(ROOT (S (NP (n 0=a) (n 2=b)) (v 3=c)) (let 1=,))",
			// NP{0,1,2} vs NP{0,2}*; S{0..3} vs S{0,2,3}*
			want: counts{0, 2, 2, 0, 0, 2, false, 4, 4, 4},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := ProperPrm()
			tc.edit(&p)
			r, err := NewEvaluator(p).Add(mk(t, tc.gold), mk(t, tc.cand))
			if err != nil {
				t.Fatal(err)
			}
			if g := got(r); g != tc.want {
				t.Errorf("got  %+v\nwant %+v", g, tc.want)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	withID := func(tr *tree.Tree, id string) *tree.Tree { tr.ID = id; return tr }
	tests := []struct {
		name       string
		gold, cand []*tree.Tree
		wantSub    []string
	}{
		{
			name:    "different words",
			gold:    []*tree.Tree{mk(t, "(ROOT (S (n 0=a) (n 1=b)))"), withID(mk(t, "(ROOT (S (n 0=a) (n 1=b)))"), "s2")},
			cand:    []*tree.Tree{mk(t, "(ROOT (S (n 0=a) (n 1=b)))"), mk(t, "(ROOT (S (n 0=a) (n 1=c)))")},
			wantSub: []string{"sentence 2 (id s2)", `gold "b", candidate "c"`},
		},
		{
			name:    "candidate longer",
			gold:    []*tree.Tree{withID(mk(t, "(ROOT (S (n 0=a) (n 1=b)))"), "x")},
			cand:    []*tree.Tree{mk(t, "(ROOT (S (n 0=a) (n 1=b) (n 2=c)))")},
			wantSub: []string{"sentence 1 (id x)", "3 tokens, gold 2"},
		},
		{
			name:    "candidate shorter, not a subsequence",
			gold:    []*tree.Tree{mk(t, "(ROOT (S (n 0=a) (n 1=b) (n 2=c)))")},
			cand:    []*tree.Tree{mk(t, "(ROOT (S (n 0=a) (n 1=d)))")},
			wantSub: []string{"sentence 1:", `"d"`},
		},
		{
			name:    "word not deleted in gold",
			gold:    []*tree.Tree{mk(t, "(ROOT (S (n 0=a) (n 1=b) (n 2=c)))")},
			cand:    []*tree.Tree{mk(t, "(ROOT (S (n 0=a) (n 1=c)))")},
			wantSub: []string{"length mismatch"},
		},
		{
			name:    "sentence counts differ",
			gold:    []*tree.Tree{mk(t, "(ROOT (S (n 0=a)))")},
			cand:    nil,
			wantSub: []string{"gold has 1 sentences, candidate 0"},
		},
		{
			name:    "malformed tree",
			gold:    []*tree.Tree{{ID: "bad", Tokens: []tree.Token{{Word: "a", Parent: 7}}}},
			cand:    []*tree.Tree{mk(t, "(ROOT (S (n 0=a)))")},
			wantSub: []string{"sentence 1 (id bad): gold tree"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Evaluate(tc.gold, tc.cand, ProperPrm())
			if err == nil {
				t.Fatal("no error")
			}
			for _, s := range tc.wantSub {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
		})
	}
}

func TestEmptyNodeWithoutTokens(t *testing.T) {
	g := mk(t, "(ROOT (S (n 0=a) (v 1=b)))")
	c := g.Clone()
	c.Nodes = append(c.Nodes, tree.Node{Label: "NP", Parent: 0}) // dominates nothing
	r, err := NewEvaluator(ProperPrm()).Add(g, c)
	if err != nil {
		t.Fatal(err)
	}
	if r.Cand != 1 || !r.Exact {
		t.Errorf("empty node counted: %+v", r)
	}
}

// longSentence returns a gold/candidate pair of n words plus a final period:
// S over all words, NP over the first two (gold) or three (candidate) words.
func longSentence(n int) (*tree.Tree, *tree.Tree) {
	build := func(np int) *tree.Tree {
		tr := &tree.Tree{Nodes: []tree.Node{{Label: "S", Parent: tree.Root}, {Label: "NP", Parent: 0}}}
		for i := 0; i < n; i++ {
			par := 0
			if i < np {
				par = 1
			}
			tr.Tokens = append(tr.Tokens, tree.Token{Word: fmt.Sprintf("w%d", i), Tag: "n", Parent: par})
		}
		tr.Tokens = append(tr.Tokens, tree.Token{Word: ".", Tag: "let", Parent: tree.Root})
		return tr
	}
	return build(2), build(3)
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestCorpus checks corpus-level aggregation (sums over sums), the cutoff
// column (length counts punctuation, as in disco-dop with proper.prm), the
// JSON names and the text summary.
func TestCorpus(t *testing.T) {
	g1 := mk(t, "(ROOT (S (NP (lid 0=De) (n 1=man)) (ww 2=slaapt)) (let 3=.))")
	g2 := mk(t, "(ROOT (S (VP (ww 0=zag) (ww 2=komen)) (n 1=hem)))")
	c2 := mk(t, "(ROOT (S (VP (ww 0=zag) (n 1=hem) (ww 2=komen))))")
	g3, c3 := longSentence(40) // 41 tokens: beyond the cutoff
	g4, c4 := longSentence(39) // 40 tokens: within
	gold := []*tree.Tree{g1, g2, g3, g4}
	cand := []*tree.Tree{g1.Clone(), c2, c3, c4}
	r, err := Evaluate(gold, cand, ProperPrm())
	if err != nil {
		t.Fatal(err)
	}
	if r.PerSentence[2].InCutoff || !r.PerSentence[3].InCutoff || r.PerSentence[2].Length != 41 || r.PerSentence[3].Length != 40 {
		t.Fatalf("cutoff: %+v %+v", r.PerSentence[2], r.PerSentence[3])
	}
	a, l := r.All, r.Le40
	// All: matched 2+1+1+1=5, gold 8, cand 8; exact 1/4; POS 3+3+40+39=85.
	if a.Sentences != 4 || a.MatchedBrackets != 5 || a.GoldBrackets != 8 || a.CandBrackets != 8 ||
		a.ExactMatches != 1 || a.POSTotal != 85 || a.POSCorrect != 85 || a.LongestSentence != 41 ||
		a.GoldDiscBrackets != 1 || a.CandDiscBrackets != 0 || a.MatchedDiscBrackets != 0 {
		t.Errorf("All counts %+v", a)
	}
	if !near(a.Recall, 62.5) || !near(a.Precision, 62.5) || !near(a.F1, 62.5) || !near(a.Exact, 25) || !near(a.POSAccuracy, 100) ||
		a.DiscRecall != 0 || a.DiscPrecision != 0 || a.DiscF1 != 0 {
		t.Errorf("All scores %+v", a)
	}
	// <= 40: sentences 1, 2, 4: matched 4 of 6.
	if l.Sentences != 3 || l.MatchedBrackets != 4 || l.GoldBrackets != 6 || l.CandBrackets != 6 || l.LongestSentence != 40 ||
		!near(l.Recall, 400.0/6) || !near(l.Exact, 100.0/3) {
		t.Errorf("Le40 %+v", l)
	}
	js, _ := json.Marshal(r.All)
	for _, k := range []string{"recall", "precision", "f1", "disc_recall", "disc_precision", "disc_f1", "exact",
		"gold_brackets", "cand_brackets", "pos_accuracy", "sentences"} {
		if !strings.Contains(string(js), `"`+k+`":`) {
			t.Errorf("JSON lacks %q: %s", k, js)
		}
	}
	wantSummary := `_________ Summary _________ <= 40 ______ ALL
number of sentences:            3          4
longest sentence:              40         41
gold brackets:                  6          8
cand. brackets:                 6          8
disc. gold brackets:            1          1
disc. cand. brackets:           0          0
labeled recall:             66.67      62.50
labeled precision:          66.67      62.50
labeled f-measure:          66.67      62.50
exact match:                33.33      25.00
pos accuracy:              100.00     100.00
`
	if s := FormatSummary(r); s != wantSummary {
		t.Errorf("FormatSummary:\n%s\nwant:\n%s", s, wantSummary)
	}
	// Only sentences within the cutoff: one column.
	r2, err := Evaluate(gold[:2], cand[:2], ProperPrm())
	if err != nil {
		t.Fatal(err)
	}
	want2 := `__________ Summary (ALL) __________
number of sentences:            2
longest sentence:               4
gold brackets (disc.):          4 (1)
cand. brackets (disc.):         4 (0)
labeled recall:             75.00
labeled precision:          75.00
labeled f-measure:          75.00
exact match:                50.00
pos accuracy:              100.00
`
	if s := FormatSummary(r2); s != want2 {
		t.Errorf("FormatSummary:\n%s\nwant:\n%s", s, want2)
	}
	wantSent := `
   Sentence                 Matched   Brackets            Corr   POS
  ID Length  Recall  Precis Bracket   gold   cand  Words  POS  Accur.
 _________________________________________________________________
1      4  100.00  100.00       2      2      2      3     3  100.00 
2      3   50.00   50.00       1      2      2      3     3  100.00 
`
	if s := FormatSentences(r2); s != wantSent {
		t.Errorf("FormatSentences:\n%q\nwant:\n%q", s, wantSent)
	}
	if !strings.Contains(FormatDiscSummary(r2), "disc. recall:                0.00") {
		t.Errorf("FormatDiscSummary:\n%s", FormatDiscSummary(r2))
	}
}

// TestDiscOnly checks disco-dop's --disconly accounting.
func TestDiscOnly(t *testing.T) {
	p := ProperPrm()
	p.DiscOnly = true
	gold := []*tree.Tree{
		mk(t, "(ROOT (S (NP (lid 0=De) (n 1=man)) (ww 2=slaapt)))"), // no disc brackets: not counted
		mk(t, "(ROOT (S (VP (ww 0=zag) (ww 2=komen)) (n 1=hem)))"),  // disc VP, matched
		mk(t, "(ROOT (S (VP (ww 0=zag) (ww 2=komen)) (n 1=hem)))"),  // disc VP, missed
		mk(t, "(ROOT (S (VP (ww 0=zag) (n 1=hem) (ww 2=komen))))"),  // cand has a spurious disc VP
	}
	cand := []*tree.Tree{
		gold[0].Clone(),
		mk(t, "(ROOT (S (VP (ww 2=komen) (ww 0=zag)) (n 1=hem)))"),
		mk(t, "(ROOT (S (VP (ww 0=zag) (n 1=hem) (ww 2=komen))))"),
		mk(t, "(ROOT (S (VP (ww 0=zag) (ww 2=komen)) (n 1=hem)))"),
	}
	r, err := Evaluate(gold, cand, p)
	if err != nil {
		t.Fatal(err)
	}
	a := r.All
	if a.Sentences != 3 || a.ExactMatches != 1 || a.GoldBrackets != 2 || a.CandBrackets != 2 || a.MatchedBrackets != 1 ||
		!near(a.F1, 50) || !near(a.DiscF1, 50) || a.POSTotal != 12 {
		t.Errorf("disconly %+v", a)
	}
}

// TestUnmatchedNodes checks the node indices reported for highlighting.
func TestUnmatchedNodes(t *testing.T) {
	g := mk(t, "(ROOT (S (NP (NP (n 0=a))) (VP (v 1=b) (n 2=c))))")
	c := mk(t, "(ROOT (S (NP (n 0=a)) (NP (v 1=b) (n 2=c))))")
	r, err := NewEvaluator(ProperPrm()).Add(g, c)
	if err != nil {
		t.Fatal(err)
	}
	// gold nodes: 0 S, 1 NP, 2 NP (inner), 3 VP; cand: 0 S, 1 NP{0}, 2 NP{1,2}
	if !reflect.DeepEqual(r.GoldUnmatched, []int{2, 3}) || !reflect.DeepEqual(r.CandUnmatched, []int{2}) {
		t.Errorf("unmatched gold %v cand %v", r.GoldUnmatched, r.CandUnmatched)
	}
}
