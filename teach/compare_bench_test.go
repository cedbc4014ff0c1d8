package teach

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

// BenchmarkCompareVariants times the teaching tab's comparison (what the
// continuous, n3, n5wn and n6 variants build of a gold tree) on the first
// dev trees of 12 and of 25 words with a discontinuous constituent, the
// stepper's largest example and the app's limit (ui/app.CompareMaxWords).
// The app runs it in the page, so its time is a pause of the page.
func BenchmarkCompareVariants(b *testing.B) {
	p := filepath.Join("..", "..", "shared", "data", "alpino-cdb", "dev.export")
	trees, err := treebank.ReadFile(p)
	if err != nil {
		b.Skipf("treebank data not found at %s (it lives in ../shared/data beside the repository): %v", p, err)
	}
	variants := []decode.Variant{decode.Continuous, decode.N3, decode.N5WN, decode.N6}
	for _, n := range []int{12, 25} {
		t := firstDiscontinuous(trees, n)
		if t == nil {
			b.Fatalf("no dev tree of %d words with a discontinuous constituent", n)
		}
		b.Run(fmt.Sprintf("words=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := CompareVariants(t, variants); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// firstDiscontinuous returns the first tree of n words that has a
// discontinuous constituent, or nil.
func firstDiscontinuous(trees []*tree.Tree, n int) *tree.Tree {
	for _, t := range trees {
		if t.Len() == n && len(t.Discontinuous()) > 0 {
			return t
		}
	}
	return nil
}
