package eval

import (
	"strings"
	"testing"
)

// TestLabelScores evaluates the dev set against a copy whose NP nodes are
// relabelled XP: NP has recall 0, XP precision 0, every other label 100, and
// the per-label counts add up to the summary's.
func TestLabelScores(t *testing.T) {
	gold := readData(t, "alpino-cdb/dev.punctmoved.discbracket")
	cand := readData(t, "alpino-cdb/dev.punctmoved.discbracket")
	for _, c := range cand {
		for i := range c.Nodes {
			if c.Nodes[i].Label == "NP" {
				c.Nodes[i].Label = "XP"
			}
		}
	}
	r, err := Evaluate(gold, cand, ProperPrm())
	if err != nil {
		t.Fatal(err)
	}
	var g, c, m int
	byLabel := map[string]LabelScore{}
	for _, s := range r.Labels {
		g, c, m = g+s.Gold, c+s.Cand, m+s.Matched
		byLabel[s.Label] = s
	}
	if g != r.All.GoldBrackets || c != r.All.CandBrackets || m != r.All.MatchedBrackets {
		t.Errorf("per-label sums gold %d cand %d matched %d, summary %d %d %d", g, c, m, r.All.GoldBrackets, r.All.CandBrackets, r.All.MatchedBrackets)
	}
	np, xp := byLabel["NP"], byLabel["XP"]
	if np.Gold == 0 || np.Cand != 0 || np.Recall != 0 || xp.Cand != np.Gold || xp.Gold != 0 || xp.Precision != 0 {
		t.Errorf("NP %+v, XP %+v", np, xp)
	}
	for _, s := range r.Labels {
		if s.Label != "NP" && s.Label != "XP" && s.F1 != 100 {
			t.Errorf("label %s: %+v, want F1 100", s.Label, s)
		}
	}
	if r.Labels[0].Gold < r.Labels[len(r.Labels)-1].Gold {
		t.Errorf("labels not sorted by gold count: %+v first", r.Labels[0])
	}
	table := FormatLabels(r)
	if !strings.Contains(table, "NP ") || strings.Count(table, "\n") != len(r.Labels)+1 {
		t.Errorf("table:\n%s", table)
	}
}
