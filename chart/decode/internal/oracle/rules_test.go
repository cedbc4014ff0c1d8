package oracle

import (
	"slices"
	"testing"

	"github.com/discspan/discspan/chart/decode"
)

// TestRuleTable checks the transcription of decoder.md's rules: all twelve
// are there, and for every instance on a sentence of 7 words the two
// antecedents are disjoint and cover exactly the consequent (so no rule
// invents or loses words), and every rule has instances.
func TestRuleTable(t *testing.T) {
	const n = 7
	for id := decode.Combine; id <= decode.IllGapLeft; id++ {
		r, ok := rules[id]
		if !ok {
			t.Fatalf("rule %v missing", id)
		}
		instances := 0
		var bind [8]int
		total := 1
		for range r.nvars {
			total *= n + 1
		}
		for code := 0; code < total; code++ {
			x := code
			for v := 0; v < r.nvars; v++ {
				bind[v] = x % (n + 1)
				x /= n + 1
			}
			if !chainsHold(r.chains, &bind) {
				continue
			}
			a, b, out := instantiate(r.ants[0], &bind), instantiate(r.ants[1], &bind), instantiate(r.cons, &bind)
			if !a.valid(n) || !b.valid(n) || !out.valid(n) {
				continue
			}
			instances++
			if a.mask()&b.mask() != 0 || a.mask()|b.mask() != out.mask() {
				t.Fatalf("%v: %v + %v -> %v does not partition the consequent", id, a, b, out)
			}
		}
		if instances == 0 {
			t.Errorf("%v: no instance on %d words", id, n)
		}
	}
}

// TestVariantRules checks the variant lattice of decoder.md: each variant's
// rules include those of the variants below it.
func TestVariantRules(t *testing.T) {
	below := [][2]decode.Variant{
		{decode.Continuous, decode.N4}, {decode.N4, decode.N5WN}, {decode.N5WN, decode.N5},
		{decode.N5, decode.N6}, {decode.N5WN, decode.N6WN}, {decode.N6WN, decode.N6},
	}
	for _, p := range below {
		for _, r := range variantRules[p[0]] {
			if !slices.Contains(variantRules[p[1]], r) {
				t.Errorf("%v has %v but %v has not", p[0], r, p[1])
			}
		}
	}
	if !slices.Equal(variantRules[decode.N3], variantRules[decode.N4]) {
		t.Errorf("n3 searched with %v, want the n4 rules %v", variantRules[decode.N3], variantRules[decode.N4])
	}
	if len(variantRules[decode.N6]) != 12 {
		t.Errorf("n6 has %d rules, want 12", len(variantRules[decode.N6]))
	}
}
