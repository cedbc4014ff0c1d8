package network

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/discspan/discspan/chart/decode"
)

// Model is the scoring network: its parameters and the number of goroutines
// its batched calls use. A Model may be used by several goroutines at once
// for inference; LossGrad only reads the parameters.
type Model struct {
	Params *Params
	// Workers is the number of goroutines of ForwardBatch, LossGrad and
	// Loss; 0 means runtime.GOMAXPROCS(0). Results do not depend on it,
	// except the last bits of LossGrad's gradients (summation order).
	Workers int

	portable bool // inference without the wasm SIMD kernels (tests, benchmarks)

	workOnce sync.Once
	ws       *workspace // work memory reused between calls; see work
}

// New returns a model for c with parameters initialised from seed (see
// Params.Init).
func New(c Config, seed uint64) (*Model, error) {
	p, err := NewParams(c)
	if err != nil {
		return nil, err
	}
	p.Init(seed)
	return &Model{Params: p}, nil
}

// Config returns the model's configuration.
func (m *Model) Config() Config { return m.Params.cfg }

func (m *Model) workers(jobs int) int {
	w := m.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return max(1, min(w, jobs))
}

// Output is the network's output for one sentence of n words.
type Output struct {
	Scores *decode.Scores // (n, n, Labels) cont, disc and gap scores; 0 for x > y
	Tags   []float32      // (n, Tags) POS tag logits
}

// Forward scores one sentence (no dropout). It returns an error when an id
// is outside the vocabularies.
func (m *Model) Forward(in Input) (Output, error) {
	c := m.Config()
	if err := c.checkInput(in); err != nil {
		return Output{}, fmt.Errorf("network: %w", err)
	}
	n := in.Len()
	if n == 0 {
		return Output{Scores: decode.NewScores(0, c.Labels)}, nil
	}
	outs := make([]Output, 1)
	m.fastForward([]Input{in}, []int{0}, outs, 1)
	return outs[0], nil
}

// decodeScores wraps the three score tensors of a sentence.
func decodeScores(n, labels int, s [numKinds][]float32) *decode.Scores {
	return &decode.Scores{N: n, L: labels, Cont: s[kindCont], Disc: s[kindDisc], Gap: s[kindGap]}
}

// Scores returns the span scores of one sentence. It panics when an id is
// outside the vocabularies (Vocab.Encode never produces one); use Forward to
// get an error instead.
func (m *Model) Scores(in Input) *decode.Scores {
	out, err := m.Forward(in)
	if err != nil {
		panic(err)
	}
	return out.Scores
}

// ForwardBatch scores several sentences, in parallel over sentences (see
// Workers). The outputs are identical to Forward's.
func (m *Model) ForwardBatch(ins []Input) ([]Output, error) {
	c := m.Config()
	outs := make([]Output, len(ins))
	var idx []int
	for i, in := range ins {
		if err := c.checkInput(in); err != nil {
			return nil, fmt.Errorf("sentence %d: network: %w", i, err)
		}
		if in.Len() == 0 {
			outs[i] = Output{Scores: decode.NewScores(0, c.Labels)}
			continue
		}
		idx = append(idx, i)
	}
	m.fastForward(ins, idx, outs, len(idx))
	return outs, nil
}

// LossGrad computes the training loss of a batch (with dropout) and writes
// its gradient to grads (shaped like m.Params, e.g. m.Params.ZeroClone();
// overwritten). Dropout masks of sentence i are drawn from PCG(seed, i): pass
// a different seed at every update. Sentences are spread over Workers
// goroutines, each with its own gradient buffer; the buffers are summed in
// worker order, so the result is deterministic for a given seed and worker
// count.
func (m *Model) LossGrad(batch []Example, seed uint64, grads *Params) (Loss, error) {
	if err := m.checkBatch(batch); err != nil {
		return Loss{}, err
	}
	if err := m.Params.sameLayout(grads); err != nil {
		return Loss{}, fmt.Errorf("network: gradient buffer: %w", err)
	}
	chunks := grads.chunks()
	parallelFor(len(chunks), m.workers(len(chunks)), func(ci int) {
		ch := chunks[ci]
		clear(grads.tensors[ch.t].Data[ch.lo:ch.hi])
	})
	parts := make([][numParts]float64, len(batch))
	m.fastLossGrad(batch, true, seed, grads, parts)
	return sumLoss(parts, batch), nil
}

// Loss computes the loss of a batch without dropout and without gradients
// (for evaluation).
func (m *Model) Loss(batch []Example) (Loss, error) {
	if err := m.checkBatch(batch); err != nil {
		return Loss{}, err
	}
	parts := make([][numParts]float64, len(batch))
	m.fastLossGrad(batch, false, 0, nil, parts)
	return sumLoss(parts, batch), nil
}

func (m *Model) checkBatch(batch []Example) error {
	c := m.Config()
	for i := range batch {
		if err := c.checkExample(&batch[i]); err != nil {
			return fmt.Errorf("network: sentence %d: %w", i, err)
		}
	}
	return nil
}
