package scorer

import "github.com/discspan/discspan/network"

// cpu is the CPU reference backend.
type cpu struct{ m *network.Model }

// NewCPU returns a Scorer over the CPU reference forward pass of m
// (network.Model.ForwardBatch, parallel over sentences). It panics when m is
// nil.
func NewCPU(m *network.Model) Scorer {
	if m == nil {
		panic("scorer: NewCPU with a nil model")
	}
	return cpu{m}
}

func (c cpu) Score(batch []network.Input) ([]Result, error) { return c.m.ForwardBatch(batch) }

func (cpu) Backend() string { return "cpu" }

func (cpu) Close() error { return nil }
