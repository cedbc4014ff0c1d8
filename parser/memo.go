package parser

import (
	"slices"
	"sync"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
)

// memo scores with s and remembers the last sentence scored alone, so that
// parsing it again with another variant (the side-by-side comparison, a
// change of variant, a constrained re-parse, the stepper's scores) reuses
// its scores. The outputs are shared: the parser and the decoders only read
// them.
type memo struct {
	s scorer.Scorer

	mu   sync.Mutex
	in   network.Input
	out  *network.Output
	hits int // calls answered from memory
}

var _ scorer.Scorer = (*memo)(nil)

// Score implements scorer.Scorer.
func (m *memo) Score(ins []network.Input) ([]network.Output, error) {
	if len(ins) == 1 {
		m.mu.Lock()
		hit := m.out != nil && sameInput(m.in, ins[0])
		out := m.out
		if hit {
			m.hits++
		} else {
			// Forgotten before scoring, so that the memory of a long
			// sentence's scores can be taken by the next one's.
			m.in, m.out = network.Input{}, nil
		}
		m.mu.Unlock()
		if hit {
			return []network.Output{*out}, nil
		}
	}
	outs, err := m.s.Score(ins)
	if err == nil && len(ins) == 1 && len(outs) == 1 {
		m.mu.Lock()
		m.in, m.out = ins[0], &outs[0]
		m.mu.Unlock()
	}
	return outs, err
}

// InferenceBytes implements scorer.Sized: the scorer's behind the memo
// (the sentence it remembers is forgotten before another is scored).
func (m *memo) InferenceBytes(n int, out int64) int64 { return scorer.InferenceBytes(m.s, n, out) }

// Backend is the backend of the scorer behind the memo.
func (m *memo) Backend() string { return m.s.Backend() }

// Close closes the scorer behind the memo.
func (m *memo) Close() error { return m.s.Close() }

// sameInput reports whether two encoded sentences are the same.
func sameInput(a, b network.Input) bool {
	return slices.Equal(a.WordIDs, b.WordIDs) && slices.EqualFunc(a.CharIDs, b.CharIDs, slices.Equal[[]int])
}

// Hits returns the number of calls answered from memory.
func (m *memo) Hits() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.hits
}
