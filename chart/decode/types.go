package decode

import (
	"fmt"
	"strings"
)

// Variant selects a deduction system (see doc.go for the rules of each).
type Variant int

// The decoder variants, from the plain continuous baseline to the full
// O(n^6) system.
const (
	Continuous Variant = iota // combine only: O(n^3)
	N3                        // cubic algorithm, same search space as N4
	N4                        // combine, create gap, fill gap
	N5WN                      // N4 + kept right/left, shrink left/right
	N5                        // N5WN + ill-nested no gap
	N6WN                      // N5WN + wrapped
	N6                        // all twelve rules
)

var variantNames = [...]string{"continuous", "n3", "n4", "n5wn", "n5", "n6wn", "n6"}

// Variants lists every variant in order of increasing cost.
var Variants = []Variant{Continuous, N3, N4, N5WN, N5, N6WN, N6}

// String returns the command-line name of v.
func (v Variant) String() string {
	if v < 0 || int(v) >= len(variantNames) {
		return fmt.Sprintf("Variant(%d)", int(v))
	}
	return variantNames[v]
}

// ParseVariant returns the variant with the given command-line name.
func ParseVariant(name string) (Variant, error) {
	for i, n := range variantNames {
		if n == name {
			return Variant(i), nil
		}
	}
	return 0, fmt.Errorf("unknown variant %q (want one of %s)", name, strings.Join(variantNames[:], ", "))
}

// Scores holds the decomposed span scores of one sentence: for word
// positions x <= y (inclusive endpoints) and label a, Cont[x,y,a] scores a
// continuous constituent over words x..y, Disc[x,y,a] the outer extent and
// Gap[x,y,a] the gap of a discontinuous constituent. Entries with x > y are
// ignored. Index with Index.
type Scores struct {
	N, L            int
	Cont, Disc, Gap []float32
}

// NewScores allocates zero scores for n words and l labels.
func NewScores(n, l int) *Scores {
	size := n * n * l
	return &Scores{N: n, L: l, Cont: make([]float32, size), Disc: make([]float32, size), Gap: make([]float32, size)}
}

// Index returns the offset of (x, y, a) in Cont, Disc and Gap.
func (s *Scores) Index(x, y, a int) int { return (x*s.N+y)*s.L + a }

// MaxScoreWords and MaxScoreLabels bound the sizes Check accepts: far
// above any sentence or label set (a decoder's chart for MaxScoreWords
// words is terabytes, which the memory budget refuses), and low enough
// that no size computed from them overflows.
const (
	MaxScoreWords  = 1 << 20
	MaxScoreLabels = 1 << 20
)

// Check reports an error when the tensors do not have N*N*L entries, when
// a size is negative or past MaxScoreWords or MaxScoreLabels, or when a
// sentence has no labels to score.
func (s *Scores) Check() error {
	if s.N < 0 || s.L < 0 {
		return fmt.Errorf("scores: negative size n=%d labels=%d", s.N, s.L)
	}
	if s.N > MaxScoreWords || s.L > MaxScoreLabels {
		return fmt.Errorf("scores: n=%d labels=%d: at most %d words and %d labels", s.N, s.L, MaxScoreWords, MaxScoreLabels)
	}
	if s.N > 0 && s.L == 0 {
		return fmt.Errorf("scores: %d words and no labels", s.N)
	}
	want := s.N * s.N * s.L
	for name, t := range map[string][]float32{"cont": s.Cont, "disc": s.Disc, "gap": s.Gap} {
		if len(t) != want {
			return fmt.Errorf("scores: %s has %d entries, want %d (n=%d, labels=%d)", name, len(t), want, s.N, s.L)
		}
	}
	return nil
}

// Rule names the deduction that built an item.
type Rule int

// The deduction rules (decoder.md). Axiom items are single words.
const (
	Axiom        Rule = iota
	Combine           // [i,m] + [m,j] -> [i,j]
	CreateGap         // [i,k] + [l,j] -> [i,k,l,j]
	FillGap           // [i,m,n,j] + [m,n] -> [i,j]
	KeptRight         // [i,m] + [m,k,l,j] -> [i,k,l,j]
	KeptLeft          // [i,k,l,m] + [m,j] -> [i,k,l,j]
	ShrinkLeft        // [i,m,l,j] + [m,k] -> [i,k,l,j]
	ShrinkRight       // [i,k,m,j] + [l,m] -> [i,k,l,j]
	IllNoGap          // [i,m,n,o] + [m,n,o,j] -> [i,j]
	Wrapped           // [i,m,n,j] + [m,k,l,n] -> [i,k,l,j]
	IllGapCentre      // [i,m,l,n] + [m,k,n,j] -> [i,k,l,j]
	IllGapRight       // [i,m,n,k] + [m,n,l,j] -> [i,k,l,j]
	IllGapLeft        // [i,k,m,n] + [l,m,n,j] -> [i,k,l,j]
	// The cubic algorithm's two rules (decoder.md, "The cubic algorithm")
	// over its forgetful items bottom(i,l,A). Only the teaching stepper
	// shows them: N3's derivations are given in n4's rules (create gap
	// and fill gap), and no Variant.Has them.
	CreatePartial // [i,k] + [k,l] -> bottom(i,l,A)
	CompleteDisc  // bottom(i,l,A) + [l,j] -> [i,j]
)

var ruleNames = [...]string{"axiom", "combine", "create gap", "fill gap",
	"combine, gap kept in right antecedent", "combine, gap kept in left antecedent",
	"shrink gap from the left", "shrink gap from the right", "ill-nested, no gap",
	"wrapped", "ill-nested, gap centre", "ill-nested, gap right", "ill-nested, gap left",
	"create partial discontinuous", "complete discontinuous"}

// String returns the rule's name as decoder.md writes it.
func (r Rule) String() string {
	if r < 0 || int(r) >= len(ruleNames) {
		return fmt.Sprintf("Rule(%d)", int(r))
	}
	return ruleNames[r]
}

// Constituent is a labelled node of a decoded tree: one block [i,j) or two
// blocks [i,k) and [l,j), in interstice indices.
type Constituent struct {
	Label  int
	Blocks [][2]int
}
