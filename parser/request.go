package parser

import (
	"context"
	"errors"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
)

// Request asks for one sentence to be parsed (Parser.Parse, Engine.Parse).
// It crosses a worker boundary as JSON.
type Request struct {
	Words []string `json:"words"`
	// Variant names the decoder variant (decode.ParseVariant).
	Variant string `json:"variant"`
	// Scores asks for the network's scores in Parse.Scores (the teaching
	// tab's stepper replays them).
	Scores bool `json:"scores,omitempty"`
	// Require and Forbid constrain the parse (the annotation tab's
	// re-parse around fixed constituents, see Constraint): it is decoded
	// exactly with decode.DecodeConstrained. Behind an Engine, the scores
	// of the sentence parsed just before are reused when it is the same.
	Require []Constraint `json:"require,omitempty"`
	Forbid  []Constraint `json:"forbid,omitempty"`
}

// constrained reports whether the request carries constraints.
func (r *Request) constrained() bool { return len(r.Require)+len(r.Forbid) > 0 }

// Parse is one parsed sentence, the answer to a Request. It crosses a
// worker boundary as JSON.
type Parse struct {
	Variant string   `json:"variant"`
	Words   []string `json:"words"`
	Tags    []string `json:"tags"`
	// Tree has the predicted tags, unary chains split.
	Tree *tree.Tree `json:"tree"`
	// Items is the decoder's derivation (labels index Info.Labels, -1 for
	// null items; chains merged; a required label the model lacks comes
	// after them), Score the tree's score (a required label the model lacks
	// adds nothing to it).
	Items []decode.Item `json:"items"`
	Score float32       `json:"score"`
	// ScoreNs and DecodeNs time the network and the decoder (with tree
	// building).
	ScoreNs  int64 `json:"score_ns"`
	DecodeNs int64 `json:"decode_ns"`
	// Reused is set when the scores of the same sentence, scored just
	// before (for another variant, say), were used again.
	Reused bool `json:"reused"`
	// Backend names the backend that scored the sentence ("cpu", or
	// "webgpu: " and the adapter; see scorer.Scorer.Backend).
	Backend string `json:"backend"`
	// Scores are the network's span scores, and Calibration the model's
	// offsets, when Request.Scores asked for them: a variant decodes
	// Calibration.Shifted(variant, Scores), so that replaying them (the
	// teaching stepper) with any variant finds the tree the parser gives.
	Scores      *decode.Scores `json:"scores,omitempty"`
	Calibration Calibration    `json:"calibration,omitempty"`
}

// Parse parses one sentence as req asks: the words are encoded, scored by
// the Scorer, decoded with the variant under the constraints, and the tree
// is built (the pipeline of ParseWords and ParseBatch). ctx cancels the
// decoder (checked once per chart cell); the error is then ctx.Err().
// Errors for a sentence whose chart exceeds Decode.MaxBytes wrap
// decode.ErrTooLong, bad constraints decode.ErrBadConstraint, constraints
// no tree meets decode.ErrUnsatisfiable.
func (p *Parser) Parse(ctx context.Context, req Request) (*Parse, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	v, err := decode.ParseVariant(req.Variant)
	if err != nil {
		return nil, err
	}
	if len(req.Words) == 0 {
		return nil, errors.New("parser: no words to parse")
	}
	var c *constraints
	if req.constrained() {
		if c, err = buildConstraints(p.Vocab.Labels, req.Require, req.Forbid); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err // cancelled already: the network need not run
	}
	pc := *p // a copy with this call's context
	pc.Decode.Context = ctx
	mm, _ := p.Scorer.(*memo)
	hits := 0
	if mm != nil {
		hits = mm.Hits()
	}
	r, out, err := pc.parseOne(req.Words, v, c)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	res := &Parse{
		Variant:  v.String(),
		Words:    r.Words,
		Tags:     r.Tags,
		Tree:     r.Tree,
		Items:    r.Derivation.Items,
		Score:    r.Derivation.Score,
		ScoreNs:  int64(r.Timing.Score),
		DecodeNs: int64(r.Timing.Decode),
		Reused:   mm != nil && mm.Hits() > hits,
		Backend:  p.scorer().Backend(),
	}
	if req.Scores {
		res.Scores, res.Calibration = out.Scores, pc.Calibration
	}
	return res, nil
}
