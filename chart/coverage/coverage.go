// Package coverage measures how much of a treebank a decoder variant can
// build at best (the paper's Table 1): every sentence is decoded with scores
// derived from its gold tree, and the best tree's gold constituents are
// counted.
//
// Each gold constituent gets a label of its own, so that the decomposed
// scores cannot recombine two gold constituents into a spurious one: a
// continuous constituent c scores cont[x,y,c] = weight(c); a discontinuous
// one scores disc[i,j-1,c] + gap[k,l-1,c] = weight(c); everything else
// scores below zero. weight(c) is the number of tree nodes c stands for (a
// merged unary chain counts each of its nodes), so the best tree of a
// variant is one that recovers as many gold nodes as the variant can:
// exactly the maximum recall.
package coverage

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
)

// Counts holds recovered/total node counts for one class of constituents.
type Counts struct {
	Recovered int `json:"recovered"`
	Total     int `json:"total"`
}

// Recall returns Recovered/Total in percent (100 when Total is 0).
func (c Counts) Recall() float64 {
	if c.Total == 0 {
		return 100
	}
	return 100 * float64(c.Recovered) / float64(c.Total)
}

func (c *Counts) add(o Counts) { c.Recovered += o.Recovered; c.Total += o.Total }

// Report is the coverage of one variant on one treebank.
type Report struct {
	Variant   decode.Variant
	Sentences int
	All       Counts // every phrasal node
	BDLe2     Counts // nodes of block degree at most 2
	BDEq2     Counts // nodes of block degree exactly 2
	// Skipped counts sentences refused by the decoder's memory budget; their
	// constituents count as not recovered.
	Skipped int
	// TooLong counts sentences longer than Options.MaxWords: they are left
	// out of the counts (not even their constituents are collected).
	TooLong int
}

// Options tune Compute.
type Options struct {
	Workers  int                   // parallel decoders; 0 means GOMAXPROCS
	Decode   decode.Options        // memory budget and cancellation
	Progress func(done, total int) // called after each sentence, may be nil
	Context  context.Context       // cancels the run, may be nil
	// MaxWords is the longest sentence measured (tree.CheckLength: 0 means
	// tree.DefaultMaxWords, negative no limit); longer ones are counted in
	// Report.TooLong before anything of their size is allocated.
	MaxWords int
}

// Compute returns the coverage of the variant on the trees.
func Compute(trees []*tree.Tree, v decode.Variant, opt *Options) (*Report, error) {
	if opt == nil {
		opt = &Options{}
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	dopt := opt.Decode
	dopt.Context = ctx
	type result struct {
		all, le2, eq2 Counts
		skipped       bool
		tooLong       bool
		err           error
	}
	results := make([]result, len(trees))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dec := decode.NewDecoder(&dopt)
			for idx := range jobs {
				r := &results[idx]
				if tree.CheckLength(trees[idx].Len(), opt.MaxWords) != nil {
					r.tooLong = true
				} else {
					r.all, r.le2, r.eq2, r.skipped, r.err = sentence(dec, trees[idx], v)
				}
				if opt.Progress != nil {
					mu.Lock()
					done++
					opt.Progress(done, len(trees))
					mu.Unlock()
				}
			}
		}()
	}
