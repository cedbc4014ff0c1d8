package teach

import (
	"fmt"

	"github.com/discspan/discspan/chart/coverage"
	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
)

// Buildability says which constituents of a tree one variant can build
// together: Found are in the variant's best approximation of the tree,
// Missing are not (constituents of block degree above two never are).
type Buildability struct {
	Variant decode.Variant
	Found   []tree.Labelled
	Missing []tree.Labelled
}

// Complete reports whether the variant builds the whole tree.
func (b Buildability) Complete() bool { return len(b.Missing) == 0 }

// CompareVariants returns, for each variant, what it can build of t (unary
// chains merged, as the decoders see them).
func CompareVariants(t *tree.Tree, variants []decode.Variant) ([]Buildability, error) {
	dec := decode.NewDecoder(nil)
	out := make([]Buildability, 0, len(variants))
	for _, v := range variants {
		found, missing, err := coverage.Buildable(dec, t, v)
		if err != nil {
			return nil, fmt.Errorf("teach: %s on %q: %w", v, t.ID, err)
		}
		out = append(out, Buildability{Variant: v, Found: found, Missing: missing})
	}
	return out, nil
}
