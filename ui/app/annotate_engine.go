package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
)

// Constraint is a constituent constraint of a re-parse (Request.Require
// and Request.Forbid), in a form that crosses the worker boundary as JSON:
// a label name (for required constituents; it may be a merged unary chain
// "A/B", top first, or a label the model does not know) and the yield as
// sorted [start,end) blocks of interstice indices (one block, or two around
// a gap).
type Constraint struct {
	Label  string   `json:"label,omitempty"`
	Blocks [][2]int `json:"blocks"`
}

// constrained reports whether the request carries constraints.
func (r *Request) constrained() bool { return len(r.Require)+len(r.Forbid) > 0 }

// parseConstrained parses req with its constraints through the exact
// constrained decoder. The scores come from pc's scorer, which is the memo:
// re-parsing the sentence parsed (or re-parsed) just before costs only the
// decoding.
func parseConstrained(ctx context.Context, pc *parser.Parser, mm *memo, v decode.Variant, req Request) (*Parse, error) {
	hits := mm.Hits()
	start := time.Now()
	outs, err := pc.Scorer.ForwardBatch([]network.Input{pc.Vocab.Encode(req.Words)})
	if err != nil {
		return nil, fmt.Errorf("scoring: %w", err)
	}
	if len(outs) != 1 || outs[0].Scores == nil || outs[0].Scores.N != len(req.Words) {
		return nil, errors.New("scoring: the scorer returned no scores for the sentence")
	}
	scored := time.Since(start)
	start = time.Now()
	out := outs[0]
	tags, err := parser.PredictTags(out.Tags, len(req.Words), pc.Vocab.Tags)
	if err != nil {
		return nil, err
	}
	labels := pc.Vocab.Labels
	c, extra, err := buildConstraints(labels, req.Require, req.Forbid)
	if err != nil {
		return nil, err
	}
	d, err := decode.NewDecoder(&pc.Decode).DecodeConstrained(v, out.Scores, c)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	all := labels
	if len(extra) > 0 {
		// Required constituents with a label the model lacks were decoded
		// with a stand-in label (a constant offset of every tree's score,
		// so the search is the same); they get their own label here.
		all = append(slices.Clone(labels), make([]string, len(extra))...)
		for k, x := range extra {
			all[len(labels)+k] = x.label
			for i := range d.Items {
				it := &d.Items[i]
				if it.Label == x.stand && slices.Equal(it.Blocks(), x.blocks) {
					it.Label = len(labels) + k
					break
				}
			}
		}
	}
	t, err := d.Tree(req.Words, tags, all)
	if err != nil {
		return nil, err
	}
	return &Parse{
		Variant:  v.String(),
		Words:    req.Words,
		Tags:     tags,
		Tree:     t,
		Items:    d.Items,
		Score:    d.Score,
		ScoreNs:  int64(scored),
		DecodeNs: int64(time.Since(start)),
		Reused:   mm.Hits() > hits,
	}, nil
}

// extraLabel is a required constituent whose label the model lacks: it is
// decoded with label index stand and renamed afterwards.
type extraLabel struct {
	label  string
	stand  int
	blocks [][2]int
}

// buildConstraints turns named constraints into the decoder's, with the
// required labels the model does not know listed in extra. Required
// constituents over the same yield are merged into one unary chain: the
// model's chain label with those labels when there is one.
func buildConstraints(labels []string, require, forbid []Constraint) (*decode.Constraints, []extraLabel, error) {
	index := make(map[string]int, len(labels))
	for i, l := range labels {
		index[l] = i
	}
	c := &decode.Constraints{Labels: labels}
	var extra []extraLabel
	byYield := map[string][]string{}
	var order []string
	blocksOf := map[string][][2]int{}
	for _, r := range require {
		if r.Label == "" {
			return nil, nil, fmt.Errorf("required constituent %v without a label: %w", r.Blocks, decode.ErrBadConstraint)
		}
		k := fmt.Sprint(r.Blocks)
		if _, ok := byYield[k]; !ok {
			order = append(order, k)
			blocksOf[k] = r.Blocks
		}
		byYield[k] = append(byYield[k], strings.Split(r.Label, "/")...)
	}
	for _, k := range order {
		chain := byYield[k]
		label, ok := chainLabel(index, chain)
		if !ok {
			label = 0
			extra = append(extra, extraLabel{label: strings.Join(chain, "/"), stand: 0, blocks: blocksOf[k]})
		}
		if len(labels) == 0 {
			return nil, nil, fmt.Errorf("the model has no labels: %w", decode.ErrBadConstraint)
		}
		c.Require = append(c.Require, decode.Required{Label: label, Blocks: blocksOf[k]})
	}
	for _, f := range forbid {
		c.Forbid = append(c.Forbid, decode.Forbidden{Blocks: f.Blocks})
	}
	return c, extra, nil
}

// chainLabel returns the model's label for a unary chain of the given
// labels, trying the order given and, for short chains, every other order
// (the annotator's constituents do not say which is on top).
func chainLabel(index map[string]int, chain []string) (int, bool) {
	if i, ok := index[strings.Join(chain, "/")]; ok {
		return i, true
	}
	if len(chain) < 2 || len(chain) > 4 {
		return 0, false
	}
	perm := slices.Clone(chain)
	slices.Sort(perm)
	for {
		if i, ok := index[strings.Join(perm, "/")]; ok {
			return i, true
		}
		if !nextPermutation(perm) {
			return 0, false
		}
	}
}

// nextPermutation rearranges p into its next lexicographic permutation and
// reports whether there was one.
func nextPermutation(p []string) bool {
	i := len(p) - 2
	for i >= 0 && p[i] >= p[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(p) - 1
	for p[j] <= p[i] {
		j--
	}
	p[i], p[j] = p[j], p[i]
	slices.Reverse(p[i+1:])
	return true
}

// Reparser implements annotate.Reparser with an Engine: an exact
// constrained parse of the sentence with the variant, around the
// annotator's fixed constituents and away from the deleted ones. The
// engine reuses the scores of the sentence it parsed last, so a re-parse
// after an edit costs only the decoding.
type Reparser struct {
	Engine  Engine
	Variant string
	// Done, when set, is called with every parse (for timings).
	Done func(*Parse)
}

var _ annotate.Reparser = Reparser{}

// Reparse implements annotate.Reparser.
func (r Reparser) Reparse(ctx context.Context, words, tags []string, require []annotate.Fixed, forbid []annotate.Yield) (*tree.Tree, error) {
	if r.Engine == nil {
		return nil, ErrNoModel
	}
	req := Request{Words: words, Variant: r.Variant}
	for _, f := range require {
		req.Require = append(req.Require, Constraint{Label: f.Label, Blocks: yieldBlocks(f.Yield)})
	}
	for _, y := range forbid {
		req.Forbid = append(req.Forbid, Constraint{Blocks: yieldBlocks(y)})
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
