package train

import (
	"context"
	"testing"

	"github.com/discspan/discspan/chart/eval"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/parser/parsertest"
)

// TestEvaluateRefusedSentences: a dev sentence the parser refuses (over
// its word limit or memory budget) is scored as a flat tree, its
// constituents missed, as discspan parse and eval score it, instead of
// failing the evaluation (and a training run after an epoch's work).
func TestEvaluateRefusedSentences(t *testing.T) {
	ms, err := parser.Read(parsertest.Model(t, 1), "m")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ms.Parser()
	if err != nil {
		t.Fatal(err)
	}
	var gold []*tree.Tree
	for _, s := range parsertest.Sentences {
		tags := make([]string, len(s))
		for i := range tags {
			tags[i] = parsertest.Tags[0]
		}
		g, err := tree.FromConstituents(s, tags, []tree.Labelled{{Label: "smain", Blocks: []tree.Span{{Start: 0, End: len(s) - 1}}}})
		if err != nil {
			t.Fatal(err)
		}
		gold = append(gold, g)
	}
	p.MaxWords = len(gold[0].Words()) // the longer sentences are refused
	words := make([][]string, len(gold))
	for i, g := range gold {
		words[i] = g.Words()
	}
	refused := Unparsable(p, words, DevVariant)
	if len(refused) == 0 || len(refused) == len(gold) {
		t.Fatalf("%d of %d sentences refused: the test needs some of both", len(refused), len(gold))
	}
	res, err := EvaluateParser(context.Background(), p, gold, DevVariant, 1)
	if err != nil {
		t.Fatal(err)
	}
	cand := make([]*tree.Tree, len(gold))
	for i, w := range words {
		if p.CheckWords(w) != nil {
			cand[i] = tree.NoParse(w)
			continue
		}
		r, err := p.ParseWords(w, DevVariant)
		if err != nil {
			t.Fatal(err)
		}
		cand[i] = r.Tree
	}
	want, err := eval.Evaluate(gold, cand, eval.ProperPrm())
	if err != nil {
		t.Fatal(err)
	}
	if res.All != want.All {
		t.Errorf("evaluation %+v\nwant (refused sentences flat) %+v", res.All, want.All)
	}
}
