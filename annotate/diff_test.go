package annotate

import (
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/discspan/discspan/chart/eval"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

func TestDiff(t *testing.T) {
	tests := []struct {
		name       string
		a, b       string
		matched    []Pair
		onlyA      []string
		onlyB      []string
		p, r, f1   float64
		wantErrors bool
	}{
		{name: "same", a: manDog, b: manDog,
			matched: []Pair{{0, 0}, {1, 1}, {2, 2}, {3, 3}}, p: 100, r: 100, f1: 100},
		{name: "relabelled and moved",
			a:       manDog,
			b:       "(ROOT (S (NP (DT 0=the) (NN 1=man)) (VP (VB 2=saw) (DP (DT 3=a) (NN 4=dog))) (. 5=.)))",
			matched: []Pair{{0, 0}, {2, 2}},
			onlyA:   []string{"NP[3,5)", "S[0,5)"},
			onlyB:   []string{"DP[3,5)", "S[0,6)"},
			p:       50, r: 50, f1: 50},
		{name: "unary chain counts twice",
			a:       "(ROOT (S (NP (NN 0=a)) (VB 1=b)))",
			b:       "(ROOT (S (NP (NP (NN 0=a))) (VB 1=b)))",
			matched: []Pair{{0, 0}, {1, 2}},
			onlyB:   []string{"NP[0,1)"},
			p:       200.0 / 3, r: 100, f1: 80},
		{name: "no constituents", a: "(ROOT (A 0=a))", b: "(ROOT (A 0=a))"},
		{name: "lengths differ", a: "(ROOT (A 0=a))", b: "(ROOT (A 0=a) (B 1=b))", wantErrors: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Diff(parse(t, tc.a), parse(t, tc.b))
			if tc.wantErrors {
				if err == nil {
					t.Fatal("no error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			cons := func(cs []Constituent) []string {
				var out []string
				for _, c := range cs {
					out = append(out, Fixed{c.Label, c.Yield}.String())
				}
				return out
			}
			if !reflect.DeepEqual(d.Matched, tc.matched) || !reflect.DeepEqual(cons(d.OnlyA), tc.onlyA) || !reflect.DeepEqual(cons(d.OnlyB), tc.onlyB) {
				t.Errorf("got %v, %v, %v; want %v, %v, %v", d.Matched, cons(d.OnlyA), cons(d.OnlyB), tc.matched, tc.onlyA, tc.onlyB)
			}
			for _, x := range [][2]float64{{d.Precision, tc.p}, {d.Recall, tc.r}, {d.F1, tc.f1}} {
				if math.Abs(x[0]-x[1]) > 1e-9 {
					t.Errorf("P/R/F1 %.4f %.4f %.4f, want %.4f %.4f %.4f", d.Precision, d.Recall, d.F1, tc.p, tc.r, tc.f1)
					break
				}
			}
		})
	}
	bad := &tree.Tree{Tokens: []tree.Token{{Word: "a", Parent: 3}}}
	if _, err := Diff(bad, bad); err == nil {
		t.Error("malformed tree: no error")
	}
}

// TestDiffMatchesEval compares Diff with chart/eval sentence by sentence on
// real pairs that differ: the raw Alpino dev trees (punctuation at the
// root) against the punctuation-moved ones, and against the trees with
// unary chains merged.
func TestDiffMatchesEval(t *testing.T) {
	dir := filepath.Join(dataDir(t), "alpino-cdb")
	gold, err := treebank.ReadFile(filepath.Join(dir, "dev.export"))
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	moved, err := treebank.ReadFile(filepath.Join(dir, "dev.punctmoved.discbracket"))
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	merged := make([]*tree.Tree, len(gold))
	for i, g := range gold {
		merged[i] = tree.MergeUnaries(g)
	}
	p := eval.Params{Name: "raw", Labeled: true, KeepFunctionTags: true}
	for _, pair := range []struct {
		name string
		cand []*tree.Tree
	}{{"punctmoved", moved}, {"merged unaries", merged}} {
		t.Run(pair.name, func(t *testing.T) {
			ev := eval.NewEvaluator(p)
			differ := 0
			for i, g := range gold {
				c := pair.cand[i]
				r, err := ev.Add(g, c)
				if err != nil {
					t.Fatal(err)
				}
				d, err := Diff(g, c)
				if err != nil {
					t.Fatal(err)
				}
				if len(d.OnlyA)+len(d.OnlyB) > 0 {
					differ++
				}
				if len(d.Matched) != r.Matched || len(d.Matched)+len(d.OnlyA) != r.Gold || len(d.Matched)+len(d.OnlyB) != r.Cand ||
					math.Abs(d.Precision-r.Precision) > 1e-9 || math.Abs(d.Recall-r.Recall) > 1e-9 || math.Abs(d.F1-r.F1) > 1e-9 {
					t.Fatalf("sentence %d (%s): diff %d/%d/%d P %.3f R %.3f F %.3f; eval %d/%d/%d P %.3f R %.3f F %.3f", i, g.ID,
						len(d.Matched), len(d.Matched)+len(d.OnlyA), len(d.Matched)+len(d.OnlyB), d.Precision, d.Recall, d.F1,
						r.Matched, r.Gold, r.Cand, r.Precision, r.Recall, r.F1)
				}
				var onlyA, onlyB []int
				for _, c := range d.OnlyA {
					onlyA = append(onlyA, c.Node)
				}
				for _, c := range d.OnlyB {
					onlyB = append(onlyB, c.Node)
				}
				slices.Sort(onlyB)
				if !slices.Equal(onlyA, r.GoldUnmatched) || !slices.Equal(onlyB, r.CandUnmatched) {
					t.Fatalf("sentence %d: unmatched %v %v, eval %v %v", i, onlyA, onlyB, r.GoldUnmatched, r.CandUnmatched)
				}
			}
			if differ == 0 {
				t.Fatal("no sentence pair differs; the test proves nothing")
			}
			t.Logf("%d of %d sentence pairs differ; corpus F1 %.2f", differ, len(gold), ev.Result().All.F1)
		})
	}
}
