package teach

import (
	"context"
	"testing"

	"github.com/discspan/discspan/chart/decode"
)

// Every example parses, is discontinuous, and Smallest is exactly the
// cheapest variant that builds it whole; the continuous baseline never can.
func TestGallery(t *testing.T) {
	ids := map[string]bool{}
	for _, ex := range Gallery() {
		if ids[ex.ID] {
			t.Errorf("duplicate id %s", ex.ID)
		}
		ids[ex.ID] = true
		tr, err := ex.Tree()
		if err != nil {
			t.Fatalf("%s: %v", ex.ID, err)
		}
		if err := tr.Validate(); err != nil {
			t.Fatalf("%s: %v", ex.ID, err)
		}
		if ex.Explanation == "" || ex.Title == "" || ex.Language == "" {
			t.Errorf("%s: missing text", ex.ID)
		}
		bs, err := CompareVariants(tr, decode.Variants)
		if err != nil {
			t.Fatal(err)
		}
		smallest := decode.Variant(-1)
		for _, b := range bs {
			if b.Complete() && smallest < 0 {
				smallest = b.Variant
			}
		}
		if smallest != ex.Smallest {
			t.Errorf("%s: smallest complete variant %v, the gallery says %v", ex.ID, smallest, ex.Smallest)
		}
		if bs[0].Complete() {
			t.Errorf("%s: the continuous baseline builds it: not a discontinuity", ex.ID)
		}
		// The replay of the smallest variant on gold scores opens a gap (create
		// gap, or n3's create partial discontinuous).
		trace, cons, err := GoldReplay(context.Background(), tr, ex.Smallest)
		if err != nil {
			t.Fatal(err)
		}
		labelled := 0
		gap := false
		for _, x := range trace.Best {
			st := trace.Steps[x]
			if st.Label >= 0 {
				labelled++
			}
			gap = gap || st.Rule == decode.CreateGap || st.Rule == decode.CreatePartial
		}
		if labelled != len(cons) || !gap {
			t.Errorf("%s: replay rebuilds %d of %d constituents, create gap used: %v", ex.ID, labelled, len(cons), gap)
		}
	}
}