feed:
	for idx := range trees {
		select {
		case jobs <- idx:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rep := &Report{Variant: v, Sentences: len(trees)}
	for idx, r := range results {
		if r.err != nil {
			return nil, fmt.Errorf("sentence %d (%s): %w", idx+1, trees[idx].ID, r.err)
		}
		if r.skipped {
			rep.Skipped++
		}
		if r.tooLong {
			rep.TooLong++
		}
		rep.All.add(r.all)
		rep.BDLe2.add(r.le2)
		rep.BDEq2.add(r.eq2)
	}
	return rep, nil
}

// sentence decodes one tree with its gold-derived scores and counts the
// gold nodes of the best tree.
func sentence(dec *decode.Decoder, t *tree.Tree, v decode.Variant) (all, le2, eq2 Counts, skipped bool, err error) {
	found, missing, err := Buildable(dec, t, v)
	if err != nil {
		if isTooLong(err) {
			// Count the sentence's constituents as not recovered.
			cons, over := tree.Targets(tree.MergeUnaries(t))
			missing, found = append(cons, over...), nil
			skipped = true
		} else {
			return all, le2, eq2, false, err
		}
	}
	for _, c := range found {
		k := nodes(c)
		all.Recovered += k
		le2.Recovered += k
		if len(c.Blocks) == 2 {
			eq2.Recovered += k
		}
	}
	for _, c := range append(found, missing...) {
		k := nodes(c)
		all.Total += k
		if len(c.Blocks) <= 2 {
			le2.Total += k
		}
		if len(c.Blocks) == 2 {
			eq2.Total += k
		}
	}
	return all, le2, eq2, skipped, nil
}

// nodes is the number of tree nodes a target stands for: a merged unary
// chain counts each of its nodes.
func nodes(c tree.Labelled) int { return len(splitChain(c.Label)) }

// Buildable decodes t's gold-derived scores (GoldScores) with variant v and
// splits t's constituents (unary chains merged, as the decoders see them)
// into those the variant's best tree contains and those it cannot build
// together with the others. Constituents of block degree above two are
// always missing. The split maximises the number of gold nodes found.
func Buildable(dec *decode.Decoder, t *tree.Tree, v decode.Variant) (found, missing []tree.Labelled, err error) {
	cons, over := tree.Targets(tree.MergeUnaries(t))
	missing = append(missing, over...)
	if len(cons) == 0 {
		return nil, missing, nil
	}
	if err := dec.Fits(v, t.Len(), len(cons)); err != nil {
		return nil, nil, err
	}
	d, err := dec.Decode(v, GoldScores(t.Len(), cons))
	if err != nil {
		return nil, nil, err
	}
	got := make([]bool, len(cons))
	for _, c := range d.Constituents() {
		// Each gold constituent has its own label: a positive item with
		// label c is exactly gold constituent c.
		if sameBlocks(cons[c.Label].Blocks, c.Blocks) {
			got[c.Label] = true
		}
	}
	for x, c := range cons {
		if got[x] {
			found = append(found, c)
		} else {
			missing = append(missing, c)
		}
	}
	return found, missing, nil
}

// GoldScores gives every gold constituent its own label (label c is
// cons[c]) and a positive weight (its node count); every other entry scores
// -(1 + the largest weight), so that no other item carries a label: a
// discontinuous item that takes half a weight from one term gets at least
// as much below zero from the other. Constituents must have one or two
// blocks.
func GoldScores(n int, cons []tree.Labelled) *decode.Scores {
	s := decode.NewScores(n, len(cons))
	background := float32(-1)
	for _, g := range cons {
		background = min(background, -1-float32(nodes(g)))
	}
	for _, t := range [][]float32{s.Cont, s.Disc, s.Gap} {
		for x := range t {
			t[x] = background
		}
	}
	for c, g := range cons {
		w := float32(nodes(g))
		b := g.Blocks
		if len(b) == 1 {
			s.Cont[s.Index(b[0].Start, b[0].End-1, c)] = w
			continue
		}
		// disc + gap = w, and either term alone (combined with a -1 of
		// another extent or gap) stays below zero.
		s.Disc[s.Index(b[0].Start, b[1].End-1, c)] = w / 2
		s.Gap[s.Index(b[0].End, b[1].Start-1, c)] = w / 2
	}
	return s
}

func sameBlocks(a []tree.Span, b [][2]int) bool {
	if len(a) != len(b) {
		return false
	}
	for x := range a {
		if a[x].Start != b[x][0] || a[x].End != b[x][1] {
			return false
		}
	}
	return true
}
