package eval

import (
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

// dataDir is the shared data folder, relative to this package.
var dataDir = filepath.Join("..", "..", "..", "shared", "data")

func readData(t *testing.T, rel string) []*tree.Tree {
	t.Helper()
	path := filepath.Join(dataDir, rel)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("data file %s not available (%v): skipping real-data test", path, err)
	}
	trees, err := treebank.ReadFile(path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return trees
}

// Expected counts for alpino-cdb dev under proper.prm, computed by an
// independent script over dev.export (and consistent with STATS.txt: 530 of
// 7116 constituents, 7.45%, discontinuous with punctuation ignored).
// Cutoff: 682 of the 714 sentences have at most 40 tokens (punctuation
// included).
var devWant = struct {
	sents, sents40, longest        int
	gold, gold40, disc, disc40     int
	np, np40, discNP, discNP40     int
	noNP, noNP40, noDisc, noDisc40 int
	words, words40                 int
}{
	sents: 714, sents40: 682, longest: 65,
	gold: 7116, gold40: 6287, disc: 530, disc40: 445,
	np: 2329, np40: 2052, discNP: 81, discNP40: 72,
	noNP: 54, noNP40: 54, noDisc: 404, noDisc40: 402,
	words: 12069, words40: 10684,
}

func checkCounts(t *testing.T, name string, s Summary, sents, longest, gold, cand, matched, dgold, dcand, dmatched, exact, words int) {
	t.Helper()
	g := []int{s.Sentences, s.LongestSentence, s.GoldBrackets, s.CandBrackets, s.MatchedBrackets,
		s.GoldDiscBrackets, s.CandDiscBrackets, s.MatchedDiscBrackets, s.ExactMatches, s.POSTotal, s.POSCorrect}
	w := []int{sents, longest, gold, cand, matched, dgold, dcand, dmatched, exact, words, words}
	for i := range g {
		if g[i] != w[i] {
			t.Errorf("%s: counts\n got  %v\n want %v (sents longest gold cand matched dgold dcand dmatched exact words poscorrect)", name, g, w)
			return
		}
	}
	want := func(what string, got, want float64) {
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s: %s = %.6f, want %.6f", name, what, got, want)
		}
	}
	want("recall", s.Recall, pct(matched, gold))
	want("precision", s.Precision, pct(matched, cand))
	want("f1", s.F1, f1(matched, gold, cand))
	want("disc recall", s.DiscRecall, pct(dmatched, dgold))
	want("disc precision", s.DiscPrecision, pct(dmatched, dcand))
	want("exact", s.Exact, pct(exact, sents))
	want("pos accuracy", s.POSAccuracy, 100)
}

// TestRealDataIdentity: the dev set against itself in every format scores 100
// everywhere; where the punctuation is attached must not matter.
func TestRealDataIdentity(t *testing.T) {
	w := devWant
	tests := []struct{ name, cand string }{
		{"export vs export", "alpino-cdb/dev.export"},
		{"export vs discbracket", "alpino-cdb/dev.discbracket"},
		{"export vs punctmoved discbracket", "alpino-cdb/dev.punctmoved.discbracket"},
	}
	gold := readData(t, "alpino-cdb/dev.export")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cand := readData(t, tc.cand)
			r, err := Evaluate(gold, cand, ProperPrm())
			if err != nil {
				t.Fatal(err)
			}
			checkCounts(t, "all", r.All, w.sents, w.longest, w.gold, w.gold, w.gold, w.disc, w.disc, w.disc, w.sents, w.words)
			checkCounts(t, "<=40", r.Le40, w.sents40, 40, w.gold40, w.gold40, w.gold40, w.disc40, w.disc40, w.disc40, w.sents40, w.words40)
			for _, v := range []float64{r.All.Recall, r.All.Precision, r.All.F1, r.All.DiscF1, r.All.Exact, r.All.POSAccuracy, r.Le40.F1, r.Le40.DiscF1} {
				if v != 100 {
					t.Errorf("score %v, want exactly 100", v)
				}
			}
			if s := FormatSummary(r); !strings.Contains(s, "labeled f-measure:         100.00     100.00") {
				t.Errorf("summary:\n%s", s)
			}
		})
	}
}

