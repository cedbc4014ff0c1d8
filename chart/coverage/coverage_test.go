package coverage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

func dataFile(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "..", "shared", "data", "alpino-cdb", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("treebank data not found at %s (it lives in ../shared/data beside the repository): %v", p, err)
	}
	return p
}

func TestCoverageOnDev(t *testing.T) {
	trees, err := treebank.ReadFile(dataFile(t, "dev.punctmoved.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	stats := tree.CountTargets(trees)
	reports := map[decode.Variant]*Report{}
	for _, v := range []decode.Variant{decode.Continuous, decode.N3, decode.N4, decode.N5WN, decode.N5} {
		r, err := Compute(trees, v, nil)
		if err != nil {
			t.Fatal(err)
		}
		reports[v] = r
		t.Logf("%-10s all %.2f  bd<=2 %.2f  bd=2 %.2f (%d/%d)", v, r.All.Recall(), r.BDLe2.Recall(), r.BDEq2.Recall(), r.BDEq2.Recovered, r.BDEq2.Total)
	}
	cont, n3, n4, n5 := reports[decode.Continuous], reports[decode.N3], reports[decode.N4], reports[decode.N5]
	if cont.BDEq2.Recovered != 0 {
		t.Errorf("continuous recovers %d discontinuous constituents, want 0", cont.BDEq2.Recovered)
	}
	if n3.All != n4.All || n3.BDEq2 != n4.BDEq2 {
		t.Errorf("n3 %+v and n4 %+v differ: they have the same search space", n3.All, n4.All)
	}
	if !(cont.All.Recovered < n4.All.Recovered && n4.All.Recovered <= reports[decode.N5WN].All.Recovered && reports[decode.N5WN].All.Recovered <= n5.All.Recovered) {
		t.Errorf("coverage must grow with the search space: %d, %d, %d, %d", cont.All.Recovered, n4.All.Recovered, reports[decode.N5WN].All.Recovered, n5.All.Recovered)
	}
	// Totals agree with the target statistics (every node counted once).
	if n4.BDEq2.Total != stats.Discontinuous-stats.Skipped {
		t.Errorf("bd=2 total %d, target statistics say %d", n4.BDEq2.Total, stats.Discontinuous-stats.Skipped)
	}
	if n4.All.Total-n4.BDLe2.Total < stats.Skipped {
		t.Errorf("block degree > 2 nodes %d fewer than skipped targets %d", n4.All.Total-n4.BDLe2.Total, stats.Skipped)
	}
	// Continuous constituents are always all reachable.
	if got, want := cont.BDLe2.Recovered, cont.BDLe2.Total-cont.BDEq2.Total; got > want || n5.BDLe2.Recall() < 99 {
		t.Errorf("continuous recovers %d of %d continuous nodes; n5 bd<=2 recall %.2f", got, want, n5.BDLe2.Recall())
	}
}

func TestBuildable(t *testing.T) {
	// "What should I do ?" with the discontinuous VP {What, do}.
	trees, err := treebank.ReadAll(strings.NewReader(
		"(ROOT (SBARQ (SQ (VP (WP 0=What) (VB 3=do)) (MD 1=should) (NP (PRP 2=I))) (. 4=?)))\n"),
		"wh.discbracket", treebank.Discbracket)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		v            decode.Variant
		found, wrong int
	}{
		{decode.Continuous, 3, 1}, // SBARQ, SQ, NP; not the VP
		{decode.N3, 4, 0},
		{decode.N6, 4, 0},
	}
	for _, tc := range tests {
		found, missing, err := Buildable(decode.NewDecoder(nil), trees[0], tc.v)
		if err != nil {
			t.Fatal(err)
		}
		if len(found) != tc.found || len(missing) != tc.wrong {
			t.Errorf("%s: found %v, missing %v; want %d found and %d missing", tc.v, found, missing, tc.found, tc.wrong)
		}
		for _, c := range missing {
			if len(c.Blocks) != 2 {
				t.Errorf("%s: missing continuous constituent %v", tc.v, c)
			}
		}
	}
}
