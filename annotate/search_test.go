package annotate

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/discspan/discspan/chart/tree"
)

// corpusOf builds a corpus of discbracket trees with ids s1, s2, ...
func corpusOf(t testing.TB, lines ...string) *Corpus {
	t.Helper()
	var trees []*tree.Tree
	for i, l := range lines {
		tr := parse(t, l)
		tr.ID = "s" + string(rune('1'+i))
		trees = append(trees, tr)
	}
	return NewCorpus("test", trees, Untouched)
}

func TestFindWordsAndLabel(t *testing.T) {
	c := corpusOf(t, manDog,
		"(ROOT (S (NP (DT 0=The) (NN 1=man)) (VP (VB 2=left))))",
		"(ROOT (S (NP (DT 0=a) (NN 1=MAN) (PP (IN 2=with) (NP (DT 3=the) (NN 4=man))))))")
	tests := []struct {
		words []string
		want  []WordHit
	}{
		{[]string{"the", "man"}, []WordHit{{0, 0, 2}, {1, 0, 2}, {2, 3, 5}}},
		{[]string{"MAN"}, []WordHit{{0, 1, 2}, {1, 1, 2}, {2, 1, 2}, {2, 4, 5}}},
		{[]string{"man", "saw", "a", "dog", ".", "x"}, nil},
		{nil, nil},
	}
	for _, tc := range tests {
		if got := c.FindWords(tc.words); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("FindWords(%q) = %v, want %v", tc.words, got, tc.want)
		}
	}
	if got, want := c.FindLabel("VP"), []NodeHit{{0, 2}, {1, 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("FindLabel(VP) = %v, want %v", got, want)
	}
	if got := c.FindLabel("vp"); got != nil {
		t.Errorf("FindLabel(vp) = %v, want nothing (labels are compared exactly)", got)
	}
}

func TestInconsistencies(t *testing.T) {
	c := corpusOf(t,
		"(ROOT (S (NP (DT 0=the) (NN 1=man)) (VP (VB 2=left))))",      // NP
		"(ROOT (S (NP (DT 0=The) (NN 1=man)) (VP (VB 2=came))))",      // NP
		"(ROOT (S (VP (VB 0=saw) (DT 1=the) (NN 2=man))))",            // not a constituent
		"(ROOT (S (VP (VB 0=saw) (XP (DT 1=the) (NN 2=man)))))",       // XP
		"(ROOT (S (VP (VB 0=left) (NP (NP (DT 1=the) (NN 2=man))))))", // NP/NP chain
		"(ROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?)))",   // discontinuous VP: not considered
		"(ROOT (S (VB 0=is) (JJ 1=rich)))",                            // "is rich" never a continuous constituent
	)
	groups := c.Inconsistencies(ConsistencyOptions{})
	type analysis struct {
		label string
		sents []int
		nodes [][]int
	}
	var got []analysis
	for _, g := range groups {
		if strings.Join(g.Words, " ") != "the man" {
			continue
		}
		for _, a := range g.Analyses {
			an := analysis{label: a.Label}
			for _, o := range a.Occurrences {
				an.sents = append(an.sents, o.Sentence)
				an.nodes = append(an.nodes, o.Nodes)
				if o.ID != c.Sentences[o.Sentence].ID() || strings.ToLower(strings.Join(c.Sentences[o.Sentence].Tree().Words()[o.Start:o.End], " ")) != "the man" {
					t.Errorf("occurrence %+v does not point at the words", o)
				}
			}
			got = append(got, an)
		}
	}
	want := []analysis{
		{"NP", []int{0, 1}, [][]int{{0}, {0}}},
		{"", []int{2}, [][]int{nil}},
		{"NP/NP", []int{4}, [][]int{{1, 0}}},
		{"XP", []int{3}, [][]int{{0}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("analyses of \"the man\":\n got %+v\nwant %+v", got, want)
	}
	for _, g := range groups {
		if len(g.Analyses) < 2 {
			t.Errorf("group %q has one analysis", g.Words)
		}
		if strings.Join(g.Words, " ") == "is rich" {
			t.Errorf("discontinuous constituent taken as a word sequence")
		}
	}
	// Bounds.
	if groups := c.Inconsistencies(ConsistencyOptions{MinWords: 3}); len(groups) != 0 {
		t.Errorf("MinWords 3: %d groups, want none", len(groups))
	}
	if groups := c.Inconsistencies(ConsistencyOptions{MinWords: 3, MaxWords: 2}); groups != nil {
		t.Errorf("MaxWords < MinWords: %d groups", len(groups))
	}
}

// trainCorpus imports the Alpino training set, or skips.
func trainCorpus(t testing.TB) *Corpus {
	t.Helper()
	c, err := ImportFile(filepath.Join(dataDir(t), "alpino-cdb", "train.export"), ImportOptions{})
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	return c
}

// TestInconsistenciesData checks the search on the Alpino training set
// against a direct recount of a few groups.
func TestInconsistenciesData(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the training set in short mode")
	}
	c := trainCorpus(t)
	start := time.Now()
	groups := c.Inconsistencies(ConsistencyOptions{})
	t.Logf("%d sentences: %d inconsistent word sequences in %v", len(c.Sentences), len(groups), time.Since(start))
	if len(groups) == 0 {
		t.Fatal("no inconsistencies found in the training set")
	}
	if !slices.IsSortedFunc(groups, func(a, b Group) int { return b.Count() - a.Count() }) {
		t.Error("groups not sorted by count")
	}
	for _, g := range groups[:min(5, len(groups))] {
		// Every occurrence of the words is in the group, with the right
		// analysis.
		hits := c.FindWords(g.Words)
		if len(hits) != g.Count() {
			t.Errorf("%q: %d occurrences in the group, FindWords finds %d", g.Words, g.Count(), len(hits))
		}
		labels := map[string]bool{}
		for _, a := range g.Analyses {
			labels[a.Label] = true
			for _, o := range a.Occurrences {
				tr := c.Sentences[o.Sentence].Tree()
				var chain []string
				for _, n := range o.Nodes {
					chain = append(chain, tr.Nodes[n].Label)
					if y := tr.Yields()[n]; y[0] != o.Start || y[len(y)-1] != o.End-1 || len(y) != o.End-o.Start {
						t.Errorf("%q in %s: node %d covers %v", g.Words, o.ID, n, y)
					}
				}
				if strings.Join(chain, "/") != a.Label {
					t.Errorf("%q in %s: nodes %v, label %q", g.Words, o.ID, chain, a.Label)
				}
			}
		}
		t.Logf("%q: %d occurrences, analyses %v", strings.Join(g.Words, " "), g.Count(), labels)
	}
}

func BenchmarkInconsistencies(b *testing.B) {
	c := trainCorpus(b)
	for b.Loop() {
		c.Inconsistencies(ConsistencyOptions{})
	}
}

func BenchmarkFindWords(b *testing.B) {
	c := trainCorpus(b)
	for b.Loop() {
		c.FindWords([]string{"de", "regering"})
	}
}
