package tree

import (
	"cmp"
	"fmt"
	"slices"
)

// MaxTargetBlocks is the largest block degree a chart decoder can build: one
// block (continuous) or two blocks around one gap.
const MaxTargetBlocks = 2

// Labelled is a labelled constituent: a label (possibly a merged unary chain
// "A/B") over the words of its blocks, which are sorted, non-empty,
// non-overlapping spans.
type Labelled struct {
	Label  string
	Blocks []Span
}

// Size returns the number of words the constituent covers.
func (c Labelled) Size() int {
	n := 0
	for _, b := range c.Blocks {
		n += b.End - b.Start
	}
	return n
}

// String writes the constituent as "LABEL[i,j)" or "LABEL[i,k)+[l,j)".
func (c Labelled) String() string {
	s := c.Label
	for k, b := range c.Blocks {
		if k > 0 {
			s += "+"
		}
		s += fmt.Sprintf("[%d,%d)", b.Start, b.End)
	}
	return s
}

// compareLabelled orders constituents by the start of their first block, then
// by size (larger first), then by label, then by blocks.
func compareLabelled(a, b Labelled) int {
	if c := cmp.Compare(firstStart(a), firstStart(b)); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Size(), a.Size()); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Label, b.Label); c != 0 {
		return c
	}
	return slices.CompareFunc(a.Blocks, b.Blocks, func(x, y Span) int {
		if c := cmp.Compare(x.Start, y.Start); c != 0 {
			return c
		}
		return cmp.Compare(x.End, y.End)
	})
}

func firstStart(c Labelled) int {
	if len(c.Blocks) == 0 {
		return -1
	}
	return c.Blocks[0].Start
}

// SortLabelled sorts constituents deterministically: by the start of the
// first block, then by size (larger first), then by label, then by blocks.
// Parents therefore come before the children that start where they start.
func SortLabelled(cons []Labelled) { slices.SortFunc(cons, compareLabelled) }

// Targets returns the phrasal nodes of t as labelled constituents, the
// training targets of a chart parser. Call it on a tree whose unary chains
// are merged (MergeUnaries); otherwise every node of a chain becomes its own
// constituent with the same blocks. Constituents of block degree at most
// MaxTargetBlocks go to cons, the others to skipped, so that callers can count
// what the parser cannot represent. Nodes that cover no word are ignored.
// Both lists are sorted with SortLabelled.
//
// Cost O(len(t.Nodes) * len(t.Tokens)) in the worst case (deep trees).
func Targets(t *Tree) (cons []Labelled, skipped []Labelled) {
	for i, y := range t.Yields() {
		if len(y) == 0 {
			continue
		}
		c := Labelled{Label: t.Nodes[i].Label, Blocks: Blocks(y)}
		if len(c.Blocks) > MaxTargetBlocks {
			skipped = append(skipped, c)
		} else {
			cons = append(cons, c)
		}
	}
	SortLabelled(cons)
	SortLabelled(skipped)
	return cons, skipped
}

// TargetStats counts training targets over a treebank (see Targets).
type TargetStats struct {
	Sentences int
	// Constituents counts every phrasal node that covers a word, skipped
	// ones included.
	Constituents int
	// Discontinuous counts constituents with more than one block, skipped
	// ones included.
	Discontinuous int
	// Skipped counts constituents with more than MaxTargetBlocks blocks.
	Skipped int
	// SkippedSentences counts sentences with at least one skipped
	// constituent.
	SkippedSentences int
	// MaxBlockDegree is the largest block degree seen.
	MaxBlockDegree int
}

// Add counts the targets of one tree and returns them (see Targets).
func (s *TargetStats) Add(t *Tree) (cons, skipped []Labelled) {
	cons, skipped = Targets(t)
	s.Sentences++
	s.Constituents += len(cons) + len(skipped)
	s.Skipped += len(skipped)
	if len(skipped) > 0 {
		s.SkippedSentences++
	}
	for _, list := range [][]Labelled{cons, skipped} {
		for _, c := range list {
			if len(c.Blocks) > 1 {
				s.Discontinuous++
			}
			s.MaxBlockDegree = max(s.MaxBlockDegree, len(c.Blocks))
		}
	}
	return cons, skipped
}

// CountTargets returns the target statistics of a treebank. Merge unary
// chains first (MergeUnaries) to count what a parser is trained on.
func CountTargets(trees []*Tree) TargetStats {
	var s TargetStats
	for _, t := range trees {
		s.Add(t)
	}
	return s
}

// String summarises the statistics on one line.
func (s TargetStats) String() string {
	pct := func(a, b int) float64 {
		if b == 0 {
			return 0
		}
		return 100 * float64(a) / float64(b)
	}
	return fmt.Sprintf("%d sentences, %d constituents, %d discontinuous (%.2f%%), %d skipped (block degree > %d, %.2f%%) in %d sentences (%.2f%%), max block degree %d",
		s.Sentences, s.Constituents, s.Discontinuous, pct(s.Discontinuous, s.Constituents),
		s.Skipped, MaxTargetBlocks, pct(s.Skipped, s.Constituents),
		s.SkippedSentences, pct(s.SkippedSentences, s.Sentences), s.MaxBlockDegree)
}

// Discontinuous returns the labelled discontinuous constituents of t (more
// than one block), as Labelled.String gives them, sorted. Cost O(nodes x
// words).
func (t *Tree) Discontinuous() []string {
	var out []string
	for i, y := range t.Yields() {
		if b := Blocks(y); len(b) > 1 {
			out = append(out, Labelled{Label: t.Nodes[i].Label, Blocks: b}.String())
		}
	}
	slices.Sort(out)
	return out
}