// relabel returns copies of the trees in which every node labelled from is
// labelled "XX".
func relabel(trees []*tree.Tree, from string) []*tree.Tree {
	out := make([]*tree.Tree, len(trees))
	for i, tr := range trees {
		c := tr.Clone()
		for j := range c.Nodes {
			if c.Nodes[j].Label == from {
				c.Nodes[j].Label = "XX"
			}
		}
		out[i] = c
	}
	return out
}

// removeNodes returns a copy of tr without the nodes in drop; their children
// move up to the nearest kept ancestor.
func removeNodes(tr *tree.Tree, drop map[int]bool) *tree.Tree {
	c := tr.Clone()
	up := func(p int) int {
		for p != tree.Root && drop[p] {
			p = tr.Nodes[p].Parent
		}
		return p
	}
	newIdx := make([]int, len(tr.Nodes))
	var nodes []tree.Node
	for i, n := range tr.Nodes {
		if drop[i] {
			newIdx[i] = -1
			continue
		}
		newIdx[i] = len(nodes)
		nodes = append(nodes, n)
	}
	re := func(p int) int {
		p = up(p)
		if p == tree.Root {
			return p
		}
		return newIdx[p]
	}
	for i := range nodes {
		nodes[i].Parent = re(nodes[i].Parent)
		nodes[i].Sec = nil
	}
	for i := range c.Tokens {
		c.Tokens[i].Parent = re(c.Tokens[i].Parent)
		c.Tokens[i].Sec = nil
	}
	c.Nodes = nodes
	return c
}

// TestRealDataPerturbed: perturbed candidates lose exactly the expected
// brackets.
func TestRealDataPerturbed(t *testing.T) {
	w := devWant
	gold := readData(t, "alpino-cdb/dev.export")
	p := ProperPrm()
	t.Run("every NP relabelled XX", func(t *testing.T) {
		r, err := Evaluate(gold, relabel(gold, "NP"), p)
		if err != nil {
			t.Fatal(err)
		}
		checkCounts(t, "all", r.All, w.sents, w.longest, w.gold, w.gold, w.gold-w.np, w.disc, w.disc, w.disc-w.discNP, w.noNP, w.words)
		checkCounts(t, "<=40", r.Le40, w.sents40, 40, w.gold40, w.gold40, w.gold40-w.np40, w.disc40, w.disc40, w.disc40-w.discNP40, w.noNP40, w.words40)
		if s := FormatSummary(r); !strings.Contains(s, "labeled recall:             67.36      67.27") {
			t.Errorf("summary:\n%s", s)
		}
	})
	t.Run("every discontinuous node removed", func(t *testing.T) {
		cand := make([]*tree.Tree, len(gold))
		for i, g := range gold {
			bs, err := Brackets(g, p)
			if err != nil {
				t.Fatal(err)
			}
			drop := map[int]bool{}
			for _, b := range bs {
				if b.Disc() {
					drop[b.Node] = true
				}
			}
			cand[i] = removeNodes(g, drop)
		}
		r, err := Evaluate(gold, cand, p)
		if err != nil {
			t.Fatal(err)
		}
		checkCounts(t, "all", r.All, w.sents, w.longest, w.gold, w.gold-w.disc, w.gold-w.disc, w.disc, 0, 0, w.noDisc, w.words)
		checkCounts(t, "<=40", r.Le40, w.sents40, 40, w.gold40, w.gold40-w.disc40, w.gold40-w.disc40, w.disc40, 0, 0, w.noDisc40, w.words40)
		if r.All.Precision != 100 || r.All.DiscRecall != 0 {
			t.Errorf("precision %v disc recall %v", r.All.Precision, r.All.DiscRecall)
		}
	})
}

// TestAlpinoSample evaluates disco-dop's own alpinosample.export against
// itself.
func TestAlpinoSample(t *testing.T) {
	gold := readData(t, "disco-dop-alpinosample/alpinosample.export")
	r, err := Evaluate(gold, gold, ProperPrm())
	if err != nil {
		t.Fatal(err)
	}
	if r.All.Sentences != 3 || r.All.F1 != 100 || r.All.Exact != 100 || r.All.POSAccuracy != 100 {
		t.Errorf("%+v", r.All)
	}
}

