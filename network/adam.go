package network

import (
	"errors"
	"fmt"
	"math"
)

// AdamConfig holds the optimiser's hyper-parameters (JSON-serialisable).
type AdamConfig struct {
	LR         float64 `json:"lr"`          // initial learning rate
	Beta1      float64 `json:"beta1"`       // first-moment decay
	Beta2      float64 `json:"beta2"`       // second-moment decay
	Eps        float64 `json:"eps"`         // added to sqrt(v̂)
	ClipNorm   float64 `json:"clip_norm"`   // global gradient-norm limit; 0: no clipping
	Decay      float64 `json:"decay"`       // learning-rate factor applied every DecayEvery updates
	DecayEvery int     `json:"decay_every"` // 0: no decay
}

// DefaultAdam returns model.md's settings: lr 1e-3, betas (0.9, 0.9), eps
// 1e-12, gradient norm clipped at 5, lr x0.75 every 5000 updates.
func DefaultAdam() AdamConfig {
	return AdamConfig{LR: 1e-3, Beta1: 0.9, Beta2: 0.9, Eps: 1e-12, ClipNorm: 5, Decay: 0.75, DecayEvery: 5000}
}

// LearningRate returns the learning rate of update number step (1-based):
// LR * Decay^floor((step-1)/DecayEvery).
func (c AdamConfig) LearningRate(step int) float64 {
	if c.DecayEvery <= 0 || step <= 1 {
		return c.LR
	}
	return c.LR * math.Pow(c.Decay, float64((step-1)/c.DecayEvery))
}

// Adam is the Adam optimiser (bias-corrected, as PyTorch's torch.optim.Adam
// without weight decay) with global gradient-norm clipping and step decay.
// One update with gradient g:
//
//	s = min(1, ClipNorm/(‖g‖+1e-6)) (when ‖g‖ > ClipNorm, else 1),  t = Step+1
//	m = β1 m + (1-β1) s g,  v = β2 v + (1-β2) (s g)²
//	p -= lr(t) * (m/(1-β1^t)) / (sqrt(v/(1-β2^t)) + eps)
//
// computed in float64 per element, m and v stored as float32. Every value is
// updated at every step, embedding rows without gradient included (their
// moments decay), as PyTorch's dense Adam does.
type Adam struct {
	Config AdamConfig
	Step   int     // updates done
	M, V   *Params // first and second moments
}

// NewAdam returns an optimiser for parameters shaped like p.
func NewAdam(c AdamConfig, p *Params) *Adam {
	return &Adam{Config: c, M: p.ZeroClone(), V: p.ZeroClone()}
}

// Update applies one step to p with the gradient g (not modified) and
// returns the gradient norm before clipping. It runs on all cores (over
// fixed chunks of the tensors, the norm summed per chunk then in chunk
// order), with a result that does not depend on their number.
func (a *Adam) Update(p, g *Params) (float64, error) {
	if err := errors.Join(p.sameLayout(g), p.sameLayout(a.M), p.sameLayout(a.V)); err != nil {
		return 0, fmt.Errorf("network: adam: %w", err)
	}
	c := a.Config
	// The norm, as a sum of per-chunk sums (in chunk order), and the
	// update, over all cores.
	chunks := p.chunks()
	sums := make([]float64, len(chunks))
	parallelFor(len(chunks), 0, func(ci int) {
		ch := chunks[ci]
		sums[ci] = sumSquares(g.tensors[ch.t].Data[ch.lo:ch.hi])
	})
	var sq float64
	for _, s := range sums {
		sq += s
	}
	norm := math.Sqrt(sq)
	scale := 1.0
	if c.ClipNorm > 0 && norm > c.ClipNorm {
		scale = c.ClipNorm / (norm + 1e-6)
	}
	a.Step++
	lr := c.LearningRate(a.Step)
	bc1 := 1 - math.Pow(c.Beta1, float64(a.Step))
	bc2 := 1 - math.Pow(c.Beta2, float64(a.Step))
	k := [8]float64{scale, c.Beta1, 1 - c.Beta1, c.Beta2, 1 - c.Beta2, lr / bc1, 1 / bc2, c.Eps}
	parallelFor(len(chunks), 0, func(ci int) {
		ch := chunks[ci]
		adamChunk(p.tensors[ch.t].Data[ch.lo:ch.hi], g.tensors[ch.t].Data[ch.lo:ch.hi],
			a.M.tensors[ch.t].Data[ch.lo:ch.hi], a.V.tensors[ch.t].Data[ch.lo:ch.hi], &k)
	})
	p.Changed()
	return norm, nil
}

// adamGo is the update of one chunk (see adamChunk), value by value.
func adamGo(p, g, m, v []float32, k *[8]float64) {
	scale, b1, c1, b2, c2, lrb, ib2, eps := k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7]
	g, m, v = g[:len(p)], m[:len(p)], v[:len(p)]
	for j := range p {
		gj := scale * float64(g[j])
		mj := b1*float64(m[j]) + c1*gj
		vj := b2*float64(v[j]) + c2*gj*gj
		m[j], v[j] = float32(mj), float32(vj)
		p[j] -= float32(lrb * mj / (math.Sqrt(vj*ib2) + eps))
	}
}

// AdamState is an optimiser checkpoint: plain data, encodable with
// encoding/gob or encoding/json (moments in the order of Params.Names).
type AdamState struct {
	Config AdamConfig `json:"config"`
	Step   int        `json:"step"`
	M      []Tensor   `json:"m"`
	V      []Tensor   `json:"v"`
}

// State returns a copy of the optimiser state.
func (a *Adam) State() AdamState {
	s := AdamState{Config: a.Config, Step: a.Step}
	for _, t := range a.M.Clone().tensors {
		s.M = append(s.M, *t)
	}
	for _, t := range a.V.Clone().tensors {
		s.V = append(s.V, *t)
	}
	return s
}

// RestoreAdam rebuilds an optimiser from a checkpoint for parameters shaped
// like p, checking every moment's name and shape.
func RestoreAdam(s AdamState, p *Params) (*Adam, error) {
	a := NewAdam(s.Config, p)
	a.Step = s.Step
	for _, mv := range []struct {
		name string
		dst  *Params
		src  []Tensor
	}{{"m", a.M, s.M}, {"v", a.V, s.V}} {
		if len(mv.src) != len(p.tensors) {
			return nil, fmt.Errorf("network: adam state: %d %s tensors, want %d", len(mv.src), mv.name, len(p.tensors))
		}
		for i, t := range mv.src {
			if want := p.tensors[i].Name; t.Name != want {
				return nil, fmt.Errorf("network: adam state: %s tensor %d is %q, want %q", mv.name, i, t.Name, want)
			}
			if err := mv.dst.Set(t.Name, t.Shape, t.Data); err != nil {
				return nil, fmt.Errorf("network: adam state %s: %w", mv.name, err)
			}
		}
	}
	return a, nil
}
