package app

import (
	"context"
	"errors"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/parser"
)

// Reparser implements annotate.Reparser with an Engine: an exact
// constrained parse of the sentence with the variant, around the
// annotator's fixed constituents and away from the deleted ones. The
// engine reuses the scores of the sentence it parsed last, so a re-parse
// after an edit costs only the decoding.
type Reparser struct {
	Engine  Engine
	Variant string
	// Done, when set, is called with every parse (for timings).
	Done func(*parser.Parse)
}

var _ annotate.Reparser = Reparser{}

// Reparse implements annotate.Reparser.
func (r Reparser) Reparse(ctx context.Context, words, tags []string, require []annotate.Fixed, forbid []annotate.Yield) (*tree.Tree, error) {
	if r.Engine == nil {
		return nil, parser.ErrNoModel
	}
	req := parser.Request{Words: words, Variant: r.Variant}
	for _, f := range require {
		req.Require = append(req.Require, parser.Constraint{Label: f.Label, Blocks: yieldBlocks(f.Yield)})
	}
	for _, y := range forbid {
		req.Forbid = append(req.Forbid, parser.Constraint{Blocks: yieldBlocks(y)})
	}
	p, err := r.Engine.Parse(ctx, req)
	if err != nil {
		return nil, err
	}
	if r.Done != nil {
		r.Done(p)
	}
	t := p.Tree
	if t == nil {
		return nil, errors.New("the engine returned no tree")
	}
	return t, nil
}

// yieldBlocks converts a yield to [start,end) pairs.
func yieldBlocks(y annotate.Yield) [][2]int {
	out := make([][2]int, len(y))
	for i, b := range y {
		out[i] = [2]int{b.Start, b.End}
	}
	return out
}