// perturb returns a seeded random corruption of the trees: relabelled nodes
// (including EQ_LABEL and DELETE_LABEL labels), wrong tags (including
// punctuation tags), reattached tokens and nodes, removed nodes.
func perturb(gold []*tree.Tree) []*tree.Tree {
	rng := rand.New(rand.NewSource(1))
	labels := []string{"NP", "PP", "XX", "ADVP", "PRT", "VROOT", "SMAIN", "let"}
	tags := []string{"n", "let", "ww", "LET()", "punct", "vz"}
	cand := make([]*tree.Tree, len(gold))
	for i, g := range gold {
		c := g.Clone()
		c.ID = ""
		for j := range c.Nodes {
			c.Nodes[j].Sec = nil
			if rng.Float64() < 0.15 {
				c.Nodes[j].Label = labels[rng.Intn(len(labels))]
			}
		}
		for j := range c.Tokens {
			c.Tokens[j].Sec = nil
			if rng.Float64() < 0.05 {
				c.Tokens[j].Tag = tags[rng.Intn(len(tags))]
			}
			if rng.Float64() < 0.1 && len(c.Nodes) > 0 {
				p := rng.Intn(len(c.Nodes) + 1)
				if p == len(c.Nodes) {
					p = tree.Root
				}
				c.Tokens[j].Parent = p
			}
		}
		for k := 0; k < 2 && len(c.Nodes) > 1; k++ { // reattach to a non-descendant
			n, p := rng.Intn(len(c.Nodes)), rng.Intn(len(c.Nodes))
			ok := true
			for q := p; q != tree.Root; q = c.Nodes[q].Parent {
				if q == n {
					ok = false
					break
				}
			}
			if ok {
				c.Nodes[n].Parent = p
			}
		}
		if rng.Float64() < 0.3 && len(c.Nodes) > 0 {
			c = removeNodes(c, map[int]bool{rng.Intn(len(c.Nodes)): true})
		}
		cand[i] = c
	}
	return cand
}

// TestRealDataRandomPerturbation compares with counts computed by an
// independent evaluator (a separate Python implementation of the same
// semantics, run on this candidate written out as an export file).
func TestRealDataRandomPerturbation(t *testing.T) {
	gold := readData(t, "alpino-cdb/dev.export")
	cand := perturb(gold)
	for i, c := range cand {
		if err := c.Validate(); err != nil {
			t.Fatalf("perturbed tree %d: %v", i, err)
		}
	}
	r, err := Evaluate(gold, cand, ProperPrm())
	if err != nil {
		t.Fatal(err)
	}
	type c struct{ sents, gold, cand, matched, dgold, dcand, dmatched, exact, pos, posOK int }
	tests := []struct {
		name string
		s    Summary
		want c
	}{
		{"all", r.All, c{714, 7116, 6600, 2703, 530, 2846, 135, 52, 12069, 11492}},
		{"<=40", r.Le40, c{682, 6287, 5823, 2402, 445, 2452, 120, 52, 10684, 10173}},
	}
	for _, tc := range tests {
		s := tc.s
		g := c{s.Sentences, s.GoldBrackets, s.CandBrackets, s.MatchedBrackets, s.GoldDiscBrackets, s.CandDiscBrackets,
			s.MatchedDiscBrackets, s.ExactMatches, s.POSTotal, s.POSCorrect}
		if g != tc.want {
			t.Errorf("%s:\n got  %+v\n want %+v", tc.name, g, tc.want)
		}
	}
	// The independent evaluator printed, <=40 then all:
	// R 38.21/37.98 P 41.25/40.95 F 39.67/39.41 discR 26.97/25.47
	// discP 4.89/4.74 discF 8.28/8.00 ex 7.62/7.28 pos 95.22/95.22
	want := []struct {
		v    float64
		want string
	}{
		{r.Le40.Recall, "38.21"}, {r.All.Recall, "37.98"}, {r.Le40.Precision, "41.25"}, {r.All.Precision, "40.95"},
		{r.Le40.F1, "39.67"}, {r.All.F1, "39.41"}, {r.Le40.DiscRecall, "26.97"}, {r.All.DiscRecall, "25.47"},
		{r.Le40.DiscPrecision, "4.89"}, {r.All.DiscPrecision, "4.74"}, {r.Le40.DiscF1, "8.28"}, {r.All.DiscF1, "8.00"},
		{r.Le40.Exact, "7.62"}, {r.All.Exact, "7.28"}, {r.Le40.POSAccuracy, "95.22"}, {r.All.POSAccuracy, "95.22"},
	}
	for i, w := range want {
		if g := fmt.Sprintf("%.2f", w.v); g != w.want {
			t.Errorf("score %d = %s, want %s", i, g, w.want)
		}
	}
}
