package parser

import (
	"errors"
	"fmt"
	"time"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
)

// Parser parses sentences with a trained model. Model and Vocab are
// required; the other fields are optional. A Parser may be used by several
// goroutines at once.
type Parser struct {
	Model *network.Model
	Vocab *network.Vocab
	// Scorer, when set, scores instead of Model's CPU forward pass (Model
	// may then be nil): a GPU backend, an ensemble's mean (scorer.Mean), a
	// test's fixed scores. Its outputs must be shaped for Vocab.
	Scorer scorer.Scorer
	// Decode are the options of every decoder (chart memory budget,
	// cancellation through a context).
	Decode decode.Options
	// ChunkWords bounds the words ParseBatch scores in one forward batch;
	// 0 means DefaultChunkWords.
	ChunkWords int
	// Calibration holds score offsets per decoder variant, added before
	// decoding (see Calibrate); a weights file's own comes with
	// Models.Parser and Engine.Load.
	Calibration Calibration
	// MaxWords is the longest sentence accepted (see CheckWords); 0 means
	// tree.DefaultMaxWords, negative no limit.
	MaxWords int
}

// DefaultChunkWords is the default number of words ParseBatch scores in one
// forward batch: enough to keep every core busy, small enough that a
// chunk's activations and scores stay small. With the shipped pair,
// `discspan parse` of the 714 dev sentences on two cores peaked at
// 470-514 MB with 1024 and 617-736 MB with 2048, in the same time (2.4-2.6
// s, three alternating runs, identical output).
const DefaultChunkWords = 1024

// New returns a parser for a model and the vocabulary it was trained with,
// after checking that their sizes agree.
func New(m *network.Model, v *network.Vocab) (*Parser, error) {
	p := &Parser{Model: m, Vocab: v}
	if err := p.check(); err != nil {
		return nil, err
	}
	return p, nil
}

// check reports an error when the parser is not usable.
func (p *Parser) check() error {
	if p.Vocab == nil {
		return errors.New("parser: no vocabulary")
	}
	if p.Scorer != nil {
		return nil
	}
	if p.Model == nil {
		return errors.New("parser: no model")
	}
	c, v := p.Model.Config(), p.Vocab
	for _, d := range []struct {
		what       string
		model, voc int
	}{
		{"words", c.WordVocab, len(v.Words)},
		{"characters", c.CharVocab, len(v.Chars)},
		{"labels", c.Labels, len(v.Labels)},
		{"tags", c.Tags, len(v.Tags)},
	} {
		if d.model != d.voc {
			return fmt.Errorf("parser: model has %d %s, vocabulary %d", d.model, d.what, d.voc)
		}
	}
	return nil
}

// scorer returns the Scorer, else the CPU reference over Model.
func (p *Parser) scorer() scorer.Scorer {
	if p.Scorer != nil {
		return p.Scorer
	}
	return scorer.NewCPU(p.Model)
}

// Forward returns the network's outputs that the parser decodes for a batch
// of encoded sentences: its Scorer's (an ensemble's mean, say), else its
// Model's.
func (p *Parser) Forward(ins []network.Input) ([]network.Output, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	return p.scorer().Score(ins)
}

// Timing is where the time of one sentence went.
type Timing struct {
	// Score is the network's forward pass. In ParseBatch it is the
	// sentence's share, in proportion to its words, of its chunk's batched
	// forward pass (wall time).
	Score time.Duration `json:"score_ns"`
	// Decode is the chart decoder plus tree building.
	Decode time.Duration `json:"decode_ns"`
}

// Result is one parsed sentence.
type Result struct {
	Words []string
	// Tags are the tags the network's tagger predicts (argmax), one per word.
	Tags []string
	// Tree is the decoded tree with the predicted tags; merged unary labels
	// are split into chains, words no constituent covers hang from the
	// virtual root.
	Tree *tree.Tree
	// Derivation is the decoder's derivation (labels index Vocab.Labels,
	// merged chains unsplit).
	Derivation *decode.Derivation
	Timing     Timing
}

