package app

import (
	"fmt"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
)

// spanScores returns the network's span scores of words for the teaching
// tab's stepper. Called right after p parsed the same words, it costs
// nothing: the memo in front of the scorer answers from that forward pass.
func spanScores(p *parser.Parser, words []string) (*decode.Scores, error) {
	outs, err := p.Scorer.ForwardBatch([]network.Input{p.Vocab.Encode(words)})
	if err != nil {
		return nil, fmt.Errorf("scores for the stepper: %w", err)
	}
	if len(outs) != 1 || outs[0].Scores == nil {
		return nil, fmt.Errorf("scores for the stepper: the scorer returned no scores")
	}
	return outs[0].Scores, nil
}
