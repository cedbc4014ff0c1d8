package decode

import (
	"fmt"

	"github.com/discspan/discspan/chart/tree"
)

// Tree builds the decoded tree: the derivation's labelled items become
// phrasal nodes (merged unary labels "A/B" split back into chains, null items
// spliced out), words hang from the smallest node covering them. labels maps
// label indices to names; tags may be nil.
func (d *Derivation) Tree(words, tags, labels []string) (*tree.Tree, error) {
	if len(words) != d.N {
		return nil, fmt.Errorf("decode: %d words for a derivation over %d", len(words), d.N)
	}
	var cons []tree.Labelled
	for _, c := range d.Constituents() {
		if c.Label >= len(labels) {
			return nil, fmt.Errorf("decode: label %d has no name (%d labels)", c.Label, len(labels))
		}
		l := tree.Labelled{Label: labels[c.Label]}
		for _, b := range c.Blocks {
			l.Blocks = append(l.Blocks, tree.Span{Start: b[0], End: b[1]})
		}
		cons = append(cons, l)
	}
	return tree.FromConstituents(words, tags, cons)
}
