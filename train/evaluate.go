package train

import (
	"context"
	"fmt"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/eval"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
)

// DevVariant is the decoder that parses the dev set for model selection.
const DevVariant = decode.N3

// Evaluate parses the words of the gold trees with the model (decoder
// variant v, workers goroutines) and scores the parses against the gold
// trees with disco-dop's proper.prm. Cancelling ctx stops the decoders.
func Evaluate(ctx context.Context, m *network.Model, v *network.Vocab, gold []*tree.Tree, variant decode.Variant, workers int) (*eval.Result, error) {
	p, err := parser.New(m, v)
	if err != nil {
		return nil, err
	}
	return EvaluateParser(ctx, p, gold, variant, workers)
}

// EvaluateParser is Evaluate for any parser (an ensemble's, for one).
func EvaluateParser(ctx context.Context, p *parser.Parser, gold []*tree.Tree, variant decode.Variant, workers int) (*eval.Result, error) {
	words := make([][]string, len(gold))
	for i, t := range gold {
		words[i] = t.Words()
	}
	return parseAndScore(ctx, p, words, gold, variant, workers)
}

func evaluateWords(ctx context.Context, m *network.Model, v *network.Vocab, words [][]string, gold []*tree.Tree, variant decode.Variant, workers int) (*eval.Result, error) {
	p, err := parser.New(m, v)
	if err != nil {
		return nil, err
	}
	return parseAndScore(ctx, p, words, gold, variant, workers)
}

// Unparsable returns the indexes of the sentences of words that p
// refuses before parsing (CheckWords, CheckFits: too long for the word
// limit or for the memory budget with variant).
func Unparsable(p *parser.Parser, words [][]string, variant decode.Variant) []int {
	var out []int
	for i, w := range words {
		if p.CheckWords(w) != nil || p.CheckFits(len(w), variant) != nil {
			out = append(out, i)
		}
	}
	return out
}

// parseAndScore parses words and scores the parses against gold. A
// sentence the parser refuses (Unparsable) is scored as discspan parse
// writes it, a flat tree (tree.NoParse) whose constituents count as
// missed, rather than failing the evaluation (and a training run after an
// epoch's work).
func parseAndScore(ctx context.Context, p *parser.Parser, words [][]string, gold []*tree.Tree, variant decode.Variant, workers int) (*eval.Result, error) {
	pc := *p
	pc.Decode.Context = ctx
	cand := make([]*tree.Tree, len(words))
	refused := Unparsable(&pc, words, variant)
	for _, i := range refused {
		cand[i] = tree.NoParse(words[i])
	}
	var todo []int
	var batch [][]string
	for i, w := range words {
		if cand[i] == nil {
			todo = append(todo, i)
			batch = append(batch, w)
		}
	}
	results, err := pc.ParseBatch(batch, variant, workers)
	if err != nil {
		return nil, fmt.Errorf("train: parsing dev data: %w", err)
	}
	for k, r := range results {
		cand[todo[k]] = r.Tree
	}
	res, err := eval.Evaluate(gold, cand, eval.ProperPrm())
	if err != nil {
		return nil, fmt.Errorf("train: evaluating dev parses: %w", err)
	}
	return res, nil
}