// ParseWords parses one sentence with the decoder variant v (Parse with
// a Request is the same pipeline, with constraints and cancellation).
func (p *Parser) ParseWords(words []string, v decode.Variant) (*Result, error) {
	r, _, err := p.parseOne(words, v, nil)
	return r, err
}

// parseOne scores one sentence and decodes it under the constraints c (nil
// for none); it also returns the network's output.
func (p *Parser) parseOne(words []string, v decode.Variant, c *constraints) (*Result, network.Output, error) {
	if err := p.check(); err != nil {
		return nil, network.Output{}, err
	}
	if err := p.CheckWords(words); err != nil {
		return nil, network.Output{}, fmt.Errorf("parser: %w", err)
	}
	// The budget before the network runs: its output for a sentence too
	// long for the chart would be thrown away (constrained n3 decodes in
	// n4's chart).
	fits := v
	if c != nil && v == decode.N3 {
		fits = decode.N4
	}
	if err := p.CheckFits(len(words), fits); err != nil {
		return nil, network.Output{}, fmt.Errorf("parser: %w", err)
	}
	start := time.Now()
	outs, err := p.scorer().Score([]network.Input{p.Vocab.Encode(words)})
	if err != nil {
		return nil, network.Output{}, fmt.Errorf("parser: scoring: %w", err)
	}
	if len(outs) != 1 {
		return nil, network.Output{}, fmt.Errorf("parser: scorer returned %d outputs for 1 sentence", len(outs))
	}
	scored := time.Since(start)
	r, err := p.build(decode.NewDecoder(&p.Decode), words, outs[0], v, c)
	if err != nil {
		return nil, network.Output{}, err
	}
	r.Timing.Score = scored
	return r, outs[0], nil
}

// build decodes one scored sentence under the constraints c (nil for none)
// and builds its tree; it sets Timing.Decode. It is the one decoding step of
// ParseWords, ParseBatch and Parse.
func (p *Parser) build(dec *decode.Decoder, words []string, out network.Output, v decode.Variant, c *constraints) (*Result, error) {
	start := time.Now()
	n := len(words)
	if out.Scores == nil || out.Scores.N != n {
		return nil, fmt.Errorf("parser: scores for %d words, sentence has %d", scoresN(out.Scores), n)
	}
	tags, err := PredictTags(out.Tags, n, p.Vocab.Tags)
	if err != nil {
		return nil, err
	}
	var dc *decode.Constraints
	if c != nil {
		dc = c.decode
	}
	d, err := dec.DecodeConstrained(v, p.Calibration.Shifted(v, out.Scores), dc)
	if err != nil {
		return nil, fmt.Errorf("parser: %w", err)
	}
	labels := p.Vocab.Labels
	if c != nil && len(c.extra) > 0 {
		labels = c.relabel(labels, d)
	}
	t, err := d.Tree(words, tags, labels)
	if err != nil {
		return nil, fmt.Errorf("parser: %w", err)
	}
	return &Result{Words: words, Tags: tags, Tree: t, Derivation: d, Timing: Timing{Decode: time.Since(start)}}, nil
}

func scoresN(s *decode.Scores) int {
	if s == nil {
		return 0
	}
	return s.N
}

// PredictTags returns the highest-scoring tag of every word (the lowest
// index among ties); logits holds n rows of len(names) values.
func PredictTags(logits []float32, n int, names []string) ([]string, error) {
	k := len(names)
	if k == 0 {
		return nil, nil // a model without a tagger: no tags
	}
	if len(logits) != n*k {
		return nil, fmt.Errorf("parser: %d tag logits for %d words and %d tags", len(logits), n, k)
	}
	tags := make([]string, n)
	for i := range tags {
		row := logits[i*k : (i+1)*k]
		best := 0
		for j, v := range row {
			if v > row[best] {
				best = j
			}
		}
		tags[i] = names[best]
	}
	return tags, nil
}
