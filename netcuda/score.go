package netcuda

import (
	"errors"
	"fmt"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/cuda"
	"github.com/discspan/discspan/network"
)

// scoreCells bounds the padded score cells (sentences x longest²) of one
// forward pass of Score (Trainer.scoreCells); more are scored in several.
const scoreCells = 1 << 20

// Score returns the network's outputs for ins as network.Model.ForwardBatch
// does (no dropout; span scores for x <= y, 0 elsewhere; tag logits), from
// the forward pass of the training step run on the device with the
// trainer's current parameters.
func (t *Trainer) Score(ins []network.Input) ([]network.Output, error) {
	outs := make([]network.Output, len(ins))
	for lo := 0; lo < len(ins); {
		hi, longest := lo, 0
		for hi < len(ins) {
			l := max(longest, ins[hi].Len())
			if hi > lo && (hi-lo+1)*l*l > t.scoreCells {
				break
			}
			longest = l
			hi++
		}
		if err := t.scoreChunk(ins[lo:hi], outs[lo:hi]); err != nil {
			return nil, err
		}
		lo = hi
	}
	return outs, nil
}

func (t *Trainer) scoreChunk(ins []network.Input, outs []network.Output) error {
	L, K := t.cfg.Labels, t.cfg.Tags
	batch := make([]network.Example, len(ins))
	for i, in := range ins {
		batch[i] = network.Example{Input: in, Targets: network.NewTargets(in.Len())}
		outs[i] = network.Output{Scores: decode.NewScores(in.Len(), L), Tags: make([]float32, in.Len()*K)}
	}
	plan, err := network.PlanBatch(t.cfg, batch, 0, false)
	if err != nil {
		return fmt.Errorf("netcuda: %w", err)
	}
	if len(plan.Sentences) == 0 {
		return nil
	}
	unbind, err := t.g.dev.Bind()
	if err != nil {
		return err
	}
	defer unbind()
	g := t.g
	g.err = nil
	g.arena.reset()
	var out forwardOut
	t.lossGrad(plan, batch, &out)
	B, nm, T := len(plan.Sentences), out.nm, len(plan.Tokens)
	var span, label [3][]float32
	tags := make([]float32, T*K)
	if g.err == nil {
		g.fail(g.dev.Sync())
	}
	for k := range 3 {
		span[k], label[k] = make([]float32, B*nm*nm), make([]float32, B*nm*L*nm)
		if g.err == nil {
			g.fail(cuda.Download(g.dev, span[k], out.span[k]))
			g.fail(cuda.Download(g.dev, label[k], out.label[k]))
		}
	}
	if g.err == nil {
		g.fail(cuda.Download(g.dev, tags, out.tags))
	}
	if g.err != nil {
		err := g.err
		if cuda.OutOfMemory(err) {
			g.arena.release()
		}
		return fmt.Errorf("netcuda: scoring %d sentences: %w", len(ins), err)
	}
	for b, s := range plan.Sentences {
		o, n := outs[s.Index], s.Words
		for k, dst := range [3][]float32{o.Scores.Cont, o.Scores.Disc, o.Scores.Gap} {
			sp, lab := span[k][b*nm*nm:], label[k][b*nm*L*nm:]
			for x := 0; x < n; x++ {
				for y := x; y < n; y++ {
					row := dst[(x*n+y)*L : (x*n+y+1)*L]
					for a := range row {
						row[a] = sp[x*nm+y] + lab[(x*L+a)*nm+y]
					}
				}
			}
		}
		copy(o.Tags, tags[(s.Token0+1)*K:(s.Token0+1+n)*K])
	}
	return nil
}

// Scorer scores sentences with one model on a GPU (Trainer.Score); it
// satisfies scorer.Scorer. Package train uses it for a teacher when the
// run trains on the GPU.
type Scorer struct {
	dev *cuda.Device
	t   *Trainer
}

// OpenScorer opens GPU 0 and copies the model's parameters to it, and
// nothing else: no gradients or moments. Errors are as Open's.
func OpenScorer(m *network.Model) (*Scorer, error) {
	dev, t, err := openTrainer(m.Params, nil, nil, nil, true)
	if err != nil {
		return nil, err
	}
	return &Scorer{dev: dev, t: t}, nil
}

// Score returns the model's outputs for batch (see Trainer.Score).
func (s *Scorer) Score(batch []network.Input) ([]network.Output, error) { return s.t.Score(batch) }

// Backend names the device.
func (s *Scorer) Backend() string { return "cuda: " + s.dev.Name() }

// Close frees the device memory and closes the device.
func (s *Scorer) Close() error { return errors.Join(s.t.Close(), s.dev.Close()) }
