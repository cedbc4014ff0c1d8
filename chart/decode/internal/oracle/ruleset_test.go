package oracle

import (
	"slices"
	"testing"

	"github.com/discspan/discspan/chart/decode"
)

// The exported rule sets of package decode agree with the oracle's copy of
// decoder.md's table of variants.
func TestVariantRuleSets(t *testing.T) {
	for _, v := range decode.Variants {
		want := variantRules[v]
		if got := v.Rules(); !slices.Equal(got, want) {
			t.Errorf("%s: decode says %v, the table says %v", v, got, want)
		}
		if !v.Has(decode.Axiom) {
			t.Errorf("%s lacks axioms", v)
		}
	}
	if decode.Variant(99).Has(decode.Combine) || decode.N6.Has(decode.Rule(42)) {
		t.Error("unknown variant or rule reported as present")
	}
}
